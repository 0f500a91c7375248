package gitstore

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/graftdev/graft/gitstore/internal/gitrepo"
)

// Objects are written straight into the object store: one blob per new
// content, one tree per directory on a changed path, one commit. Nothing
// here lists or reads a directory of the worktree, so the cost follows the
// number and depth of the touched paths, not the size of the repository.

// repo is the repository's storage through go-git, opened at the first
// object or ref access (graft's private repository may not exist before
// its first call).
func (s *Store) repo() *gitrepo.Repo {
	if s.gr == nil {
		s.gr = gitrepo.Open(s.gitDir, s.commonDir, s.algo)
		s.gr.StartPool(s.opts.PoolFiles)
	}
	return s.gr
}

// errObjectNotFound: no object has the id.
var errObjectNotFound = gitrepo.ErrNotFound

// object returns the content of object h, which must be of type typ.
func (s *Store) object(typ string, h oid) ([]byte, error) {
	t, data, err := s.repo().Read(h)
	if err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	if t != typ {
		return nil, fmt.Errorf("gitstore: object %s is a %s, not a %s", h, t, typ)
	}
	return data, nil
}

// treeCache keeps trees read or written from one call to the next, in two
// generations so that a long session's memory stays flat: trees go into
// the young one (a tree used from the old one moves back), and once the
// young one holds maxCachedTreeBytes the old one is dropped and the young
// one becomes old. A session editing a 100,000-file repository writes a
// new version of every tree on an edited path each call; bounded by count
// alone, the cache grew with them (27 to 62 MiB of resident memory over
// 1,000 MCP edits). The bound is in bytes, not entries: an entry's name and
// id are most of its cost, and a server that other processes' commits
// keep handing new trees filled a bound of 20,000 entries only after
// several minutes, its memory growing all the while (the soak,
// docs/BENCHMARKS.md).
type treeCache struct {
	young, old map[oid][]treeEntry
	bytes      int // held by young
}

// maxCachedTreeBytes bounds the bytes of the young generation: about
// 8,000 entries of a repository with short names, the trees on the paths
// of a few hundred calls.
const maxCachedTreeBytes = 1 << 20

// treeBytes is about the memory a cached tree holds: its entries, their
// names and ids, and its place in the map.
func treeBytes(h oid, t []treeEntry) int {
	n := 64 + len(h) + len(t)*int(unsafe.Sizeof(treeEntry{}))
	for i := range t {
		n += len(t[i].Name) + len(t[i].Hash)
	}
	return n
}

func (c *treeCache) get(h oid) ([]treeEntry, bool) {
	if t, ok := c.young[h]; ok {
		return t, true
	}
	if t, ok := c.old[h]; ok {
		c.put(h, t)
		return t, true
	}
	return nil, false
}

func (c *treeCache) put(h oid, t []treeEntry) {
	if c.young == nil {
		c.young = map[oid][]treeEntry{}
	}
	if _, ok := c.young[h]; !ok {
		c.young[h] = t
		c.bytes += treeBytes(h, t)
	}
}

// age drops the old generation once the young one is full; called between
// calls.
func (c *treeCache) age() {
	if c.bytes > maxCachedTreeBytes {
		c.old, c.young, c.bytes = c.young, nil, 0
	}
}

// keepCaches runs when a transaction's lock is released. A long-lived
// process (an MCP server) keeps the pack indexes open and the trees read
// for the next call, whose lock-time check (refreshPacks) makes go-git
// list the packs again if git changed them meanwhile. Off Unix open files
// keep git from deleting packs, so they are closed after every call there.
func (s *Store) keepCaches() {
	if runtime.GOOS == "windows" && s.gr != nil {
		s.gr.Idle()
	}
	s.trees.age()
}

// refreshPacks makes go-git list the packs again when a pack directory
// changed since they were listed (git repacked or fetched).
func (s *Store) refreshPacks() {
	if s.gr != nil {
		s.gr.Refresh()
	}
}

// blobHash is the blob id of content in this repository's hash algorithm.
func (s *Store) blobHash(content []byte) oid { return s.algo.Sum("blob", [][]byte{content}) }

// writeBlob stores content as a blob (once) and returns its id.
func (s *Store) writeBlob(content []byte) (oid, error) {
	return s.writeObject("blob", content)
}

// writeObject stores an object unless it already exists as a loose
// object, and returns its id. Existence in a pack is not asked, to keep
// the write path off the pack indexes; writing a loose copy of a packed
// object is harmless (git gc removes it).
func (s *Store) writeObject(typ string, content []byte) (oid, error) {
	h := s.algo.Sum(typ, [][]byte{content})
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
	if s.repo().HasLoose(h) {
		return nil
	}
	return s.repo().Write(typ, parts, h)
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
	// Two goroutines write the objects, half each: every loose object is
	// a file created, and where the file system's inode allocator is slow
	// (ext4 without a journal passes over each recently freed inode,
	// reading its table block) the creates are most of a call, which two
	// cores make in about half the time. Not when other processes queued
	// for the lock: concurrent writers keep the cores busy, and a second
	// goroutine blocking in the kernel costs its process a thread and
	// context switches for no gain (64 edits by 8 CLI writers: 0.89 to 0.96
	// of the time with the split, docs/BENCHMARKS.md).
	r := s.repo()
	objs, half := b.objs, []batchObject(nil)
	if len(objs) > 1 && !s.lockWaited {
		half, objs = objs[:len(objs)/2], objs[len(objs)/2:]
	}
	if half != nil {
		splitBatches.Add(1)
	}
	halfErr := make(chan error, 1)
	go func() { halfErr <- writeObjects(r, half) }()
	err := writeObjects(r, objs)
	if herr := <-halfErr; err == nil {
		err = herr
	}
	if err != nil {
		return err
	}
	for h, t := range b.trees {
		s.trees.put(h, t)
	}
	return nil
}

// splitBatches counts the batches written by two goroutines (for tests).
var splitBatches atomic.Int64

// writeObjects stores each object not already stored loose, stopping at
// the first error.
func writeObjects(r *gitrepo.Repo, objs []batchObject) error {
	for _, o := range objs {
		if r.HasLoose(o.id) {
			continue
		}
		if err := r.Write(o.typ, o.parts, o.id); err != nil {
			return err
		}
	}
	return nil
}

// dropBatch ends a batch without writing it (the transaction failed before
// its objects were needed).
func (s *Store) dropBatch() { s.batch = nil }

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

// fileMode is the tree mode of a worktree file with permission bits perm
// (linkPerm: a symbolic link).
func fileMode(perm uint32) uint32 {
	if perm == linkPerm {
		return modeSymlink
	}
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
	if t, ok := s.trees.get(h); ok {
		return t, nil
	}
	if b := s.batch; b != nil {
		if t, ok := b.trees[h]; ok {
			return t, nil
		}
	}
	t, err := s.repo().ReadTree(h)
	if err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	s.trees.put(h, t)
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
	content, nh, err := s.algo.EncodeTree(nt) // sorts nt
	if err == nil {
		err = s.writeObjectID("tree", content, nh)
	}
	if err != nil {
		return "", false, err
	}
	// The next call of a session starts from this tree (once it is
	// written, when the transaction collects its objects).
	if s.batch != nil {
		s.batch.trees[nh] = nt
	} else {
		s.trees.put(nh, nt)
	}
	return nh, false, nil
}

// emptyTree writes (once) and returns the empty tree.
func (s *Store) emptyTree() (oid, error) { return s.writeObject("tree", []byte{}) }

// writeCommit stores a commit and returns its id.
func (s *Store) writeCommit(c *commit) (oid, error) {
	content, h, err := s.algo.EncodeCommit(c)
	if err != nil {
		return "", fmt.Errorf("gitstore: %w", err)
	}
	return h, s.writeObjectID("commit", content, h)
}

// commit reads a commit.
func (s *Store) commit(h oid) (*commit, error) {
	c, err := s.repo().ReadCommit(h)
	if err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
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
