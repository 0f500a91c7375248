package gitstore

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Entry is one journal commit as History reports it.
type Entry struct {
	// ID is the commit id.
	ID string `json:"id"`
	// Time is the commit's author time.
	Time time.Time `json:"time"`
	// Message is the subject line of the commit message.
	Message string `json:"message"`
	// Tool is the Graft-Tool trailer ("snapshot" for a snapshot commit).
	Tool string `json:"tool"`
	// Files lists each path the commit changed with its line counts.
	Files []FileStat `json:"files"`
	// Additions and Deletions are the line counts over all files.
	Additions int `json:"additions"`
	Deletions int `json:"deletions"`
	// Undoes and Redoes name the edits an undo or redo commit reverses or
	// re-applies.
	Undoes []string `json:"undoes,omitempty"`
	Redoes []string `json:"redoes,omitempty"`
}

// FileStat is one path changed by a journal commit.
type FileStat struct {
	Path      string `json:"path"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
}

// journal returns the commits of the current journal, newest first, and
// the state they were read from. A journal whose base is no longer HEAD's
// commit is empty: the next call starts a new one.
func (s *Store) journal() ([]*object.Commit, *state, error) {
	if s.private && !exists(s.gitDir) {
		return nil, nil, nil
	}
	if err := s.openStorage(); err != nil {
		return nil, nil, err
	}
	st, err := s.state(ModeJournal)
	if err != nil {
		return nil, nil, err
	}
	if !st.valid {
		return nil, st, nil
	}
	var out []*object.Commit
	for h := st.tip; !h.IsZero() && h != st.base; {
		c, err := s.commit(h)
		if err != nil {
			return nil, nil, err
		}
		if len(trailers(c.Message)[TrailerTool]) == 0 {
			break // not a journal commit: the chain ends here
		}
		out = append(out, c)
		if len(c.ParentHashes) == 0 {
			break
		}
		h = c.ParentHashes[0]
	}
	return out, st, nil
}

// History lists the current journal, newest first, at most limit entries
// (0 means 20).
func (s *Store) History(limit int) ([]Entry, error) {
	if limit <= 0 {
		limit = 20
	}
	commits, _, err := s.journal()
	if err != nil {
		return nil, err
	}
	out := []Entry{}
	for i, c := range commits {
		if i == limit {
			break
		}
		e, err := s.entry(c)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

func (s *Store) entry(c *object.Commit) (Entry, error) {
	tr := trailers(c.Message)
	e := Entry{ID: c.Hash.String(), Time: c.Author.When, Message: subject(c.Message),
		Undoes: tr[TrailerUndo], Redoes: tr[TrailerRedo], Files: []FileStat{}}
	if v := tr[TrailerTool]; len(v) > 0 {
		e.Tool = v[0]
	}
	changes, err := s.commitChanges(c)
	if err != nil {
		return e, err
	}
	for _, ch := range changes {
		before, after, err := s.changeContents(ch)
		if err != nil {
			return e, err
		}
		fs := FileStat{Path: ch.path}
		if !isBinary(before) && !isBinary(after) {
			fs.Additions, fs.Deletions = lineCounts(before, after)
		}
		e.Files = append(e.Files, fs)
		e.Additions += fs.Additions
		e.Deletions += fs.Deletions
	}
	return e, nil
}

// fileChange is a path whose entry differs between two trees.
type fileChange struct {
	path          string
	before, after entry
}

// commitChanges lists the paths c changed against its first parent.
func (s *Store) commitChanges(c *object.Commit) ([]fileChange, error) {
	var parent plumbing.Hash
	if len(c.ParentHashes) > 0 {
		p, err := s.commit(c.ParentHashes[0])
		if err != nil {
			return nil, err
		}
		parent = p.TreeHash
	}
	return s.treeChanges(parent, c.TreeHash)
}

// treeChanges lists the file paths that differ between two trees (zero is
// the empty tree), skipping unchanged subtrees by their ids.
func (s *Store) treeChanges(a, b plumbing.Hash) ([]fileChange, error) {
	ta, err := s.tree(a)
	if err != nil {
		return nil, err
	}
	tb, err := s.tree(b)
	if err != nil {
		return nil, err
	}
	changes, err := object.DiffTree(ta, tb)
	if err != nil {
		return nil, fmt.Errorf("gitstore: diff: %w", err)
	}
	var out []fileChange
	for _, ch := range changes {
		fc := fileChange{}
		if ch.From.Name != "" {
			fc.path = ch.From.Name
			fc.before = entry{Hash: ch.From.TreeEntry.Hash, Mode: ch.From.TreeEntry.Mode}
		}
		if ch.To.Name != "" {
			fc.path = ch.To.Name
			fc.after = entry{Hash: ch.To.TreeEntry.Hash, Mode: ch.To.TreeEntry.Mode}
		}
		out = append(out, fc)
	}
	return out, nil
}

// changeContents reads both sides of a change (nil for an absent side).
func (s *Store) changeContents(ch fileChange) (before, after []byte, err error) {
	if !ch.before.absent() && ch.before.Mode != filemode.Submodule {
		if before, err = s.readBlob(ch.before.Hash); err != nil {
			return nil, nil, err
		}
	}
	if !ch.after.absent() && ch.after.Mode != filemode.Submodule {
		if after, err = s.readBlob(ch.after.Hash); err != nil {
			return nil, nil, err
		}
	}
	return before, after, nil
}

// Diff returns a unified diff (git's format) of one journal entry against
// its parent, id being a full or abbreviated commit id of the current
// journal; with id "" it is everything since the journal's base, the
// branch commit it started from. An unknown id is an error naming it.
func (s *Store) Diff(id string) (string, error) {
	commits, st, err := s.journal()
	if err != nil {
		return "", err
	}
	if len(commits) == 0 {
		if id != "" {
			return "", fmt.Errorf("gitstore: %s: the journal is empty: %w", id, ErrUnknownEntry)
		}
		return "", nil
	}
	from, to := plumbing.ZeroHash, commits[0].TreeHash
	if id == "" {
		if !st.base.IsZero() {
			if from, err = s.commitTree(st.base); err != nil {
				return "", err
			}
		}
	} else {
		c, err := findCommit(commits, id)
		if err != nil {
			return "", err
		}
		to = c.TreeHash
		if len(c.ParentHashes) > 0 {
			if from, err = s.commitTree(c.ParentHashes[0]); err != nil {
				return "", err
			}
		}
	}
	return s.patch(from, to)
}

func findCommit(commits []*object.Commit, id string) (*object.Commit, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	if len(id) < 4 {
		return nil, fmt.Errorf("gitstore: %q: give at least 4 hex digits of a journal commit: %w", id, ErrUnknownEntry)
	}
	var found *object.Commit
	for _, c := range commits {
		if strings.HasPrefix(c.Hash.String(), id) {
			if found != nil {
				return nil, fmt.Errorf("gitstore: %s: ambiguous id: %w", id, ErrUnknownEntry)
			}
			found = c
		}
	}
	if found == nil {
		return nil, fmt.Errorf("gitstore: %s: not a commit of the current journal: %w", id, ErrUnknownEntry)
	}
	return found, nil
}

func (s *Store) patch(from, to plumbing.Hash) (string, error) {
	ta, err := s.tree(from)
	if err != nil {
		return "", err
	}
	tb, err := s.tree(to)
	if err != nil {
		return "", err
	}
	changes, err := object.DiffTree(ta, tb)
	if err != nil {
		return "", err
	}
	p, err := changes.Patch()
	if err != nil {
		return "", err
	}
	return p.String(), nil
}

// ErrNoJournal: a journal operation found no journal to work on.
var ErrNoJournal = errors.New("the journal is empty")

// ErrUnknownEntry: an id that names no entry of the current journal.
var ErrUnknownEntry = errors.New("no such journal entry")
