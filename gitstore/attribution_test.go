package gitstore

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// as lands an edit in the name of agent (session ses).
func as(t *testing.T, s *Store, agent, ses string, pairs ...string) Landed {
	t.Helper()
	var changes []Change
	for i := 0; i+2 < len(pairs)+1; i += 3 {
		name, old, nw := pairs[i], pairs[i+1], pairs[i+2]
		cur := readFile(t, s.Root(), name)
		if !strings.Contains(cur, old) {
			t.Fatalf("%s does not contain %q", name, old)
		}
		changes = append(changes, Change{Path: name, Old: []byte(cur), New: []byte(strings.Replace(cur, old, nw, 1))})
	}
	l, err := s.Land(WithAttribution(context.Background(), Attribution{Agent: agent, Session: ses}), Call{Tool: "edit"}, changes)
	if err != nil {
		t.Fatalf("Land: %v", err)
	}
	return l
}

func TestAttributionTrailers(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	s := open(t, dir)
	l := as(t, s, AgentName("claude\ncode", "1.2\x00"), " s-1\t\r\n", "a.txt", "a", "A")
	msg := git(t, dir, "log", "-1", "--format=%B", l.Commit)
	if !strings.HasSuffix(msg, "\nGraft-Agent: claude code/1.2\nGraft-Session: s-1") {
		t.Fatalf("message:\n%s", msg)
	}
	// git reads them as trailers.
	if got := git(t, dir, "log", "-1", "--format=%(trailers:key=Graft-Agent,valueonly)", l.Commit); got != "claude code/1.2" {
		t.Fatalf("git's trailer: %q", got)
	}
	h, err := s.History(1)
	if err != nil || h[0].Agent != "claude code/1.2" || h[0].Session != "s-1" {
		t.Fatalf("history: %+v %v", h, err)
	}
	// Without an attribution, no trailer; undo names who asked.
	l2 := edit(t, s, "edit", "a.txt", "A", "B")
	if msg := git(t, dir, "log", "-1", "--format=%B", l2.Commit); strings.Contains(msg, "Graft-Agent") || strings.Contains(msg, "Graft-Session") {
		t.Fatalf("unattributed message:\n%s", msg)
	}
	r, err := s.UndoIn(WithAttribution(ctx, Attribution{Agent: "cli-user"}), Scope{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if msg := git(t, dir, "log", "-1", "--format=%B", r.Commit); !strings.Contains(msg, "Graft-Agent: cli-user") {
		t.Fatalf("undo message:\n%s", msg)
	}
}

func TestSanitizeTrailer(t *testing.T) {
	for in, want := range map[string]string{
		"":                       "",
		"  x  ":                  "x",
		"a\nGraft-Undo: 1234":    "a Graft-Undo: 1234",
		"a\u2028b\x1b[31m":       "a b [31m",
		strings.Repeat("é", 150): strings.Repeat("é", 100),
	} {
		if got := SanitizeTrailer(in); got != want {
			t.Errorf("SanitizeTrailer(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		agent, want string
		ok          bool
	}{{"claude-code/1.2", "claude-code", true}, {"claude-code/1.2", "claude-code/1.2", true}, {"claude-code/1.2", "claude-code/1.3", false},
		{"claude-codex/1", "claude-code", false}, {"", "x", false}, {"x", "", false}} {
		if MatchAgent(c.agent, c.want) != c.ok {
			t.Errorf("MatchAgent(%q, %q) = %v", c.agent, c.want, !c.ok)
		}
	}
}

// Two agents edit in turn; each one's undo takes its own last edit and
// leaves the other's later edits in place; redo follows the same scope.
func TestScopedUndoRedo(t *testing.T) {
	dir := newRepo(t, map[string]string{"shared.txt": "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "a.txt": "a\n", "b.txt": "b\n"})
	s := open(t, dir)
	a1 := as(t, s, "alpha/1.0", "sa", "shared.txt", "2\n", "two\n")
	as(t, s, "beta/2.0", "sb", "shared.txt", "8\n", "eight\n")
	a2 := as(t, s, "alpha/1.1", "sa2", "a.txt", "a", "A")
	b2 := as(t, s, "beta/2.0", "sb", "b.txt", "b", "B")

	// alpha's last is a2 though b2 came after it.
	r, err := s.UndoIn(ctx, Scope{Agent: "alpha"}, 1)
	if err != nil || len(r.Entries) != 1 || r.Entries[0] != a2.Commit {
		t.Fatalf("undo alpha: %v %v", r.Entries, err)
	}
	if readFile(t, dir, "a.txt") != "a\n" || readFile(t, dir, "b.txt") != "B\n" {
		t.Fatal("alpha's undo touched beta's file or missed its own")
	}
	// Next alpha (any version) is a1, merged under beta's later edit of
	// the same file.
	if r, err = s.UndoIn(ctx, Scope{Agent: "alpha"}, 1); err != nil || r.Entries[0] != a1.Commit {
		t.Fatalf("undo alpha again: %v %v", r.Entries, err)
	}
	if got := readFile(t, dir, "shared.txt"); got != "1\n2\n3\n4\n5\n6\n7\neight\n9\n" {
		t.Fatalf("shared.txt:\n%s", got)
	}
	_, err = s.UndoIn(ctx, Scope{Agent: "alpha"}, 1)
	if !errors.Is(err, ErrNothingToUndo) || !strings.Contains(err.Error(), "agent alpha") {
		t.Fatalf("third alpha undo: %v", err)
	}
	// beta's stack is whole: its last edit is b2; its redo stack empty.
	if e, err := s.LastOf(Scope{Agent: "beta"}, ""); err != nil || e.ID != b2.Commit {
		t.Fatalf("beta's last: %v %v", e.ID, err)
	}
	if _, err := s.RedoIn(ctx, Scope{Agent: "beta"}, 1); !errors.Is(err, ErrNothingToRedo) {
		t.Fatalf("beta redo: %v", err)
	}
	// A beta edit does not clear what alpha can redo.
	as(t, s, "beta/2.0", "sb", "b.txt", "B", "BB")
	if r, err = s.RedoIn(ctx, Scope{Agent: "alpha"}, 2); err != nil || len(r.Entries) != 2 || r.Entries[0] != a1.Commit {
		t.Fatalf("redo alpha: %v %v", r.Entries, err)
	}
	if readFile(t, dir, "a.txt") != "A\n" || !strings.HasPrefix(readFile(t, dir, "shared.txt"), "1\ntwo\n") {
		t.Fatal("alpha's redo")
	}
	// A session narrows: alpha's session sa holds only a1.
	if e, err := s.LastOf(Scope{Agent: "alpha", Session: "sa"}, ""); err != nil || e.ID != a1.Commit {
		t.Fatalf("alpha in sa: %v %v", e.ID, err)
	}
	if h, err := s.HistoryIn(Scope{Session: "sa2"}, 0); err != nil || len(h) != 1 || h[0].ID != a2.Commit {
		t.Fatalf("history of sa2: %+v %v", h, err)
	}
	// Everyone's stack is today's: the last edit of anyone.
	if e, err := s.NextUndo(); err != nil || e.Agent != "alpha/1.1" {
		t.Fatalf("next undo: %+v %v", e, err)
	}
	fsck(t, dir)
}

// An agent's undo whose lines another agent changed since is refused
// with the diff of what changed and who changed it; nothing is written.
func TestScopedUndoOverlapRefused(t *testing.T) {
	dir := newRepo(t, map[string]string{"f.txt": "1\n2\n3\n"})
	s := open(t, dir)
	as(t, s, "alpha", "", "f.txt", "2\n", "two\n")
	b := as(t, s, "beta", "", "f.txt", "two\n", "TWO\n")
	_, err := s.UndoIn(ctx, Scope{Agent: "alpha"}, 1)
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("want a conflict, got %v", err)
	}
	for _, want := range []string{"f.txt: cannot undo", b.Commit[:12], "by beta", "-two", "+TWO"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal lacks %q:\n%v", want, err)
		}
	}
	if readFile(t, dir, "f.txt") != "1\nTWO\n3\n" {
		t.Fatal("the file changed")
	}
	if _, err := s.DiffIn(Scope{Agent: "alpha"}); !errors.Is(err, ErrConflict) {
		t.Fatalf("diff of alpha: %v", err)
	}
}

func TestDiffIn(t *testing.T) {
	dir := newRepo(t, map[string]string{"f.txt": "1\n2\n3\n4\n5\n6\n7\n8\n9\n"})
	s := open(t, dir)
	as(t, s, "alpha", "", "f.txt", "2\n", "two\n")
	as(t, s, "beta", "", "f.txt", "8\n", "eight\n")
	if _, err := s.Land(WithAttribution(ctx, Attribution{Agent: "alpha"}), Call{Tool: "edit"}, []Change{{Path: "n2.txt", New: []byte("new\n")}}); err != nil {
		t.Fatal(err)
	}
	d, err := s.DiffIn(Scope{Agent: "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"+two", "-2", "diff --git a/n2.txt b/n2.txt\nnew file mode 100644", "+new"} {
		if !strings.Contains(d, want) {
			t.Errorf("alpha's diff lacks %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "eight") {
		t.Errorf("alpha's diff shows beta's edit:\n%s", d)
	}
	d, err = s.DiffIn(Scope{Agent: "beta"})
	if err != nil || !strings.Contains(d, "+eight") || strings.Contains(d, "two") || strings.Contains(d, "n2.txt") {
		t.Fatalf("beta's diff (%v):\n%s", err, d)
	}
	if d, err := s.DiffIn(Scope{Agent: "gamma"}); err != nil || d != "" {
		t.Fatalf("gamma's diff: %q %v", d, err)
	}
}

func TestLandTrailers(t *testing.T) {
	dir := newRepo(t, map[string]string{"f.txt": "1\n2\n3\n"})
	git(t, dir, "config", "--add", "graft.trailer", "Assisted-by: {agent}")
	git(t, dir, "config", "--add", "graft.trailer", "Reviewed-needed: yes")
	s, err := OpenWith(dir, OpenOptions{Trailers: []string{"Co-authored-by: {agent} <agent@example.com>"}})
	if err != nil {
		t.Fatal(err)
	}
	as(t, s, "alpha/1", "", "f.txt", "1\n", "one\n")
	as(t, s, "beta/2", "", "f.txt", "2\n", "two\n")
	as(t, s, "alpha/1", "", "f.txt", "3\n", "three\n")
	// gamma's only edit is undone: gamma lands nothing.
	as(t, s, "gamma/3", "", "f.txt", "one\n", "ONE\n")
	if _, err := s.UndoIn(ctx, Scope{Agent: "gamma"}, 1); err != nil {
		t.Fatal(err)
	}
	sq, err := s.Squash(ctx, "land it")
	if err != nil {
		t.Fatal(err)
	}
	msg := git(t, dir, "log", "-1", "--format=%B", sq.Commit)
	want := "land it\n\nCo-authored-by: alpha/1 <agent@example.com>\nCo-authored-by: beta/2 <agent@example.com>\nAssisted-by: alpha/1\nAssisted-by: beta/2\nReviewed-needed: yes"
	if msg != want {
		t.Fatalf("landed message:\n%s\nwant:\n%s", msg, want)
	}
	// Off unless asked for: no trailer, and no Graft-* trailer on the branch.
	dir2 := newRepo(t, map[string]string{"f.txt": "1\n"})
	s2 := open(t, dir2)
	as(t, s2, "alpha/1", "", "f.txt", "1", "one")
	sq, err = s2.Squash(ctx, "plain")
	if err != nil {
		t.Fatal(err)
	}
	if msg := git(t, dir2, "log", "-1", "--format=%B", sq.Commit); msg != "plain" {
		t.Fatalf("landed message: %q", msg)
	}
}

func TestBranchModeTrailers(t *testing.T) {
	dir := newRepo(t, map[string]string{"f.txt": "1\n"})
	s, err := OpenWith(dir, OpenOptions{Mode: ModeCommit, Trailers: []string{"Assisted-by: {agent}", "not a trailer"}})
	if err != nil {
		t.Fatal(err)
	}
	l := as(t, s, "alpha/1", "s", "f.txt", "1", "one")
	msg := git(t, dir, "log", "-1", "--format=%B", l.Commit)
	if !strings.HasSuffix(msg, "\nAssisted-by: alpha/1") || strings.Contains(msg, "Graft-Agent") || strings.Contains(msg, "Graft-Session") || strings.Contains(msg, "not a trailer") {
		t.Fatalf("branch commit:\n%s", msg)
	}
	// No agent: the {agent} line is left out.
	l = edit(t, s, "edit", "f.txt", "one", "two")
	if msg := git(t, dir, "log", "-1", "--format=%B", l.Commit); strings.Contains(msg, "Assisted-by") {
		t.Fatalf("branch commit without agent:\n%s", msg)
	}
}

func TestUndoCountMessage(t *testing.T) {
	dir := newRepo(t, map[string]string{"f.txt": "1\n2\n"})
	s := open(t, dir)
	edit(t, s, "edit", "f.txt", "1", "one")
	edit(t, s, "edit", "f.txt", "2", "two")
	_, err := s.Undo(ctx, 5)
	if !errors.Is(err, ErrNothingToUndo) || err.Error() != "only 2 edits can be undone, not 5" {
		t.Fatalf("undo 5: %v", err)
	}
}

// The carry commit a call writes names who made that call.
func TestCarryNamesCaller(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n", "other.txt": "o\n"})
	s := open(t, dir)
	as(t, s, "alpha/1", "s1", "a.txt", "a", "A")
	writeFile(t, dir, "other.txt", "o by the user\n")
	git(t, dir, "commit", "-q", "-m", "user", "other.txt")
	l := as(t, s, "beta/2", "s2", "a.txt", "A", "AA")
	carry := git(t, dir, "log", "-1", "--format=%B", l.Commit+"^")
	if !strings.Contains(carry, "Graft-Tool: carry") || !strings.Contains(carry, "Graft-Agent: beta/2\nGraft-Session: s2") {
		t.Fatalf("carry commit:\n%s", carry)
	}
	// A carry is no one's edit: beta's stack holds its edit only.
	if h, err := s.HistoryIn(Scope{Agent: "beta"}, 0); err != nil || len(h) != 2 {
		t.Fatalf("beta's history: %+v %v", h, err)
	}
	if r, err := s.UndoIn(ctx, Scope{Agent: "beta"}, 2); !errors.Is(err, ErrNothingToUndo) {
		t.Fatalf("undo 2 of beta: %+v %v", r, err)
	}
}
