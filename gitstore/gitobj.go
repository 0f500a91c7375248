package gitstore

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Trees and commits in git's object encoding, for either hash algorithm.

// Tree entry modes as git writes them.
const (
	modeDir       uint32 = 0o040000
	modeRegular   uint32 = 0o100644
	modeExec      uint32 = 0o100755
	modeSymlink   uint32 = 0o120000
	modeSubmodule uint32 = 0o160000
)

// isFileMode reports whether a tree mode is a regular file (git reads the
// old group-writable 100664 as one too).
func isFileMode(m uint32) bool { return m&0o170000 == 0o100000 }

// isExec reports whether a regular file mode is executable.
func isExec(m uint32) bool { return isFileMode(m) && m&0o111 != 0 }

// treeEntry is one name in a tree.
type treeEntry struct {
	Name string
	Mode uint32
	Hash oid
}

// parseTree reads a tree object's entries: "MODE NAME\0" and the id's
// bytes, repeated.
func parseTree(f objectFormat, data []byte) ([]treeEntry, error) {
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp <= 0 {
			return nil, errors.New("bad tree entry mode")
		}
		mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, fmt.Errorf("bad tree entry mode %q", data[:sp])
		}
		data = data[sp+1:]
		nul := bytes.IndexByte(data, 0)
		if nul <= 0 || len(data) < nul+1+f.size {
			return nil, errors.New("truncated tree entry")
		}
		out = append(out, treeEntry{Name: string(data[:nul]), Mode: uint32(mode), Hash: fromRaw(data[nul+1 : nul+1+f.size])})
		data = data[nul+1+f.size:]
	}
	return out, nil
}

// treeKey orders tree entries as git does: a directory sorts as if its
// name ended in "/".
func treeKey(e treeEntry) string {
	if e.Mode == modeDir {
		return e.Name + "/"
	}
	return e.Name
}

// compareTreeEntries orders entries as treeKey does, without building
// the keys: past a common prefix, the next byte decides, a directory's
// name going on with "/" and a file's ending (names hold no "/", and a
// tree holds a name once).
func compareTreeEntries(a, b treeEntry) int {
	n := min(len(a.Name), len(b.Name))
	if c := strings.Compare(a.Name[:n], b.Name[:n]); c != 0 {
		return c
	}
	return cmp.Compare(nextKeyByte(a, n), nextKeyByte(b, n))
}

func nextKeyByte(e treeEntry, i int) int {
	switch {
	case i < len(e.Name):
		return int(e.Name[i])
	case e.Mode == modeDir:
		return '/'
	}
	return -1
}

// encodeTree sorts entries in git's order and encodes them.
func encodeTree(entries []treeEntry) []byte {
	slices.SortFunc(entries, compareTreeEntries)
	var b bytes.Buffer
	for _, e := range entries {
		b.WriteString(strconv.FormatUint(uint64(e.Mode), 8))
		b.WriteByte(' ')
		b.WriteString(e.Name)
		b.WriteByte(0)
		b.Write(e.Hash.raw())
	}
	return b.Bytes()
}

// signature is an author or committer line.
type signature struct {
	Name, Email string
	When        time.Time
}

// String is the signature as a commit header holds it:
// "NAME <EMAIL> UNIX +HHMM".
func (s signature) String() string {
	_, off := s.When.Zone()
	sign := '+'
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("%s <%s> %d %c%02d%02d", s.Name, s.Email, s.When.Unix(), sign, off/3600, off%3600/60)
}

// parseSignature reads "NAME <EMAIL> UNIX TZ"; a malformed date leaves
// When zero rather than failing the commit.
func parseSignature(v string) signature {
	var s signature
	lt, gt := strings.IndexByte(v, '<'), strings.LastIndexByte(v, '>')
	if lt < 0 || gt < lt {
		s.Name = strings.TrimSpace(v)
		return s
	}
	s.Name = strings.TrimSpace(v[:lt])
	s.Email = v[lt+1 : gt]
	f := strings.Fields(v[gt+1:])
	if len(f) >= 1 {
		if sec, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			loc := time.UTC
			if len(f) >= 2 && len(f[1]) == 5 {
				if tz, err := strconv.Atoi(f[1][1:]); err == nil {
					off := (tz/100*60 + tz%100) * 60
					if f[1][0] == '-' {
						off = -off
					}
					loc = time.FixedZone("", off)
				}
			}
			s.When = time.Unix(sec, 0).In(loc)
		}
	}
	return s
}

// commit is the part of a commit object graft reads and writes.
type commit struct {
	Hash      oid
	Tree      oid
	Parents   []oid
	Author    signature
	Committer signature
	Message   string
}

// parseCommit reads a commit object. Headers graft does not use
// (encoding, gpgsig and their continuation lines, mergetag) are skipped.
func parseCommit(f objectFormat, h oid, data []byte) (*commit, error) {
	c := &commit{Hash: h}
	for len(data) > 0 {
		line := data
		next := []byte(nil)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, next = data[:i], data[i+1:]
		}
		data = next
		if len(line) == 0 {
			c.Message = string(data)
			break
		}
		if line[0] == ' ' {
			continue // continuation of a multi-line header
		}
		key, value, _ := strings.Cut(string(line), " ")
		switch key {
		case "tree":
			id, ok := f.parse(value)
			if !ok {
				return nil, fmt.Errorf("bad tree id %q", value)
			}
			c.Tree = id
		case "parent":
			id, ok := f.parse(value)
			if !ok {
				return nil, fmt.Errorf("bad parent id %q", value)
			}
			c.Parents = append(c.Parents, id)
		case "author":
			c.Author = parseSignature(value)
		case "committer":
			c.Committer = parseSignature(value)
		}
	}
	if c.Tree.IsZero() {
		return nil, errors.New("commit without a tree")
	}
	return c, nil
}

// encodeCommit writes a commit object's content.
func encodeCommit(c *commit) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", c.Tree)
	for _, p := range c.Parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	fmt.Fprintf(&b, "author %s\ncommitter %s\n\n", c.Author, c.Committer)
	b.WriteString(c.Message)
	return b.Bytes()
}
