package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var ctx = context.Background()

func TestUndoRedoKeepsLaterOutsideChanges(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "b.txt": "bee\n"})
	s := open(t, dir)
	e1 := edit(t, s, "edit", "a.txt", "2\n", "two\n", "b.txt", "bee", "BEE")
	// A later change by hand, far from the edit.
	writeFile(t, dir, "a.txt", "1\ntwo\n3\n4\n5\n6\n7\n8\nnine by hand\n")

	r, err := s.Undo(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Entries) != 1 || r.Entries[0] != e1.Commit {
		t.Fatalf("undid %v", r.Entries)
	}
	if got := readFile(t, dir, "a.txt"); got != "1\n2\n3\n4\n5\n6\n7\n8\nnine by hand\n" {
		t.Fatalf("a.txt after undo:\n%s", got)
	}
	if readFile(t, dir, "b.txt") != "bee\n" {
		t.Fatal("b.txt not undone")
	}
	if r.Snapshot == "" {
		t.Fatal("the outside change was not snapshotted before the undo")
	}
	msg := git(t, dir, "log", "-1", "--format=%B", r.Commit)
	if !strings.Contains(msg, "Graft-Undo: "+e1.Commit) || !strings.Contains(msg, "Graft-Tool: undo") {
		t.Fatalf("undo message:\n%s", msg)
	}
	if _, err := s.Undo(ctx, 1); !errors.Is(err, ErrNothingToUndo) {
		t.Fatalf("second undo: %v", err)
	}

	if _, err := s.Redo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, dir, "a.txt"); got != "1\ntwo\n3\n4\n5\n6\n7\n8\nnine by hand\n" {
		t.Fatalf("a.txt after redo:\n%s", got)
	}
	if _, err := s.Redo(ctx, 1); !errors.Is(err, ErrNothingToRedo) {
		t.Fatalf("second redo: %v", err)
	}
	// Undo again after the redo works (the redone edit is back on the stack).
	if _, err := s.Undo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if readFile(t, dir, "b.txt") != "bee\n" {
		t.Fatal("undo after redo")
	}
	fsck(t, dir)
}

func TestUndoConflictTouchesNothing(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "1\n2\n3\n", "b.txt": "bee\n"})
	s := open(t, dir)
	edit(t, s, "multi_edit", "a.txt", "2\n", "two\n", "b.txt", "bee", "BEE")
	writeFile(t, dir, "a.txt", "1\ntwo and more\n3\n") // rewrites the edited line
	tip := git(t, dir, "rev-parse", "refs/graft/main")
	_, err := s.Undo(ctx, 1)
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "a.txt") {
		t.Fatalf("err = %v", err)
	}
	if readFile(t, dir, "b.txt") != "BEE\n" || readFile(t, dir, "a.txt") != "1\ntwo and more\n3\n" {
		t.Fatal("files touched by a failed undo")
	}
	if git(t, dir, "rev-parse", "refs/graft/main") != tip {
		t.Fatal("journal moved by a failed undo")
	}
}

func TestUndoSeveralStepsCreateDelete(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n", "old.txt": "old\n"})
	s := open(t, dir)
	edit(t, s, "edit", "a.txt", "a", "A")
	if _, err := s.Land(ctx, Call{Tool: "apply_patch"}, []Change{
		{Path: "new.txt", New: b("new\n")},
		{Path: "old.txt", Old: b("old\n")},
	}); err != nil {
		t.Fatal(err)
	}
	edit(t, s, "edit", "a.txt", "A", "AA")
	r, err := s.Undo(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Entries) != 3 {
		t.Fatalf("entries %v", r.Entries)
	}
	if readFile(t, dir, "a.txt") != "a\n" || readFile(t, dir, "old.txt") != "old\n" {
		t.Fatal("not restored")
	}
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); !os.IsNotExist(err) {
		t.Fatal("created file not removed")
	}
	if got := git(t, dir, "diff", "main", "refs/graft/main"); got != "" {
		t.Fatalf("journal after undoing everything differs from main:\n%s", got)
	}
	if _, err := s.Redo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if readFile(t, dir, "a.txt") != "A\n" || readFile(t, dir, "new.txt") != "new\n" {
		t.Fatal("redo 2 steps")
	}
	if _, err := os.Stat(filepath.Join(dir, "old.txt")); !os.IsNotExist(err) {
		t.Fatal("redo did not delete")
	}
	// A new edit clears the redo stack.
	edit(t, s, "edit", "a.txt", "A", "B")
	if _, err := s.Redo(ctx, 1); !errors.Is(err, ErrNothingToRedo) {
		t.Fatalf("redo after a new edit: %v", err)
	}
	st, err := s.Status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Undoable != 3 || st.Redoable != 0 {
		t.Fatalf("status %+v", st)
	}
	fsck(t, dir)
}

func TestHistoryAndDiff(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "1\n2\n3\n"})
	s := open(t, dir)
	e1 := edit(t, s, "edit", "a.txt", "2\n", "two\nmore\n")
	if _, err := s.Land(ctx, Call{Tool: "edit_lines", Message: "add c"}, []Change{{Path: "c.txt", New: b("c\n")}}); err != nil {
		t.Fatal(err)
	}
	h, err := s.History(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 || h[0].Message != "add c" || h[0].Tool != "edit_lines" || h[1].ID != e1.Commit {
		t.Fatalf("history %+v", h)
	}
	if h[1].Additions != 2 || h[1].Deletions != 1 || len(h[1].Files) != 1 || h[1].Files[0].Path != "a.txt" {
		t.Fatalf("counts %+v", h[1])
	}
	if h1, _ := s.History(1); len(h1) != 1 {
		t.Fatal("limit")
	}
	d, err := s.Diff(e1.Commit[:8])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d, "-2\n+two\n+more\n") || strings.Contains(d, "c.txt") {
		t.Fatalf("entry diff:\n%s", d)
	}
	all, err := s.Diff("")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(all, "+two") || !strings.Contains(all, "c.txt") {
		t.Fatalf("whole diff:\n%s", all)
	}
	if _, err := s.Diff("deadbeef"); err == nil {
		t.Fatal("unknown id accepted")
	}
}

func TestSquashLandsJournal(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "other.txt": "o\n"})
	writeFile(t, dir, "other.txt", "staged by the user\n")
	git(t, dir, "add", "other.txt")
	s := open(t, dir)
	edit(t, s, "edit", "a.txt", "a", "A")
	edit(t, s, "edit", "b.txt", "b", "B")
	head := git(t, dir, "rev-parse", "HEAD")
	sq, err := s.Squash(ctx, "agent work")
	if err != nil {
		t.Fatal(err)
	}
	if sq.Entries != 2 || len(sq.Files) != 2 {
		t.Fatalf("%+v", sq)
	}
	if git(t, dir, "rev-parse", "HEAD") != sq.Commit || git(t, dir, "rev-parse", "HEAD^") != head {
		t.Fatal("not one commit on the branch")
	}
	if got := git(t, dir, "log", "-1", "--format=%s", "HEAD"); got != "agent work" {
		t.Fatalf("message %q", got)
	}
	// Index: landed paths match HEAD, the user's staged change is kept.
	if got := git(t, dir, "status", "--porcelain"); got != "M  other.txt" {
		t.Fatalf("status after land: %q", got)
	}
	if got := git(t, dir, "reflog", "-1", "--format=%gs", "main"); !strings.Contains(got, "graft land") {
		t.Fatalf("reflog %q", got)
	}
	st, _ := s.Status()
	if st.Entries != 0 || st.Stale {
		t.Fatalf("journal not restarted: %+v", st)
	}
	if _, err := s.Squash(ctx, "again"); !errors.Is(err, ErrNoJournal) {
		t.Fatalf("second land: %v", err)
	}
	edit(t, s, "edit", "a.txt", "A", "AA")
	if got := git(t, dir, "rev-parse", "refs/graft/main^"); got != sq.Commit {
		t.Fatal("journal does not continue from the landed commit")
	}
	fsck(t, dir)
}

func TestBranchMode(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	writeFile(t, dir, "b.txt", "b staged\n")
	git(t, dir, "add", "b.txt")
	git(t, dir, "config", "graft.mode", "commit")
	s := open(t, dir)
	if s.Mode() != ModeCommit {
		t.Fatal("graft.mode commit not read")
	}
	head := git(t, dir, "rev-parse", "HEAD")
	l := edit(t, s, "edit", "a.txt", "a", "A")
	if git(t, dir, "rev-parse", "HEAD") != l.Commit || git(t, dir, "rev-parse", "HEAD^") != head {
		t.Fatal("not a commit on the branch")
	}
	if got := git(t, dir, "status", "--porcelain"); got != "M  b.txt" {
		t.Fatalf("status: %q", got)
	}
	if exists(filepath.Join(s.GitDir(), "refs", "graft")) && git(t, dir, "for-each-ref", "refs/graft") != "" {
		t.Fatal("journal written in branch mode")
	}
	if _, err := s.Undo(ctx, 1); err == nil {
		t.Fatal("undo in branch mode")
	}

	// Paths git converts on commit are committed in the form git would
	// store: line endings by the text attribute and core.autocrlf, filters
	// by git itself.
	writeFile(t, dir, ".gitattributes", "*.bin filter=lfs\n*.txt text\n")
	git(t, dir, "add", ".gitattributes")
	if _, err := s.Land(ctx, Call{Tool: "edit"}, []Change{{Path: "x.bin", New: b("pointer\n")}}); err != nil {
		t.Fatalf("filtered path (no driver configured): %v", err)
	}
	if _, err := s.Land(ctx, Call{Tool: "edit"}, []Change{{Path: "a.txt", Old: b("A\n"), New: b("A\r\n")}}); err != nil {
		t.Fatalf("crlf under text: %v", err)
	}
	if got := git(t, dir, "show", "HEAD:a.txt"); got != "A" || readFile(t, dir, "a.txt") != "A\r\n" {
		t.Fatalf("committed %q, worktree %q", got, readFile(t, dir, "a.txt"))
	}
	git(t, dir, "config", "core.autocrlf", "true")
	s = open(t, dir)
	if _, err := s.Land(ctx, Call{Tool: "edit"}, []Change{{Path: "a.txt", Old: b("A\r\n"), New: b("B\r\n")}}); err != nil {
		t.Fatalf("autocrlf: %v", err)
	}
	if got := git(t, dir, "cat-file", "-p", "HEAD:a.txt"); got != "B" {
		t.Fatalf("committed %q", got)
	}
	if got := git(t, dir, "status", "--porcelain", "a.txt", "x.bin"); got != "" {
		t.Fatalf("status after branch-mode commits: %q", got)
	}
	fsck(t, dir)

	// --commit through OpenOptions on a journal repository.
	dir2 := newRepo(t, map[string]string{"a.txt": "a\n"})
	s2, err := OpenWith(dir2, OpenOptions{Mode: ModeCommit})
	if err != nil {
		t.Fatal(err)
	}
	edit(t, s2, "edit", "a.txt", "a", "A")
	if got := git(t, dir2, "status", "--porcelain"); got != "" {
		t.Fatalf("status: %q", got)
	}
	fsck(t, dir2)
}
