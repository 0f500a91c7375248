package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// linkedWorktrees makes a repository holding a.txt and b.txt and linked
// worktrees named names beside it (detached unless a branch follows the
// name after a colon: "w1:feature", or "w1:main" which is forced).
func linkedWorktrees(t *testing.T, names ...string) (main string, wts []string) {
	t.Helper()
	main = newRepo(t, map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "b\n"})
	for _, n := range names {
		name, branch, _ := strings.Cut(n, ":")
		dir := filepath.Join(filepath.Dir(main), name)
		switch branch {
		case "":
			git(t, main, "worktree", "add", "-q", "--detach", dir)
		case "main":
			git(t, main, "worktree", "add", "-q", "--force", dir, "main")
		default:
			git(t, main, "worktree", "add", "-q", "-b", branch, dir)
		}
		wts = append(wts, dir)
	}
	return main, wts
}

func historyTools(t *testing.T, s *Store) []string {
	t.Helper()
	h, err := s.History(0)
	if err != nil {
		t.Fatalf("History: %v", err)
	}
	var out []string
	for _, e := range h {
		out = append(out, e.Tool+":"+e.Message)
	}
	return out
}

func TestDetachedWorktreesHaveTheirOwnJournal(t *testing.T) {
	main, wts := linkedWorktrees(t, "w1", "w2")
	s1, s2 := open(t, wts[0]), open(t, wts[1])
	ctx := context.Background()

	l1 := edit(t, s1, "first", "a.txt", "one", "ONE")
	l2 := edit(t, s2, "second", "a.txt", "two", "TWO")
	if l1.Ref != "refs/graft-worktrees/w1/detached" || l2.Ref != "refs/graft-worktrees/w2/detached" {
		t.Fatalf("journal refs %q and %q", l1.Ref, l2.Ref)
	}
	if l2.Snapshot != "" {
		t.Fatalf("w2's edit snapshots w1's work as changes made outside graft")
	}
	l1 = edit(t, s1, "third", "b.txt", "b", "B")
	if l1.Snapshot != "" {
		t.Fatalf("w1's second edit snapshots w2's work")
	}
	if got := historyTools(t, s1); strings.Join(got, ",") != "third:third: b.txt,first:first: a.txt" {
		t.Fatalf("w1 history %q", got)
	}
	if got := historyTools(t, s2); strings.Join(got, ",") != "second:second: a.txt" {
		t.Fatalf("w2 history %q", got)
	}

	// Undo in w1 takes back w1's last edit, never w2's.
	if _, err := s1.Undo(ctx, 1); err != nil {
		t.Fatalf("undo in w1: %v", err)
	}
	if got := readFile(t, wts[0], "b.txt"); got != "b\n" {
		t.Fatalf("w1 b.txt after undo: %q", got)
	}
	if got := readFile(t, wts[1], "a.txt"); got != "one\nTWO\nthree\n" {
		t.Fatalf("w2 a.txt after undo in w1: %q", got)
	}
	if _, err := s2.Undo(ctx, 1); err != nil {
		t.Fatalf("undo in w2: %v", err)
	}
	if got := readFile(t, wts[1], "a.txt"); got != "one\ntwo\nthree\n" {
		t.Fatalf("w2 a.txt after its undo: %q", got)
	}
	if got := readFile(t, wts[0], "a.txt"); got != "ONE\ntwo\nthree\n" {
		t.Fatalf("w1 a.txt after undo in w2: %q", got)
	}
	if _, err := s2.Undo(ctx, 1); !errors.Is(err, ErrNothingToUndo) {
		t.Fatalf("second undo in w2: %v, want nothing to undo", err)
	}
	if _, err := s1.Redo(ctx, 1); err != nil {
		t.Fatalf("redo in w1: %v", err)
	}

	// Land: detached worktrees have no branch to land on; neither journal
	// nor the main branch moves.
	before := git(t, main, "for-each-ref", "--format=%(refname) %(objectname)")
	for i, s := range []*Store{s1, s2} {
		if _, err := s.Squash(ctx, "land"); err == nil || !strings.Contains(err.Error(), "detached") {
			t.Fatalf("land in w%d: %v", i+1, err)
		}
	}
	if after := git(t, main, "for-each-ref", "--format=%(refname) %(objectname)"); after != before {
		t.Fatalf("refs moved by a refused land:\n%s\n%s", before, after)
	}
	// The main worktree's journal is its own too.
	s0 := open(t, main)
	if l := edit(t, s0, "main", "a.txt", "three", "THREE"); l.Ref != "refs/graft/main" || l.Snapshot != "" {
		t.Fatalf("main's edit: %+v", l)
	}
	if got := git(t, wts[0], "log", "--format=%s", "refs/graft-worktrees/w1/detached"); !strings.HasPrefix(got, "redo \"third: b.txt\"\n") {
		t.Fatalf("git log of w1's journal:\n%s", got)
	}
	fsck(t, main)
}

func TestWorktreesOnOneBranch(t *testing.T) {
	main, wts := linkedWorktrees(t, "w1:main", "w2:feature")
	s0, s1, s2 := open(t, main), open(t, wts[0]), open(t, wts[1])
	ctx := context.Background()
	l0 := edit(t, s0, "in-main", "a.txt", "one", "ONE")
	l1 := edit(t, s1, "in-w1", "a.txt", "two", "TWO")
	l2 := edit(t, s2, "in-w2", "a.txt", "three", "THREE")
	if l0.Ref != "refs/graft/main" || l1.Ref != "refs/graft-worktrees/w1/heads/main" || l2.Ref != "refs/graft-worktrees/w2/heads/feature" {
		t.Fatalf("refs %q %q %q", l0.Ref, l1.Ref, l2.Ref)
	}
	if l1.Snapshot != "" || l2.Snapshot != "" {
		t.Fatalf("an edit snapshots another worktree's work")
	}
	if _, err := s1.Undo(ctx, 1); err != nil {
		t.Fatalf("undo in w1: %v", err)
	}
	if got := readFile(t, main, "a.txt"); got != "ONE\ntwo\nthree\n" {
		t.Fatalf("main a.txt after undo in w1: %q", got)
	}
	// Landing in w2 lands w2's edit on feature, and nothing of main's.
	sq, err := s2.Squash(ctx, "land w2")
	if err != nil {
		t.Fatalf("land in w2: %v", err)
	}
	if sq.Branch != "refs/heads/feature" {
		t.Fatalf("landed on %s", sq.Branch)
	}
	if got := git(t, main, "show", "feature:a.txt"); got != "one\ntwo\nTHREE" {
		t.Fatalf("feature's a.txt: %q", got)
	}
	sq, err = s0.Squash(ctx, "land main")
	if err != nil {
		t.Fatalf("land in main: %v", err)
	}
	if got := git(t, main, "show", "main:a.txt"); got != "ONE\ntwo\nthree" {
		t.Fatalf("main's a.txt: %q", got)
	}
	fsck(t, main)
}

func TestRemovedWorktreeJournal(t *testing.T) {
	main, wts := linkedWorktrees(t, "w1", "w2")
	s1 := open(t, wts[0])
	edit(t, s1, "gone", "a.txt", "one", "ONE")
	edit(t, open(t, wts[1]), "kept", "a.txt", "one", "1")

	// git gc keeps the journals' objects: they are shared refs.
	git(t, main, "gc", "-q", "--prune=now")
	if got := historyTools(t, open(t, wts[1])); len(got) != 1 {
		t.Fatalf("w2 history after gc: %q", got)
	}

	// A worktree made again under the same name does not take the old
	// journal over.
	git(t, main, "worktree", "remove", "--force", wts[0])
	git(t, main, "worktree", "add", "-q", "--detach", wts[0])
	s1 = open(t, wts[0])
	if got := historyTools(t, s1); len(got) != 0 {
		t.Fatalf("new w1 inherits the old journal: %q", got)
	}
	if l := edit(t, s1, "new", "b.txt", "b", "B"); l.Snapshot != "" {
		t.Fatalf("new w1's first edit snapshots the old journal's files")
	}
	if got := historyTools(t, s1); strings.Join(got, ",") != "new:new: b.txt" {
		t.Fatalf("new w1 history: %q", got)
	}

	// A removed worktree's journal goes when a journal next starts.
	git(t, main, "worktree", "remove", "--force", wts[1])
	if got := git(t, main, "for-each-ref", "--format=%(refname)", WorktreeJournals+"w2/"); got == "" {
		t.Fatalf("w2's journal is gone before any pruning")
	}
	if err := os.RemoveAll(wts[0]); err != nil {
		t.Fatal(err)
	}
	git(t, main, "worktree", "prune")
	edit(t, open(t, main), "main", "a.txt", "one", "uno") // starts main's journal
	if got := git(t, main, "for-each-ref", "--format=%(refname)", WorktreeJournals); got != "" {
		t.Fatalf("removed worktrees' journals linger:\n%s", got)
	}
	fsck(t, main)
}
