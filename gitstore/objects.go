package gitstore

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Objects are written straight into the object store: one blob per new
// content, one tree per directory on a changed path, one commit. Nothing
// here lists or reads a directory of the worktree, so the cost follows the
// number and depth of the touched paths, not the size of the repository.

// blobHash is the blob id of content in this repository's hash algorithm.
func (s *Store) blobHash(content []byte) oid { return s.algo.sum("blob", content) }

// writeBlob stores content as a blob (once) and returns its id.
func (s *Store) writeBlob(content []byte) (oid, error) {
	return s.writeObject("blob", content)
}

// writeObject stores an object unless it already exists as a loose
// object, and returns its id. Existence in a pack is not asked, to keep
// the write path off the pack indexes; writing a loose copy of a packed
// object is harmless (git gc removes it).
func (s *Store) writeObject(typ string, content []byte) (oid, error) {
	h := s.algo.sum(typ, content)
	return h, s.writeObjectID(typ, content, h)
}

// writeObjectID is writeObject for content whose id h is known already.
// While a transaction collects its objects (s.batch), the object is only
// noted, and written by flushBatch.
func (s *Store) writeObjectID(typ string, content []byte, h oid) error {
	return s.writePartsID(typ, [][]byte{content}, h)
}

// writePartsID is writeObjectID for the concatenation of parts.
func (s *Store) writePartsID(typ string, parts [][]byte, h oid) error {
	if b := s.batch; b != nil {
		if !b.ids[h] {
			b.ids[h] = true
			b.objs = append(b.objs, batchObject{typ: typ, parts: parts, id: h})
		}
		return nil
	}
	if exists(loosePath(s.objectDirs()[0], h)) {
		return nil
	}
	return s.writeLoose(h, typ, parts...)
}

// objectBatch holds the objects of a transaction between the moment their
// ids are known and the moment they are written: a transaction computes
// its commit first, so that its intent record can be written and synced
// while the objects are written (txn.go).
type objectBatch struct {
	objs  []batchObject
	ids   map[oid]bool
	trees map[oid][]treeEntry // the new trees, readable before they are written
}

type batchObject struct {
	typ   string
	parts [][]byte // the content, concatenated
	id    oid
}

// startBatch makes the object writes that follow collect in a batch.
func (s *Store) startBatch() {
	s.batch = &objectBatch{ids: map[oid]bool{}, trees: map[oid][]treeEntry{}}
}

// flushBatch writes the batch's objects, ends the batch, and only then
// lets the session's tree cache know the new trees: a cached tree must
// exist in the store, because the next call builds on it.
func (s *Store) flushBatch() error {
	b := s.batch
	if b == nil {
		return nil
	}
	s.batch = nil
	for _, o := range b.objs {
		if err := s.writePartsID(o.typ, o.parts, o.id); err != nil {
			return err
		}
	}
	if s.trees == nil {
		s.trees = map[oid][]treeEntry{}
	}
	for h, t := range b.trees {
		s.trees[h] = t
	}
	return nil
}

// dropBatch ends a batch without writing it (the transaction failed before
// its objects were needed).
func (s *Store) dropBatch() { s.batch = nil }

// Loose objects are zlib streams. Small and big ones are written as
// stored (uncompressed) blocks, which git reads like any other zlib stream
// and compresses when it packs them (git gc):
//
//   - up to storedLimit, because a compressing zlib writer allocates and
//     clears about 700 KB before its first byte, which costs a short-lived
//     graft process more than writing a few kilobytes plainly;
//   - from compressLimit on, because compressing is the biggest cost of an
//     edit of a big file (about 100 ms for 10 MB here, more than the rest
//     of the call together); such an object takes its full size on disk
//     until the next git gc.
//
// In between, objects are compressed at zlib's fastest level, as git's
// own loose objects are by default.
const (
	storedLimit   = 64 << 10
	compressLimit = 1 << 20
)

// writeZlibStored writes header and the content parts after it to w as a
// zlib stream of stored blocks (RFC 1950 and RFC 1951 section 3.2.4),
// streaming from them.
func writeZlibStored(w io.Writer, header []byte, content ...[]byte) error {
	pieces := append([][]byte{header}, content...)
	total := partsLen(pieces)
	// The checksum ends the stream: for a big object it is computed on
	// another core while the blocks are written.
	checksum := make(chan uint32, 1)
	sumOf := func() {
		c := uint32(1)
		for _, p := range pieces {
			c = adler32Update(c, p)
		}
		checksum <- c
	}
	if total >= compressLimit {
		go sumOf()
	} else {
		sumOf()
	}
	bw := bufio.NewWriterSize(w, min(64<<10, total+64)) // small objects, small buffers
	bw.Write([]byte{0x78, 0x01})
	// k and at: the piece the next byte comes from, and where in it.
	k, at := 0, 0
	for pos, first := 0, true; first || pos < total; first = false {
		n := min(total-pos, 0xffff)
		final := byte(0)
		if pos+n == total {
			final = 1
		}
		bw.Write([]byte{final, byte(n), byte(n >> 8), ^byte(n), ^byte(n >> 8)})
		// The block's bytes, from as many pieces as they span.
		for left := n; left > 0; {
			for at == len(pieces[k]) {
				k, at = k+1, 0
			}
			m := min(left, len(pieces[k])-at)
			bw.Write(pieces[k][at : at+m])
			at += m
			left -= m
		}
		pos += n
	}
	c := <-checksum
	bw.Write([]byte{byte(c >> 24), byte(c >> 16), byte(c >> 8), byte(c)})
	return bw.Flush()
}

// writeLoose writes a loose object as git does: zlib of "TYPE SIZE\0"
// and the content, into a temporary file beside its final name, renamed
// into place. The temporary name starts with git's own "tmp_obj_", so that
// one left by a killed process is what git fsck and git prune know as an
// unfinished object, not a corrupt one.
func (s *Store) writeLoose(h oid, t string, content ...[]byte) error {
	size := partsLen(content)
	header := []byte(fmt.Sprintf("%s %d\x00", t, size))
	hex := h.String()
	dir := filepath.Join(s.objectDirs()[0], hex[:2])
	tmp := filepath.Join(dir, fmt.Sprintf("tmp_obj_graft_%d_%s", os.Getpid(), hex[2:10]))
	f, err := openFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o444)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o755); err == nil {
			f, err = openFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o444)
		}
	}
	if err != nil {
		return fmt.Errorf("gitstore: object %s: %w", hex, err)
	}
	if size <= storedLimit || size >= compressLimit {
		err = writeZlibStored(f, header, content...)
	} else {
		zw, _ := zlib.NewWriterLevel(f, zlib.BestSpeed)
		zw.Write(header)
		for _, p := range content {
			zw.Write(p)
		}
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = replaceFile(tmp, filepath.Join(dir, hex[2:]))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("gitstore: object %s: %w", hex, err)
	}
	return nil
}

// readBlob returns a blob's content.
func (s *Store) readBlob(h oid) ([]byte, error) {
	b, err := s.object("blob", h)
	if err != nil {
		return nil, fmt.Errorf("gitstore: blob %s: %w", h, err)
	}
	return b, nil
}

// entry is one path's state in a tree: absent, or a blob with a mode.
type entry struct {
	Hash oid
	Mode uint32
}

func (e entry) absent() bool { return e.Hash.IsZero() }

// fileMode is the tree mode of a worktree file with permission bits perm.
func fileMode(perm uint32) uint32 {
	if perm&0o111 != 0 {
		return modeExec
	}
	return modeRegular
}

// tree reads a tree's entries, once per Store; the zero id is the empty
// tree.
func (s *Store) tree(h oid) ([]treeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	if t, ok := s.trees[h]; ok {
		return t, nil
	}
	if b := s.batch; b != nil {
		if t, ok := b.trees[h]; ok {
			return t, nil
		}
	}
	data, err := s.object("tree", h)
	if err != nil {
		return nil, fmt.Errorf("gitstore: tree %s: %w", h, err)
	}
	t, err := parseTree(s.algo, data)
	if err != nil {
		return nil, fmt.Errorf("gitstore: tree %s: %w", h, err)
	}
	if s.trees == nil {
		s.trees = map[oid][]treeEntry{}
	}
	s.trees[h] = t
	return t, nil
}

// lookup finds path in the tree rooted at root, reading only the trees on
// the path. A missing path is the zero entry.
func (s *Store) lookup(root oid, path string) (entry, error) {
	h := root
	parts := strings.Split(path, "/")
	for i, name := range parts {
		if h.IsZero() {
			return entry{}, nil
		}
		t, err := s.tree(h)
		if err != nil {
			return entry{}, err
		}
		var found *treeEntry
		for j := range t {
			if t[j].Name == name {
				found = &t[j]
				break
			}
		}
		if found == nil {
			return entry{}, nil
		}
		if i == len(parts)-1 {
			if found.Mode == modeDir || found.Mode == modeSubmodule {
				return entry{}, nil
			}
			return entry{Hash: found.Hash, Mode: found.Mode}, nil
		}
		if found.Mode != modeDir {
			return entry{}, nil
		}
		h = found.Hash
	}
	return entry{}, nil
}

// updateTree returns the id of the tree rooted at root with each path of
// set replaced (an absent entry deletes it), writing only the trees on the
// changed paths. Directories left empty disappear, as in git; a result
// with nothing left is the zero id.
func (s *Store) updateTree(root oid, set map[string]entry) (oid, error) {
	h, _, err := s.updateSubtree(root, set)
	return h, err
}

func (s *Store) updateSubtree(h oid, set map[string]entry) (oid, bool, error) {
	t, err := s.tree(h)
	if err != nil {
		return "", false, err
	}
	entries := make(map[string]treeEntry, len(t))
	for _, e := range t {
		entries[e.Name] = e
	}
	sub := map[string]map[string]entry{}
	for p, e := range set {
		dir, rest, nested := strings.Cut(p, "/")
		if old, ok := entries[dir]; ok && old.Mode == modeSubmodule {
			return "", false, errGitlink(dir) // owner.go
		}
		if !nested {
			if e.absent() {
				delete(entries, p)
			} else {
				entries[p] = treeEntry{Name: p, Mode: e.Mode, Hash: e.Hash}
			}
			continue
		}
		if sub[dir] == nil {
			sub[dir] = map[string]entry{}
		}
		sub[dir][rest] = e
	}
	for dir, changes := range sub {
		var child oid
		if e, ok := entries[dir]; ok && e.Mode == modeDir {
			child = e.Hash
		}
		ch, empty, err := s.updateSubtree(child, changes)
		if err != nil {
			return "", false, err
		}
		if empty {
			if e, ok := entries[dir]; ok && e.Mode == modeDir {
				delete(entries, dir)
			}
			continue
		}
		entries[dir] = treeEntry{Name: dir, Mode: modeDir, Hash: ch}
	}
	if len(entries) == 0 {
		return "", true, nil
	}
	nt := make([]treeEntry, 0, len(entries))
	for _, e := range entries {
		nt = append(nt, e)
	}
	nh, err := s.writeObject("tree", encodeTree(nt)) // sorts nt
	if err != nil {
		return "", false, err
	}
	// The next call of a session starts from this tree (once it is
	// written, when the transaction collects its objects).
	if s.batch != nil {
		s.batch.trees[nh] = nt
	} else {
		if s.trees == nil {
			s.trees = map[oid][]treeEntry{}
		}
		s.trees[nh] = nt
	}
	return nh, false, nil
}

// emptyTree writes (once) and returns the empty tree.
func (s *Store) emptyTree() (oid, error) { return s.writeObject("tree", nil) }

// writeCommit stores a commit and returns its id.
func (s *Store) writeCommit(c *commit) (oid, error) {
	return s.writeObject("commit", encodeCommit(c))
}

// commit reads a commit.
func (s *Store) commit(h oid) (*commit, error) {
	data, err := s.object("commit", h)
	if err != nil {
		return nil, fmt.Errorf("gitstore: commit %s: %w", h, err)
	}
	c, err := parseCommit(s.algo, h, data)
	if err != nil {
		return nil, fmt.Errorf("gitstore: commit %s: %w", h, err)
	}
	return c, nil
}

// trailers parses the "Key: value" lines of a commit message's last
// paragraph.
func trailers(msg string) map[string][]string {
	msg = strings.TrimRight(msg, "\n")
	i := strings.LastIndex(msg, "\n\n")
	if i < 0 {
		return nil
	}
	out := map[string][]string{}
	for _, line := range strings.Split(msg[i+2:], "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if !ok || strings.ContainsAny(k, " \t") {
			continue
		}
		out[k] = append(out[k], strings.TrimSpace(v))
	}
	return out
}

// subject is a commit message's first line.
func subject(msg string) string {
	line, _, _ := strings.Cut(msg, "\n")
	return line
}

func isBinary(b []byte) bool {
	if len(b) > 8000 {
		b = b[:8000]
	}
	return bytes.IndexByte(b, 0) >= 0
}
