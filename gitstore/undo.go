package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/graftdev/graft/gitstore/textdiff"
)

// Undo and redo are git-style: undoing an edit reverse-applies its diff to
// the files as they are now, so changes made after it (by later calls or
// by hand) survive; the undo is itself a journal commit carrying a
// Graft-Undo trailer per undone edit. Redo re-applies an undone edit's
// diff the same way (Graft-Redo). A new edit clears what can be redone.
//
// The merge is three-way at line level: for each file, the lines the edit
// changed must be untouched by whatever happened since (changes that
// overlap or touch them are a conflict). A conflict in any file fails the
// whole undo with ErrConflict naming the file, and nothing is written.

// Reverted reports an undo or redo.
type Reverted struct {
	Landed
	// Entries are the journal edits undone or redone, in the order applied.
	Entries []string
	// Files are the paths written.
	Files []string
}

// stacks replays the journal (oldest first) into the edits that can be
// undone (top last) and those that can be redone (top last).
func stacks(commits []*commit) (done, undone []string) {
	return stacksIn(commits, Scope{})
}

// stacksIn is stacks for the edits of scope sc: an edit is sc's when its
// own commit's attribution is in sc. Undoing or redoing one of them moves
// it whoever asked; a new edit of sc's clears what sc can redo, another
// agent's edit does not.
func stacksIn(commits []*commit, sc Scope) (done, undone []string) {
	remove := func(stack []string, id string) []string {
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i] == id {
				return append(stack[:i:i], stack[i+1:]...)
			}
		}
		return stack
	}
	all := sc.all()
	mine := map[string]bool{}
	for i := len(commits) - 1; i >= 0; i-- {
		c := commits[i]
		tr := trailers(c.Message)
		switch {
		case len(tr[TrailerUndo]) > 0:
			for _, id := range tr[TrailerUndo] {
				if all || mine[id] {
					done = remove(done, id)
					undone = append(undone, id)
				}
			}
		case len(tr[TrailerRedo]) > 0:
			for _, id := range tr[TrailerRedo] {
				if all || mine[id] {
					undone = remove(undone, id)
					done = append(done, id)
				}
			}
		case len(tr[TrailerTool]) > 0 && (tr[TrailerTool][0] == "snapshot" || tr[TrailerTool][0] == TrailerCarry):
		case all || sc.matches(attributionOf(tr)):
			mine[c.Hash.String()] = true
			done = append(done, c.Hash.String())
			undone = nil
		}
	}
	return done, undone
}

// Undo reverse-applies the last steps edits of the journal (0 means 1) to
// the current files and records that as one journal commit. It fails with
// ErrNothingToUndo when fewer than steps edits can be undone, and with
// ErrConflict when a file no longer fits; then nothing is written.
func (s *Store) Undo(ctx context.Context, steps int) (Reverted, error) {
	return s.revert(ctx, Scope{}, steps, "", true)
}

// Redo re-applies the last steps undone edits (0 means 1) to the current
// files and records that as one journal commit. It fails with
// ErrNothingToRedo or ErrConflict as Undo does.
func (s *Store) Redo(ctx context.Context, steps int) (Reverted, error) {
	return s.revert(ctx, Scope{}, steps, "", false)
}

// UndoIn is Undo of the last steps edits of scope sc: the edits of one
// agent or session, others' later edits staying in place (each undone
// edit is merged three-way against the files as they are, and a file
// whose lines others changed since is ErrConflict, with what changed).
func (s *Store) UndoIn(ctx context.Context, sc Scope, steps int) (Reverted, error) {
	return s.revert(ctx, sc, steps, "", true)
}

// RedoIn is Redo of the last steps edits of scope sc undone.
func (s *Store) RedoIn(ctx context.Context, sc Scope, steps int) (Reverted, error) {
	return s.revert(ctx, sc, steps, "", false)
}

// UndoEntry undoes one edit of scope sc that is not undone yet, id being
// its full commit id (LastOf finds it), whatever was done after it.
func (s *Store) UndoEntry(ctx context.Context, sc Scope, id string) (Reverted, error) {
	return s.revert(ctx, sc, 1, id, true)
}

// countError is "only N edits can be undone" and the like: it is Err
// (ErrNothingToUndo, ErrNothingToRedo) in errors.Is, with its own message.
type countError struct {
	msg string
	err error
}

func (e *countError) Error() string { return e.msg }
func (e *countError) Unwrap() error { return e.err }

func (s *Store) revert(ctx context.Context, sc Scope, steps int, only string, undo bool) (Reverted, error) {
	if steps <= 0 {
		steps = 1
	}
	if s.mode == ModeCommit {
		return Reverted{}, errors.New("gitstore: undo and redo work on the journal; in branch mode use git revert")
	}
	var out Reverted
	err := s.withLock(func() error {
		commits, st, err := s.journal()
		if err != nil {
			return err
		}
		attrs := attrCache{}
		done, undone := stacksIn(commits, sc)
		stack, empty, verb, key := done, ErrNothingToUndo, "undo", TrailerUndo
		if !undo {
			stack, empty, verb, key = undone, ErrNothingToRedo, "redo", TrailerRedo
		}
		if only != "" {
			if !slices.Contains(stack, only) {
				return fmt.Errorf("%s: not an edit that can be undone (%s): %w", only, scopeOr(sc, "the journal"), ErrUnknownEntry)
			}
			stack = []string{only}
		}
		if len(stack) < steps {
			if len(stack) == 0 {
				if !sc.all() {
					return &countError{fmt.Sprintf("nothing to %s for %s", verb, sc), empty}
				}
				return empty
			}
			edits := "edits"
			if len(stack) == 1 {
				edits = "edit"
			}
			msg := fmt.Sprintf("only %d %s can be %s, not %d", len(stack), edits, map[bool]string{true: "undone", false: "redone"}[undo], steps)
			if !sc.all() {
				msg += " (" + sc.String() + ")"
			}
			return &countError{msg, empty}
		}
		// Current contents, then each step merged in turn.
		type file struct {
			old, cur []byte
			perm     uint32
			oldPerm  uint32
		}
		files := map[string]*file{}
		var order []string
		var trailerLines []string
		for i := 0; i < steps; i++ {
			id := stack[len(stack)-1-i]
			c, err := s.commit(oid(id))
			if err != nil {
				return err
			}
			changes, err := s.commitChanges(c)
			if err != nil {
				return err
			}
			for _, ch := range changes {
				f := files[ch.path]
				if f == nil {
					f = &file{}
					b, perm, err := readWorktree(s.abs(ch.path))
					if err != nil {
						return fmt.Errorf("gitstore: %s: %w", ch.path, err)
					}
					f.old, f.cur, f.perm, f.oldPerm = b, b, perm, perm
					files[ch.path] = f
					order = append(order, ch.path)
				}
				before, after, err := s.changeContents(ch)
				if err != nil {
					return err
				}
				from, to := ch.after, ch.before // undo: from the edit's result back
				base, target := after, before
				if !undo {
					from, to, base, target = ch.before, ch.after, before, after
				}
				stored, err := s.lookup(st.tree, ch.path)
				if err != nil {
					return err
				}
				conv := s.conversionOf(ch.path, attrs)
				baseH, targetH := ch.after.Hash, ch.before.Hash
				if !undo {
					baseH, targetH = ch.before.Hash, ch.after.Hash
				}
				merged, err := s.mergeWorktree(ch.path, conv, stored, base, target, f.cur, baseH, targetH)
				if err != nil {
					return fmt.Errorf("%s: cannot %s %s: %v: %w%s", ch.path, verb, id[:12], err, ErrConflict, s.changedSince(commits, id, ch.path, base, f.cur))
				}
				f.cur = merged
				if merged != nil && !to.absent() && (from.absent() || fileMode(f.perm) == from.Mode) {
					f.perm = permOf(to.Mode, f.perm)
				}
			}
			trailerLines = append(trailerLines, key+": "+id)
			out.Entries = append(out.Entries, id)
		}
		var changes []Change
		for _, p := range order {
			f := files[p]
			if bytes.Equal(f.old, f.cur) && (f.old == nil) == (f.cur == nil) && f.perm == f.oldPerm {
				continue
			}
			mode := fs.FileMode(f.perm)
			if f.perm == linkPerm {
				mode = fs.ModeSymlink | 0o777
			}
			changes = append(changes, Change{Path: p, Old: f.old, New: f.cur, Mode: mode})
			out.Files = append(out.Files, p)
		}
		msg := fmt.Sprintf("%s %s", verb, subjectOf(s, out.Entries))
		landed, err := s.landLocked(ctx, Call{Tool: verb, Message: msg}, changes, trailerLines)
		out.Landed = landed
		return err
	})
	return out, err
}

func subjectOf(s *Store, ids []string) string {
	var parts []string
	for _, id := range ids {
		c, err := s.commit(oid(id))
		if err != nil {
			parts = append(parts, id[:12])
			continue
		}
		parts = append(parts, fmt.Sprintf("%q", subject(c.Message)))
	}
	return strings.Join(parts, ", ")
}

// readWorktree reads a worktree file; a missing file is nil content.
func readWorktree(name string) ([]byte, uint32, error) {
	fi, err := os.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		t, err := os.Readlink(name)
		return []byte(t), linkPerm, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("not a regular file")
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, 0, err
	}
	if b == nil {
		b = []byte{}
	}
	return b, uint32(fi.Mode().Perm()), nil
}

func permOf(m uint32, cur uint32) uint32 {
	switch {
	case m == modeSymlink:
		return linkPerm
	case cur == linkPerm:
		cur = 0o644 // a link becomes a file again
	}
	if isExec(m) {
		return cur | (cur&0o444)>>2 | 0o100
	}
	return cur &^ 0o111
}

// mergeWorktree applies the journal's change base→target (clean forms,
// with their blob ids) to the worktree bytes cur. A path git converts with
// its own machinery has its blobs checked out by git first; a path whose
// line endings git converts is merged in its clean form and the result
// carried back onto cur's bytes (reapply), so its line endings survive.
func (s *Store) mergeWorktree(path string, conv conversion, stored entry, base, target, cur []byte, baseH, targetH oid) ([]byte, error) {
	switch {
	case conv.external:
		var err error
		if base != nil {
			if base, err = s.gitSmudge(path, baseH); err != nil {
				return nil, err
			}
		}
		if target != nil {
			if target, err = s.gitSmudge(path, targetH); err != nil {
				return nil, err
			}
		}
	case conv.text && cur != nil:
		c, err := s.clean(path, cur, conv, stored, "")
		if err != nil {
			return nil, err
		}
		if c.changed {
			m, err := merge3(base, target, c.content)
			if err != nil {
				return nil, err
			}
			return reapply(cur, c.content, m)
		}
	}
	return merge3(base, target, cur)
}

// merge3 applies the change base→target to cur, where cur is base changed
// by someone else. nil means the file does not exist.
func merge3(base, target, cur []byte) ([]byte, error) {
	switch {
	case bytes.Equal(cur, base) && (cur == nil) == (base == nil):
		return target, nil
	case target == nil:
		if cur == nil {
			return nil, nil
		}
		return nil, errors.New("the file changed since, so it cannot be deleted")
	case base == nil:
		if cur == nil {
			return nil, errors.New("the file was deleted since")
		}
		if bytes.Equal(cur, target) {
			return target, nil
		}
		return nil, errors.New("the file was created again since")
	case cur == nil:
		return nil, errors.New("the file was deleted since")
	}
	ours := lineEdits(base, target)
	theirs := lineEdits(base, cur)
	for _, o := range ours {
		for _, t := range theirs {
			if o.a0 <= t.a1 && t.a0 <= o.a1 {
				return nil, fmt.Errorf("lines %d-%d were changed since", o.a0+1, max(o.a1, o.a0+1))
			}
		}
	}
	return weave(base, ours, theirs), nil
}

// weave applies two lists of line edits of base that touch no common
// line, each in order, in one pass: the last step of merge3 and
// mergeSame.
func weave(base []byte, ours, theirs []ledit) []byte {
	lines := splitLines(base)
	var out bytes.Buffer
	pos := 0
	i, j := 0, 0
	for i < len(ours) || j < len(theirs) {
		var e ledit
		if j >= len(theirs) || i < len(ours) && ours[i].a0 < theirs[j].a0 {
			e, i = ours[i], i+1
		} else {
			e, j = theirs[j], j+1
		}
		for ; pos < e.a0; pos++ {
			out.WriteString(lines[pos])
		}
		out.WriteString(e.repl)
		pos = e.a1
	}
	for ; pos < len(lines); pos++ {
		out.WriteString(lines[pos])
	}
	return out.Bytes()
}

// ledit replaces lines [a0, a1) of the old text with repl.
type ledit struct {
	a0, a1 int
	repl   string
}

// lineEdits lists the line changes from a to b, each a run of replaced
// lines and the text that replaces them (textdiff, the engine's diff).
func lineEdits(a, b []byte) []ledit {
	lines := textdiff.Split(b)
	var out []ledit
	for _, e := range textdiff.Lines(a, b) {
		out = append(out, ledit{a0: e.A0, a1: e.A1, repl: string(bytes.Join(lines[e.B0:e.B1], nil))})
	}
	return out
}

// splitLines splits after each "\n", keeping line endings; a last line
// without one is kept too.
func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	parts := strings.SplitAfter(string(b), "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// lineCounts returns how many lines b adds and removes compared with a.
func lineCounts(a, b []byte) (add, del int) {
	for _, e := range lineEdits(a, b) {
		del += e.a1 - e.a0
		add += len(splitLines([]byte(e.repl)))
	}
	return add, del
}
