package gitstore

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"errors"
	"fmt"
	"hash/adler32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Objects are written straight into the object store: one blob per new
// content, one tree per directory on a changed path, one commit. Nothing
// here lists or reads a directory of the worktree, so the cost follows the
// number and depth of the touched paths, not the size of the repository.

// blobHash is the git blob id of content. It uses crypto/sha1 (SHA-NI
// where the CPU has it), not go-git's collision-detecting SHA-1, which is
// several times slower and guards against crafted objects fetched from
// others, not against the content of the user's own files.
func blobHash(content []byte) plumbing.Hash {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(content)) + "\x00"))
	h.Write(content)
	var out plumbing.Hash
	copy(out[:], h.Sum(nil))
	return out
}

// writeBlob stores content as a blob (once) and returns its id.
func (s *Store) writeBlob(content []byte) (plumbing.Hash, error) {
	h := blobHash(content)
	if s.hasLoose(h) {
		return h, nil
	}
	return h, s.writeLoose(h, plumbing.BlobObject, content)
}

// storedLimit is the size up to which loose objects are written as zlib
// streams of stored (uncompressed) blocks. A compressing zlib writer
// allocates and clears about 700 KB before its first byte, which costs a
// short-lived graft process more than writing a few kilobytes plainly; git
// reads stored blocks like any other zlib stream and compresses the
// objects when it packs them.
const storedLimit = 64 << 10

// zlibStored writes header+content to w as a zlib stream of stored blocks
// (RFC 1950 and RFC 1951 section 3.2.4).
func zlibStored(w *bytes.Buffer, header, content []byte) {
	data := append(append(make([]byte, 0, len(header)+len(content)), header...), content...)
	sum := adler32.Checksum(data)
	w.Write([]byte{0x78, 0x01})
	for first := true; first || len(data) > 0; first = false {
		n := min(len(data), 0xffff)
		final := byte(0)
		if n == len(data) {
			final = 1
		}
		w.Write([]byte{final, byte(n), byte(n >> 8), ^byte(n), ^byte(n >> 8)})
		w.Write(data[:n])
		data = data[n:]
	}
	w.Write([]byte{byte(sum >> 24), byte(sum >> 16), byte(sum >> 8), byte(sum)})
}

// hasLoose reports whether h is stored as a loose object. Existence in a
// pack is not asked: that would make go-git read the pack's whole index,
// whose size grows with the repository, and writing a loose copy of a
// packed object is harmless (git gc removes it).
func (s *Store) hasLoose(h plumbing.Hash) bool {
	hex := h.String()
	return exists(filepath.Join(s.commonDir, "objects", hex[:2], hex[2:]))
}

// setObject stores obj unless it already exists as a loose object.
func (s *Store) setObject(obj plumbing.EncodedObject) (plumbing.Hash, error) {
	h := obj.Hash()
	if s.hasLoose(h) {
		return h, nil
	}
	r, err := obj.Reader()
	if err != nil {
		return h, err
	}
	defer r.Close()
	content, err := io.ReadAll(r)
	if err != nil {
		return h, err
	}
	return h, s.writeLoose(h, obj.Type(), content)
}

// writeLoose writes a loose object as git does: zlib of "TYPE SIZE\0"
// and the content, into a temporary file beside its final name, renamed
// into place. (go-git's writer creates its temporary files in
// objects/pack, which costs more per object than the object itself.)
func (s *Store) writeLoose(h plumbing.Hash, t plumbing.ObjectType, content []byte) error {
	header := fmt.Sprintf("%s %d\x00", t, len(content))
	var buf bytes.Buffer
	if len(content) <= storedLimit {
		zlibStored(&buf, []byte(header), content)
	} else {
		zw, _ := zlib.NewWriterLevel(&buf, zlib.BestSpeed)
		zw.Write([]byte(header))
		zw.Write(content)
		if err := zw.Close(); err != nil {
			return err
		}
	}
	hex := h.String()
	dir := filepath.Join(s.commonDir, "objects", hex[:2])
	tmp := filepath.Join(dir, fmt.Sprintf("tmp_graft_%d_%s", os.Getpid(), hex[2:10]))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o444)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o755); err == nil {
			f, err = os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o444)
		}
	}
	if err != nil {
		return fmt.Errorf("gitstore: object %s: %w", hex, err)
	}
	_, err = f.Write(buf.Bytes())
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
func (s *Store) readBlob(h plumbing.Hash) ([]byte, error) {
	obj, err := s.object(plumbing.BlobObject, h)
	if err != nil {
		return nil, fmt.Errorf("gitstore: blob %s: %w", h, err)
	}
	r, err := obj.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// entry is one path's state in a tree: absent, or a blob with a mode.
type entry struct {
	Hash plumbing.Hash
	Mode filemode.FileMode
}

func (e entry) absent() bool { return e.Hash.IsZero() }

// fileMode is the tree mode of a worktree file with permission bits perm.
func fileMode(perm uint32) filemode.FileMode {
	if perm&0o111 != 0 {
		return filemode.Executable
	}
	return filemode.Regular
}

// tree reads a tree, once per Store (go-git does not cache loose objects).
func (s *Store) tree(h plumbing.Hash) (*object.Tree, error) {
	if h.IsZero() {
		return &object.Tree{}, nil
	}
	if t, ok := s.trees[h]; ok {
		return t, nil
	}
	obj, err := s.object(plumbing.TreeObject, h)
	if err != nil {
		return nil, fmt.Errorf("gitstore: tree %s: %w", h, err)
	}
	t, err := object.DecodeTree(s.st, obj)
	if err != nil {
		return nil, fmt.Errorf("gitstore: tree %s: %w", h, err)
	}
	if s.trees == nil {
		s.trees = map[plumbing.Hash]*object.Tree{}
	}
	s.trees[h] = t
	return t, nil
}

// lookup finds path in the tree rooted at root, reading only the trees on
// the path. A missing path is the zero entry.
func (s *Store) lookup(root plumbing.Hash, path string) (entry, error) {
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
		var found *object.TreeEntry
		for j := range t.Entries {
			if t.Entries[j].Name == name {
				found = &t.Entries[j]
				break
			}
		}
		if found == nil {
			return entry{}, nil
		}
		if i == len(parts)-1 {
			if found.Mode == filemode.Dir || found.Mode == filemode.Submodule {
				return entry{}, nil
			}
			return entry{Hash: found.Hash, Mode: found.Mode}, nil
		}
		if found.Mode != filemode.Dir {
			return entry{}, nil
		}
		h = found.Hash
	}
	return entry{}, nil
}

// updateTree returns the id of the tree rooted at root with each path of
// set replaced (an absent entry deletes it), writing only the trees on the
// changed paths. Directories left empty disappear, as in git.
func (s *Store) updateTree(root plumbing.Hash, set map[string]entry) (plumbing.Hash, error) {
	h, _, err := s.updateSubtree(root, set)
	return h, err
}

func (s *Store) updateSubtree(h plumbing.Hash, set map[string]entry) (plumbing.Hash, bool, error) {
	t, err := s.tree(h)
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	entries := make(map[string]object.TreeEntry, len(t.Entries))
	for _, e := range t.Entries {
		entries[e.Name] = e
	}
	sub := map[string]map[string]entry{}
	for p, e := range set {
		dir, rest, nested := strings.Cut(p, "/")
		if !nested {
			if e.absent() {
				delete(entries, p)
			} else {
				entries[p] = object.TreeEntry{Name: p, Mode: e.Mode, Hash: e.Hash}
			}
			continue
		}
		if sub[dir] == nil {
			sub[dir] = map[string]entry{}
		}
		sub[dir][rest] = e
	}
	for dir, changes := range sub {
		var child plumbing.Hash
		if e, ok := entries[dir]; ok && e.Mode == filemode.Dir {
			child = e.Hash
		}
		ch, empty, err := s.updateSubtree(child, changes)
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		if empty {
			if e, ok := entries[dir]; ok && e.Mode == filemode.Dir {
				delete(entries, dir)
			}
			continue
		}
		entries[dir] = object.TreeEntry{Name: dir, Mode: filemode.Dir, Hash: ch}
	}
	nt := &object.Tree{Entries: make([]object.TreeEntry, 0, len(entries))}
	for _, e := range entries {
		nt.Entries = append(nt.Entries, e)
	}
	sort.Slice(nt.Entries, func(i, j int) bool {
		return treeKey(nt.Entries[i]) < treeKey(nt.Entries[j])
	})
	if len(nt.Entries) == 0 {
		return plumbing.ZeroHash, true, nil
	}
	obj := s.st.NewEncodedObject()
	if err := nt.Encode(obj); err != nil {
		return plumbing.ZeroHash, false, err
	}
	nh, err := s.setObject(obj)
	return nh, false, err
}

// treeKey orders tree entries as git does: a directory sorts as if its
// name ended in "/".
func treeKey(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

// emptyTree writes (once) and returns the empty tree.
func (s *Store) emptyTree() (plumbing.Hash, error) {
	obj := s.st.NewEncodedObject()
	if err := (&object.Tree{}).Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.setObject(obj)
}

// writeCommit stores a commit and returns its id.
func (s *Store) writeCommit(c *object.Commit) (plumbing.Hash, error) {
	obj := s.st.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.setObject(obj)
}

func (s *Store) commit(h plumbing.Hash) (*object.Commit, error) {
	obj, err := s.object(plumbing.CommitObject, h)
	if err != nil {
		return nil, fmt.Errorf("gitstore: commit %s: %w", h, err)
	}
	c, err := object.DecodeCommit(s.st, obj)
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
