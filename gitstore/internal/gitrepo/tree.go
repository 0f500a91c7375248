package gitrepo

import (
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/go-git/go-git/v6/plumbing"
	"github.com/go-git/go-git/v6/plumbing/filemode"
	"github.com/go-git/go-git/v6/plumbing/object"
)

// Tree entry modes as git writes them.
const (
	ModeDir       uint32 = 0o040000
	ModeRegular   uint32 = 0o100644
	ModeExec      uint32 = 0o100755
	ModeSymlink   uint32 = 0o120000
	ModeSubmodule uint32 = 0o160000
)

// TreeEntry is one name in a tree.
type TreeEntry struct {
	Name string
	Mode uint32
	Hash ID
}

// ReadTree reads a tree's entries.
func (r *Repo) ReadTree(h ID) ([]TreeEntry, error) {
	o, err := r.readAs(plumbing.TreeObject, h)
	if err != nil {
		return nil, err
	}
	t, err := object.DecodeTree(r.st, o)
	if err != nil {
		return nil, fmt.Errorf("tree %s: %w", h, err)
	}
	out := make([]TreeEntry, len(t.Entries))
	for i, e := range t.Entries {
		out[i] = TreeEntry{Name: e.Name, Mode: uint32(e.Mode), Hash: fromHash(e.Hash)}
	}
	return out, nil
}

// EncodeTree sorts entries in git's order (a directory as if its name
// ended in "/") and returns the tree's content and id, without storing it.
func (f Format) EncodeTree(entries []TreeEntry) ([]byte, ID, error) {
	t := &object.Tree{Entries: make([]object.TreeEntry, len(entries))}
	for i, e := range entries {
		h, ok := hash(e.Hash)
		if !ok {
			return nil, "", fmt.Errorf("tree entry %q: bad id %q", e.Name, e.Hash)
		}
		t.Entries[i] = object.TreeEntry{Name: e.Name, Mode: filemode.FileMode(e.Mode), Hash: h}
	}
	sort.Sort(object.TreeEntrySorter(t.Entries))
	return f.encode(t)
}

// Signature is an author or committer.
type Signature struct {
	Name, Email string
	When        time.Time
}

// String is the signature as a commit header holds it:
// "NAME <EMAIL> UNIX +HHMM".
func (s Signature) String() string {
	return fmt.Sprintf("%s <%s> %d %s", s.Name, s.Email, s.When.Unix(), s.When.Format("-0700"))
}

// Commit is the part of a commit object graft reads and writes.
type Commit struct {
	Hash      ID
	Tree      ID
	Parents   []ID
	Author    Signature
	Committer Signature
	Message   string
}

// ReadCommit reads a commit.
func (r *Repo) ReadCommit(h ID) (*Commit, error) {
	o, err := r.readAs(plumbing.CommitObject, h)
	if err != nil {
		return nil, err
	}
	c, err := object.DecodeCommit(r.st, o)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", h, err)
	}
	out := &Commit{Hash: h, Tree: fromHash(c.TreeHash), Message: c.Message,
		Author:    Signature{c.Author.Name, c.Author.Email, c.Author.When},
		Committer: Signature{c.Committer.Name, c.Committer.Email, c.Committer.When}}
	for _, p := range c.ParentHashes {
		out.Parents = append(out.Parents, fromHash(p))
	}
	if out.Tree.IsZero() {
		return nil, fmt.Errorf("commit %s: no tree", h)
	}
	return out, nil
}

// EncodeCommit returns a commit's content and id, without storing it.
func (f Format) EncodeCommit(c *Commit) ([]byte, ID, error) {
	tree, ok := hash(c.Tree)
	if !ok {
		return nil, "", fmt.Errorf("commit: bad tree id %q", c.Tree)
	}
	oc := &object.Commit{TreeHash: tree, Message: c.Message,
		Author:    object.Signature{Name: c.Author.Name, Email: c.Author.Email, When: c.Author.When},
		Committer: object.Signature{Name: c.Committer.Name, Email: c.Committer.Email, When: c.Committer.When}}
	for _, p := range c.Parents {
		h, ok := hash(p)
		if !ok {
			return nil, "", fmt.Errorf("commit: bad parent id %q", p)
		}
		oc.ParentHashes = append(oc.ParentHashes, h)
	}
	return f.encode(oc)
}

// encode runs go-git's encoder of o into memory.
func (f Format) encode(o interface {
	Encode(plumbing.EncodedObject) error
}) ([]byte, ID, error) {
	mo := plumbing.NewMemoryObject(plumbing.FromObjectFormat(f.f))
	if err := o.Encode(mo); err != nil {
		return nil, "", err
	}
	rd, err := mo.Reader()
	if err != nil {
		return nil, "", err
	}
	defer rd.Close()
	b, err := io.ReadAll(rd)
	if err != nil {
		return nil, "", err
	}
	return b, fromHash(mo.Hash()), nil
}
