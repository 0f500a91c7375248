package gitstore

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// sixFiles is a repository of six files the agent edits and one it does
// not.
func sixFiles(t *testing.T) string {
	files := map[string]string{"other.txt": "other\n"}
	for _, n := range "abcdef" {
		files[string(n)+".txt"] = fmt.Sprintf("%c one\n%c two\n%c three\n", n, n, n)
	}
	return newRepo(t, files)
}

// edits lists the journal's edits (not snapshots or carries), newest first.
func edits(t *testing.T, s *Store) []string {
	t.Helper()
	h, err := s.History(100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range h {
		if e.Tool != "snapshot" && e.Tool != TrailerCarry {
			out = append(out, e.Files[0].Path)
		}
	}
	return out
}

func diffNames(t *testing.T, dir string) string {
	return strings.ReplaceAll(git(t, dir, "diff", "--name-only", "main", "refs/graft/main"), "\n", " ")
}

// Issue 32, item 3: a user's commit of an unrelated file between edits
// keeps the journal: log lists every edit, undo takes back all five asked
// (three-way, across the commit), land takes every file not yet on the
// branch, and git diff <branch> refs/graft/<branch> shows only the agent's
// work.
func TestUserCommitKeepsJournal(t *testing.T) {
	dir := sixFiles(t)
	s := open(t, dir)
	for _, n := range "abc" {
		edit(t, s, "edit", string(n)+".txt", "two", "TWO")
	}
	writeFile(t, dir, "other.txt", "other, by the user\n")
	git(t, dir, "commit", "-q", "-m", "user's own change", "other.txt")
	// Seen at once, before any call.
	if got := strings.Join(edits(t, s), " "); got != "c.txt b.txt a.txt" {
		t.Fatalf("log after the user's commit: %s", got)
	}
	if st, err := s.Status(); err != nil || !st.Carried || st.Stale || st.Undoable != 3 {
		t.Fatalf("status after the user's commit: %+v %v", st, err)
	}
	if got, err := s.Diff(""); err != nil || strings.Contains(got, "other.txt") || strings.Count(got, "diff --git") != 3 {
		t.Fatalf("graft diff after the user's commit (%v):\n%s", err, got)
	}
	for _, n := range "def" {
		edit(t, s, "edit", string(n)+".txt", "two", "TWO")
	}
	if got := strings.Join(edits(t, s), " "); got != "f.txt e.txt d.txt c.txt b.txt a.txt" {
		t.Fatalf("log: %s", got)
	}
	if got := diffNames(t, dir); got != "a.txt b.txt c.txt d.txt e.txt f.txt" {
		t.Fatalf("git diff main refs/graft/main: %s", got)
	}
	st, err := s.Status()
	if err != nil || st.Undoable != 6 || st.Stale || st.Carried {
		t.Fatalf("status %+v %v", st, err)
	}
	fsck(t, dir)

	// Undo 5 reverses f, e, d (after the commit) and c, b (before it).
	if _, err := s.Undo(ctx, 5); err != nil {
		t.Fatalf("undo 5: %v", err)
	}
	for _, n := range "bcdef" {
		if got := readFile(t, dir, string(n)+".txt"); strings.Contains(got, "TWO") {
			t.Fatalf("%c.txt not undone: %q", n, got)
		}
	}
	if got := diffNames(t, dir); got != "a.txt" {
		t.Fatalf("after undo 5, git diff main refs/graft/main: %s", got)
	}
	if _, err := s.Redo(ctx, 5); err != nil {
		t.Fatalf("redo 5: %v", err)
	}

	// Land takes the six files, on top of the user's commit.
	userCommit := git(t, dir, "rev-parse", "HEAD")
	sq, err := s.Squash(ctx, "agent work")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(sq.Files, " ") != "a.txt b.txt c.txt d.txt e.txt f.txt" {
		t.Fatalf("land took %v", sq.Files)
	}
	if got := git(t, dir, "rev-parse", "HEAD^"); got != userCommit {
		t.Fatal("land is not on the user's commit")
	}
	if got := git(t, dir, "status", "--porcelain"); got != "" {
		t.Fatalf("status after land: %q", got)
	}
	// After land the journal starts again on the landed commit.
	if got := edits(t, s); len(got) != 0 {
		t.Fatalf("log after land: %v", got)
	}
	if _, err := s.Undo(ctx, 1); !errors.Is(err, ErrNothingToUndo) {
		t.Fatalf("undo after land: %v", err)
	}
	if got := diffNames(t, dir); got != "" {
		t.Fatalf("git diff after land: %s", got)
	}
	fsck(t, dir)
}

// The user's commit of part of the agent's work: what it holds is on the
// branch, the rest is still the journal's; every entry stays undoable.
func TestUserCommitOfAgentFiles(t *testing.T) {
	dir := sixFiles(t)
	s := open(t, dir)
	edit(t, s, "edit", "a.txt", "one", "ONE")
	edit(t, s, "edit", "b.txt", "one", "ONE")
	git(t, dir, "commit", "-q", "-m", "take a", "a.txt")
	if got := diffNames(t, dir); got != "b.txt" {
		t.Fatalf("git diff main refs/graft/main before the next call: %s (the journal is carried with the next call)", got)
	}
	edit(t, s, "edit", "c.txt", "one", "ONE")
	if got := diffNames(t, dir); got != "b.txt c.txt" {
		t.Fatalf("git diff main refs/graft/main: %s", got)
	}
	if got := strings.Join(edits(t, s), " "); got != "c.txt b.txt a.txt" {
		t.Fatalf("log: %s", got)
	}
	// Undoing a's entry takes the committed edit back in the worktree:
	// that is now the agent's work not on the branch.
	if _, err := s.Undo(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, dir, "a.txt"); got != "a one\na two\na three\n" {
		t.Fatalf("a.txt = %q", got)
	}
	if got := diffNames(t, dir); got != "a.txt" {
		t.Fatalf("git diff main refs/graft/main after undo: %s", got)
	}
	fsck(t, dir)
}

// The user edits lines of the agent's file and commits it as the worktree
// holds it: nothing of that file is left to land, and an undo of the
// agent's entry is refused, its lines no longer fitting.
func TestUserCommitOverAgentLines(t *testing.T) {
	dir := sixFiles(t)
	s := open(t, dir)
	edit(t, s, "edit", "a.txt", "a two", "A TWO")
	writeFile(t, dir, "a.txt", "a one\nA TWO, and more by the user\na three\n")
	git(t, dir, "commit", "-q", "-am", "user finishes a")
	edit(t, s, "edit", "b.txt", "one", "ONE")
	if got := diffNames(t, dir); got != "b.txt" {
		t.Fatalf("git diff main refs/graft/main: %s", got)
	}
	if _, err := s.Undo(ctx, 2); !errors.Is(err, ErrConflict) {
		t.Fatalf("undo over the user's lines: %v", err)
	}
	fsck(t, dir)
}

// git commit --amend rewrites the journal's base: the journal is carried
// onto the amended commit all the same.
func TestAmendKeepsJournal(t *testing.T) {
	dir := sixFiles(t)
	s := open(t, dir)
	edit(t, s, "edit", "a.txt", "one", "ONE")
	writeFile(t, dir, "other.txt", "amended\n")
	git(t, dir, "commit", "-q", "--amend", "-m", "amended", "other.txt")
	edit(t, s, "edit", "b.txt", "one", "ONE")
	if got := strings.Join(edits(t, s), " "); got != "b.txt a.txt" {
		t.Fatalf("log: %s", got)
	}
	if got := diffNames(t, dir); got != "a.txt b.txt" {
		t.Fatalf("git diff main refs/graft/main: %s", got)
	}
	if _, err := s.Undo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if got := diffNames(t, dir); got != "" {
		t.Fatalf("after undo: %s", got)
	}
	fsck(t, dir)
}

// A rebase of the branch onto another (the agent's work stashed and put
// back, git rebase --autostash): the journal is carried onto the rebased
// commit; what the other branch brought is not the agent's work.
func TestRebaseKeepsJournal(t *testing.T) {
	dir := sixFiles(t)
	git(t, dir, "checkout", "-q", "-b", "upstream")
	writeFile(t, dir, "up.txt", "from upstream\n")
	writeFile(t, dir, "f.txt", "f one\nf two\nf three\nf four from upstream\n")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "upstream work")
	git(t, dir, "checkout", "-q", "main")
	writeFile(t, dir, "other.txt", "main's own\n")
	git(t, dir, "commit", "-q", "-am", "main's own")
	s := open(t, dir)
	edit(t, s, "edit", "a.txt", "one", "ONE")
	edit(t, s, "edit", "f.txt", "one", "ONE")
	git(t, dir, "-c", "rebase.autoStash=true", "rebase", "-q", "upstream")
	if got := strings.Join(edits(t, s), " "); got != "f.txt a.txt" {
		t.Fatalf("log: %s", got)
	}
	edit(t, s, "edit", "b.txt", "one", "ONE")
	if got := diffNames(t, dir); got != "a.txt b.txt f.txt" {
		t.Fatalf("git diff main refs/graft/main: %s", got)
	}
	// f.txt: the agent's change merged onto upstream's version.
	if got := git(t, dir, "show", "refs/graft/main:f.txt"); got != "f ONE\nf two\nf three\nf four from upstream" {
		t.Fatalf("journal f.txt: %q", got)
	}
	sq, err := s.Squash(ctx, "agent")
	if err != nil || strings.Join(sq.Files, " ") != "a.txt b.txt f.txt" {
		t.Fatalf("land: %+v %v", sq, err)
	}
	if got := git(t, dir, "status", "--porcelain"); got != "" {
		t.Fatalf("status after land: %q", got)
	}
	fsck(t, dir)
}

// git reset --hard to an earlier commit throws the agent's work away: the
// journal restarts on the commit reset to. A reset --hard that does not
// move the branch leaves the journal; undo of an entry whose lines the
// reset took back is refused.
func TestResetHard(t *testing.T) {
	dir := sixFiles(t)
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "second")
	s := open(t, dir)
	edit(t, s, "edit", "a.txt", "one", "ONE")
	edit(t, s, "edit", "b.txt", "one", "ONE")
	git(t, dir, "reset", "-q", "--hard", "HEAD~1")
	if got := edits(t, s); len(got) != 0 {
		t.Fatalf("log after reset --hard HEAD~1: %v", got)
	}
	if _, err := s.Undo(ctx, 1); !errors.Is(err, ErrNothingToUndo) {
		t.Fatalf("undo: %v", err)
	}
	if st, _ := s.Status(); !st.Stale {
		t.Fatalf("status: %+v", st)
	}
	l := edit(t, s, "edit", "c.txt", "one", "ONE")
	if got := git(t, dir, "rev-parse", l.Commit+"^"); got != git(t, dir, "rev-parse", "HEAD") {
		t.Fatal("the journal did not restart on the commit reset to")
	}
	if got := diffNames(t, dir); got != "c.txt" {
		t.Fatalf("git diff: %s", got)
	}

	// Without moving the branch.
	git(t, dir, "reset", "-q", "--hard")
	if got := strings.Join(edits(t, s), " "); got != "c.txt" {
		t.Fatalf("log after reset --hard: %s", got)
	}
	if _, err := s.Undo(ctx, 1); !errors.Is(err, ErrConflict) {
		t.Fatalf("undo of an edit the reset took back: %v", err)
	}
	fsck(t, dir)
}

// A reset that keeps the worktree (--soft, --mixed) keeps the journal,
// carried onto the commit reset to.
func TestResetSoftKeepsJournal(t *testing.T) {
	dir := sixFiles(t)
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "second")
	s := open(t, dir)
	edit(t, s, "edit", "a.txt", "one", "ONE")
	git(t, dir, "reset", "-q", "HEAD~1")
	if got := strings.Join(edits(t, s), " "); got != "a.txt" {
		t.Fatalf("log: %s", got)
	}
	edit(t, s, "edit", "b.txt", "one", "ONE")
	if got := diffNames(t, dir); got != "a.txt b.txt" {
		t.Fatalf("git diff: %s", got)
	}
	fsck(t, dir)
}

// Each branch has its own journal: a switch changes journals, and
// switching back finds the first one as it was.
func TestBranchSwitch(t *testing.T) {
	dir := sixFiles(t)
	s := open(t, dir)
	edit(t, s, "edit", "a.txt", "one", "ONE")
	git(t, dir, "switch", "-q", "-c", "feature")
	if got := edits(t, s); len(got) != 0 {
		t.Fatalf("feature's log: %v", got)
	}
	edit(t, s, "edit", "b.txt", "one", "ONE")
	if got := strings.Join(edits(t, s), " "); got != "b.txt" {
		t.Fatalf("feature's log: %s", got)
	}
	git(t, dir, "switch", "-q", "main")
	if got := strings.Join(edits(t, s), " "); got != "a.txt" {
		t.Fatalf("main's log: %s", got)
	}
	if _, err := s.Undo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, dir, "a.txt"); got != "a one\na two\na three\n" {
		t.Fatalf("a.txt = %q", got)
	}
	if got := readFile(t, dir, "b.txt"); got != "b ONE\nb two\nb three\n" {
		t.Fatalf("b.txt = %q (feature's edit, carried by the switch, is not main's to undo)", got)
	}
	fsck(t, dir)
}

// Everything committed by the user (commit -a): nothing is left to land,
// and the entries stay in the log.
func TestUserCommitsEverything(t *testing.T) {
	dir := sixFiles(t)
	s := open(t, dir)
	edit(t, s, "edit", "a.txt", "one", "ONE")
	edit(t, s, "edit", "b.txt", "one", "ONE")
	git(t, dir, "commit", "-q", "-am", "all of it")
	if _, err := s.Squash(ctx, "again"); !errors.Is(err, ErrNoJournal) {
		t.Fatalf("land: %v", err)
	}
	if got := strings.Join(edits(t, s), " "); got != "b.txt a.txt" {
		t.Fatalf("log: %s", got)
	}
	if d, err := s.Diff(""); err != nil || d != "" {
		t.Fatalf("graft diff: %q %v", d, err)
	}
}

// A detached HEAD's journal is not carried: it restarts when HEAD moves.
func TestDetachedJournalRestarts(t *testing.T) {
	dir := sixFiles(t)
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "second")
	git(t, dir, "checkout", "-q", "--detach")
	s := open(t, dir)
	edit(t, s, "edit", "a.txt", "one", "ONE")
	if got := strings.Join(edits(t, s), " "); got != "a.txt" {
		t.Fatalf("log: %s", got)
	}
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "detached commit")
	if got := edits(t, s); len(got) != 0 {
		t.Fatalf("log after HEAD moved: %v", got)
	}
	if st, _ := s.Status(); !st.Stale || st.Carried {
		t.Fatalf("status: %+v", st)
	}
}
