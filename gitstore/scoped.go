package gitstore

import (
	"fmt"
	"strings"

	"github.com/graftdev/graft/gitstore/textdiff"
)

// The journal seen by one agent or session (Scope): its history, its last
// edit of a file, and its work as one diff.

// HistoryIn is History of the edits of scope sc (and the undo, redo and
// carry commits its agent or session asked for), newest first, at most
// limit entries (0 means 20).
func (s *Store) HistoryIn(sc Scope, limit int) ([]Entry, error) {
	if limit <= 0 {
		limit = 20
	}
	commits, _, err := s.journal()
	if err != nil {
		return nil, err
	}
	out := []Entry{}
	for _, c := range commits {
		if len(out) == limit {
			break
		}
		if !sc.all() && !sc.matches(attributionOf(trailers(c.Message))) {
			continue
		}
		e, err := s.entry(c)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// LastOf returns the newest edit of scope sc not undone yet that changed
// path (any edit when path is ""): what str_replace_editor's undo_edit
// reverses, with UndoEntry. It fails with ErrNothingToUndo when there is
// none.
func (s *Store) LastOf(sc Scope, path string) (Entry, error) {
	commits, _, err := s.journal()
	if err != nil {
		return Entry{}, err
	}
	done, _ := stacksIn(commits, sc)
	byID := make(map[string]*commit, len(commits))
	for _, c := range commits {
		byID[c.Hash.String()] = c
	}
	for i := len(done) - 1; i >= 0; i-- {
		c := byID[done[i]]
		if c == nil {
			continue
		}
		if path != "" {
			changes, err := s.commitChanges(c)
			if err != nil {
				return Entry{}, err
			}
			touches := false
			for _, ch := range changes {
				touches = touches || ch.path == path
			}
			if !touches {
				continue
			}
		}
		return s.entry(c)
	}
	return Entry{}, ErrNothingToUndo
}

// DiffIn is the work of scope sc not yet landed, as one diff: the journal
// as it is against the journal with every edit of sc that is not undone
// reversed, three-way as Undo does but on the journal's own contents,
// nothing written. Where another edit changed the same lines since, the
// edits cannot be told apart: that is ErrConflict, naming the file and
// showing what changed.
func (s *Store) DiffIn(sc Scope) (string, error) {
	if sc.all() {
		return s.Diff("")
	}
	commits, st, err := s.journal()
	if err != nil || len(commits) == 0 {
		return "", err
	}
	done, _ := stacksIn(commits, sc)
	type file struct {
		tip     entry
		mode    uint32 // the mode of the file without sc's edits
		cur     []byte
		changed bool
	}
	files := map[string]*file{}
	for i := len(done) - 1; i >= 0; i-- {
		id := done[i]
		c, err := s.commit(oid(id))
		if err != nil {
			return "", err
		}
		changes, err := s.commitChanges(c)
		if err != nil {
			return "", err
		}
		for _, ch := range changes {
			f := files[ch.path]
			if f == nil {
				tip, err := s.lookup(st.tree, ch.path)
				if err != nil {
					return "", err
				}
				f = &file{tip: tip}
				if !tip.absent() && tip.Mode != modeSubmodule {
					if f.cur, err = s.readBlob(tip.Hash); err != nil {
						return "", err
					}
					f.cur = nonNil(f.cur)
				}
				files[ch.path] = f
			}
			f.mode = ch.before.Mode
			if ch.before.Mode == modeSubmodule || ch.after.Mode == modeSubmodule {
				continue
			}
			before, after, err := s.changeContents(ch)
			if err != nil {
				return "", err
			}
			if !ch.before.absent() {
				before = nonNil(before)
			}
			if !ch.after.absent() {
				after = nonNil(after)
			}
			merged, err := merge3(after, before, f.cur)
			if err != nil {
				return "", fmt.Errorf("%s: cannot separate %s's edit %s from later edits: %v: %w%s",
					ch.path, sc, id[:12], err, ErrConflict, s.changedSince(commits, id, ch.path, after, f.cur))
			}
			f.cur, f.changed = merged, true
		}
	}
	var w strings.Builder
	for _, p := range sortedKeys(files) {
		f := files[p]
		var tip []byte
		if !f.tip.absent() && f.tip.Mode != modeSubmodule {
			if tip, err = s.readBlob(f.tip.Hash); err != nil {
				return "", err
			}
			tip = nonNil(tip)
		}
		if !f.changed || (f.cur == nil) == (tip == nil) && string(f.cur) == string(tip) {
			continue
		}
		mode := f.tip.Mode
		if tip == nil {
			mode = f.mode
		}
		writeFileDiff(&w, p, f.cur, tip, mode)
	}
	return w.String(), nil
}

// writeFileDiff writes the diff of path from before to after (nil: the
// file does not exist) in git's format, mode being the existing side's.
func writeFileDiff(w *strings.Builder, path string, before, after []byte, mode uint32) {
	fmt.Fprintf(w, "diff --git a/%s b/%s\n", path, path)
	oldName, newName := "a/"+path, "b/"+path
	switch {
	case before == nil:
		fmt.Fprintf(w, "new file mode %06o\n", mode)
		oldName = "/dev/null"
	case after == nil:
		fmt.Fprintf(w, "deleted file mode %06o\n", mode)
		newName = "/dev/null"
	}
	if isBinary(before) || isBinary(after) {
		fmt.Fprintf(w, "Binary files %s and %s differ\n", oldName, newName)
		return
	}
	textdiff.WriteFile(w, oldName, newName, before, after)
}

// changedSince says, for a refused undo of edit id on path, which later
// edits changed path (with their agents) and what changed since the edit
// (the diff from its result, base, to the content now, cur), clipped to
// 60 lines: the refusal shows why.
func (s *Store) changedSince(commits []*commit, id, path string, base, cur []byte) string {
	var b strings.Builder
	var by []string
	for _, c := range commits {
		if c.Hash.String() == id {
			break
		}
		changes, err := s.commitChanges(c)
		if err != nil {
			continue
		}
		for _, ch := range changes {
			if ch.path != path {
				continue
			}
			what := fmt.Sprintf("%s %q", c.Hash.Short(), subject(c.Message))
			if a := attributionOf(trailers(c.Message)).Agent; a != "" {
				what += " by " + a
			}
			by = append(by, what)
		}
	}
	if len(by) > 0 {
		b.WriteString("\nchanged since by: " + strings.Join(by, ", "))
	} else {
		b.WriteString("\nchanged since outside graft")
	}
	if cur == nil || base == nil || isBinary(base) || isBinary(cur) {
		return b.String()
	}
	var d strings.Builder
	writeFileDiff(&d, path, base, cur, 0)
	lines := strings.Split(strings.TrimRight(d.String(), "\n"), "\n")
	if len(lines) > 2 {
		lines = lines[1:] // the diff --git line says nothing here
	}
	if len(lines) > 60 {
		lines = append(lines[:60], fmt.Sprintf("... (%d more lines)", len(lines)-60))
	}
	b.WriteString("\nwhat changed since the edit:\n" + strings.Join(lines, "\n"))
	return b.String()
}

// scopeOr names sc, or what when sc is every edit.
func scopeOr(sc Scope, what string) string {
	if sc.all() {
		return what
	}
	return sc.String()
}

// nonNil is b, or an empty non-nil slice for an empty file (nil means no
// file in merge3).
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
