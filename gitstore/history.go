package gitstore

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/graftdev/graft/gitstore/textdiff"
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
	// Agent and Session are who asked for the commit (Graft-Agent,
	// Graft-Session; attribution.go), "" when it names no one.
	Agent   string `json:"agent,omitempty"`
	Session string `json:"session,omitempty"`
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
// the state they were read from. A journal whose branch moved since it
// started is seen carried onto the branch (carry.go): its commits are
// those before the move, and st's tree and base the carried ones; one
// that restarts is empty.
func (s *Store) journal() ([]*commit, *state, error) {
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
	if err := s.carry(st, false, Attribution{}); err != nil {
		return nil, nil, err
	}
	if !st.valid {
		return nil, st, nil
	}
	var out []*commit
	for h := st.tip; !h.IsZero() && h != st.base; {
		c, err := s.commit(h)
		if err != nil {
			return nil, nil, err
		}
		if len(trailers(c.Message)[TrailerTool]) == 0 {
			break // not a journal commit: the chain ends here
		}
		out = append(out, c)
		if len(c.Parents) == 0 {
			break
		}
		h = c.Parents[0]
	}
	return out, st, nil
}

// History lists the current journal, newest first, at most limit entries
// (0 means 20): HistoryIn of every agent's edits.
func (s *Store) History(limit int) ([]Entry, error) {
	return s.HistoryIn(Scope{}, limit)
}

func (s *Store) entry(c *commit) (Entry, error) {
	tr := trailers(c.Message)
	e := Entry{ID: c.Hash.String(), Time: c.Author.When, Message: subject(c.Message),
		Undoes: tr[TrailerUndo], Redoes: tr[TrailerRedo], Files: []FileStat{}}
	if v := tr[TrailerTool]; len(v) > 0 {
		e.Tool = v[0]
	}
	a := attributionOf(tr)
	e.Agent, e.Session = a.Agent, a.Session
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
func (s *Store) commitChanges(c *commit) ([]fileChange, error) {
	var parent oid
	if len(c.Parents) > 0 {
		p, err := s.commit(c.Parents[0])
		if err != nil {
			return nil, err
		}
		parent = p.Tree
	}
	return s.treeChanges(parent, c.Tree)
}

// treeChanges lists the file paths that differ between two trees (zero is
// the empty tree), in path order, skipping unchanged subtrees by their ids.
// A submodule is compared as a file whose content is its commit id.
func (s *Store) treeChanges(a, b oid) ([]fileChange, error) {
	var out []fileChange
	err := s.diffTrees("", a, b, &out)
	return out, err
}

func (s *Store) diffTrees(prefix string, a, b oid, out *[]fileChange) error {
	if a == b {
		return nil
	}
	ta, err := s.tree(a)
	if err != nil {
		return err
	}
	tb, err := s.tree(b)
	if err != nil {
		return err
	}
	type side struct{ file, dir treeEntry }
	names := map[string]*[2]side{}
	var order []string
	add := func(entries []treeEntry, i int) {
		for _, e := range entries {
			n := names[e.Name]
			if n == nil {
				n = &[2]side{}
				names[e.Name] = n
				order = append(order, e.Name)
			}
			if e.Mode == modeDir {
				n[i].dir = e
			} else {
				n[i].file = e
			}
		}
	}
	add(ta, 0)
	add(tb, 1)
	key := func(name string) string {
		if n := names[name]; n[0].dir.Name != "" || n[1].dir.Name != "" {
			return name + "/"
		}
		return name
	}
	sort.Slice(order, func(i, j int) bool { return key(order[i]) < key(order[j]) })
	for _, name := range order {
		n := names[name]
		p := prefix + name
		// A name can be a file on one side and a directory on the other:
		// the file's change and the directory's are reported apart.
		if n[0].file.Hash != n[1].file.Hash || n[0].file.Mode != n[1].file.Mode {
			*out = append(*out, fileChange{path: p,
				before: entry{Hash: n[0].file.Hash, Mode: n[0].file.Mode},
				after:  entry{Hash: n[1].file.Hash, Mode: n[1].file.Mode}})
		}
		if n[0].dir.Hash != n[1].dir.Hash {
			if err := s.diffTrees(p+"/", n[0].dir.Hash, n[1].dir.Hash, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// changeContents reads both sides of a change (nil for an absent side).
func (s *Store) changeContents(ch fileChange) (before, after []byte, err error) {
	if !ch.before.absent() && ch.before.Mode != modeSubmodule {
		if before, err = s.readBlob(ch.before.Hash); err != nil {
			return nil, nil, err
		}
	}
	if !ch.after.absent() && ch.after.Mode != modeSubmodule {
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
	from, to := oid(""), st.tree
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
		to = c.Tree
		if len(c.Parents) > 0 {
			if from, err = s.commitTree(c.Parents[0]); err != nil {
				return "", err
			}
		}
	}
	return s.patch(from, to)
}

func findCommit(commits []*commit, id string) (*commit, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	if len(id) < 4 {
		return nil, fmt.Errorf("gitstore: %q: give at least 4 hex digits of a journal commit: %w", id, ErrUnknownEntry)
	}
	var found *commit
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

// patch renders the difference of two trees as git diff does: a
// "diff --git" header per path, mode and index lines, and the hunks with
// three lines of context ("Binary files ... differ" for binary content).
func (s *Store) patch(from, to oid) (string, error) {
	changes, err := s.treeChanges(from, to)
	if err != nil {
		return "", err
	}
	var w strings.Builder
	for _, ch := range changes {
		before, after, err := s.changeContents(ch)
		if err != nil {
			return "", err
		}
		if ch.before.Mode == modeSubmodule {
			before = []byte("Subproject commit " + ch.before.Hash.String() + "\n")
		}
		if ch.after.Mode == modeSubmodule {
			after = []byte("Subproject commit " + ch.after.Hash.String() + "\n")
		}
		fmt.Fprintf(&w, "diff --git a/%s b/%s\n", ch.path, ch.path)
		oldName, newName := "a/"+ch.path, "b/"+ch.path
		idx := func(e entry) string {
			if e.absent() {
				return strings.Repeat("0", 7)
			}
			return e.Hash.String()[:7]
		}
		switch {
		case ch.before.absent():
			fmt.Fprintf(&w, "new file mode %06o\nindex %s..%s\n", ch.after.Mode, idx(ch.before), idx(ch.after))
			oldName = "/dev/null"
		case ch.after.absent():
			fmt.Fprintf(&w, "deleted file mode %06o\nindex %s..%s\n", ch.before.Mode, idx(ch.before), idx(ch.after))
			newName = "/dev/null"
		case ch.before.Mode != ch.after.Mode:
			fmt.Fprintf(&w, "old mode %06o\nnew mode %06o\n", ch.before.Mode, ch.after.Mode)
			if ch.before.Hash != ch.after.Hash {
				fmt.Fprintf(&w, "index %s..%s\n", idx(ch.before), idx(ch.after))
			}
		default:
			fmt.Fprintf(&w, "index %s..%s %06o\n", idx(ch.before), idx(ch.after), ch.after.Mode)
		}
		if ch.before.Hash == ch.after.Hash {
			continue
		}
		if isBinary(before) || isBinary(after) {
			fmt.Fprintf(&w, "Binary files %s and %s differ\n", oldName, newName)
			continue
		}
		textdiff.WriteFile(&w, oldName, newName, before, after)
	}
	return w.String(), nil
}

// ErrNoJournal: a journal operation found no journal to work on.
var ErrNoJournal = errors.New("the journal is empty")

// ErrUnknownEntry: an id that names no entry of the current journal.
var ErrUnknownEntry = errors.New("no such journal entry")
