package apply_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/gitstore"
)

// The journal tools take the calling agent's scope from the call's
// context: undo and undo_edit reverse that agent's own edits, leaving
// another's later ones in place; agent "*" is everyone's.
func TestUndoByCallingAgent(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "f.txt"), []byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n"))
	writeFile(t, filepath.Join(dir, "g.txt"), []byte("g\n"))
	commitAll(t, dir)
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	as := func(agent string) context.Context {
		return gitstore.WithAttribution(context.Background(), gitstore.Attribution{Agent: agent + "/1.0", Name: agent, Session: agent + "-s"})
	}
	run := func(ctx context.Context, tool string, args any) (any, error) {
		t.Helper()
		b, _ := json.Marshal(args)
		return e.Call(ctx, tool, b)
	}
	edit := func(ctx context.Context, path, old, new string) {
		t.Helper()
		if _, err := run(ctx, "edit", map[string]any{"filePath": path, "oldString": old, "newString": new}); err != nil {
			t.Fatal(err)
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	alpha, beta := as("alpha"), as("beta")
	edit(alpha, "f.txt", "2\n", "two\n")
	edit(beta, "f.txt", "8\n", "eight\n")
	// alpha's undo_edit of f.txt takes alpha's edit, under beta's.
	if _, err := run(alpha, "str_replace_editor", map[string]any{"command": "undo_edit", "path": "f.txt"}); err != nil {
		t.Fatal(err)
	}
	if got := read("f.txt"); got != "1\n2\n3\n4\n5\n6\n7\neight\n9\n" {
		t.Fatalf("f.txt after alpha's undo_edit:\n%s", got)
	}
	// An edit of two files is refused by undo_edit, naming the other.
	if _, err := run(beta, "apply_patch", map[string]any{"patch": "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-1\n+one\n 2\n--- a/g.txt\n+++ b/g.txt\n@@ -1 +1 @@\n-g\n+G\n"}); err != nil {
		t.Fatal(err)
	}
	if _, err := run(beta, "str_replace_editor", map[string]any{"command": "undo_edit", "path": "f.txt"}); apply.CodeOf(err) != apply.CodeInvalid || !strings.Contains(err.Error(), "also changed g.txt") {
		t.Fatalf("undo_edit of a two-file edit: %v", err)
	}
	// The undo tool defaults to the caller: alpha has nothing left.
	if _, err := run(alpha, "undo", map[string]any{}); !errors.Is(err, gitstore.ErrNothingToUndo) || !strings.Contains(err.Error(), "agent alpha") {
		t.Fatalf("alpha's undo: %v", err)
	}
	// beta's undo takes its patch; history filters by agent.
	res, err := run(beta, "undo", map[string]any{})
	if err != nil || res.(*apply.UndoResult).Scope != "agent beta" {
		t.Fatalf("beta's undo: %+v %v", res, err)
	}
	h, err := run(context.Background(), "history", map[string]any{"agent": "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range h.(*apply.HistoryResult).Entries {
		if en.Agent != "alpha/1.0" {
			t.Fatalf("alpha's history holds %+v", en)
		}
	}
	if n := len(h.(*apply.HistoryResult).Entries); n != 2 {
		t.Fatalf("alpha's history: %d entries", n)
	}
	// "*" reaches everyone's: the last edit not undone is beta's 8.
	if _, err := run(alpha, "undo", map[string]any{"agent": "*"}); err != nil {
		t.Fatal(err)
	}
	if got := read("f.txt"); got != "1\n2\n3\n4\n5\n6\n7\n8\n9\n" {
		t.Fatalf("f.txt after everyone's undo:\n%s", got)
	}
	// diff takes an id or a scope, not both.
	if _, err := run(alpha, "diff", map[string]any{"id": "abcd", "agent": "alpha"}); apply.CodeOf(err) != apply.CodeInvalid {
		t.Fatalf("diff with id and agent: %v", err)
	}
}

// A message of the repository side never shows its package's prefix,
// also where it is wrapped into another message.
func TestStoreErrorHidesPackagePrefix(t *testing.T) {
	err := apply.StoreError(fmt.Errorf("f.txt: cannot undo 1234: %w", fmt.Errorf("gitstore: blob 12: %w", gitstore.ErrConflict)))
	if strings.Contains(err.Error(), "gitstore:") {
		t.Fatalf("message: %v", err)
	}
}

// A caller that gives no agent name undoes its own session's edits.
func TestUndoNamelessCallerTakesItsSession(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "f.txt"), []byte("1\na\nb\nc\n2\n"))
	commitAll(t, dir)
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	run := func(ctx context.Context, tool string, args any) error {
		b, _ := json.Marshal(args)
		_, err := e.Call(ctx, tool, b)
		return err
	}
	s1 := gitstore.WithAttribution(context.Background(), gitstore.Attribution{Session: "s1"})
	s2 := gitstore.WithAttribution(context.Background(), gitstore.Attribution{Session: "s2"})
	if err := run(s1, "edit", map[string]any{"filePath": "f.txt", "oldString": "1\n", "newString": "one\n"}); err != nil {
		t.Fatal(err)
	}
	if err := run(s2, "edit", map[string]any{"filePath": "f.txt", "oldString": "2\n", "newString": "two\n"}); err != nil {
		t.Fatal(err)
	}
	if err := run(s1, "undo", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f.txt")); string(b) != "1\na\nb\nc\ntwo\n" {
		t.Fatalf("f.txt: %q", b)
	}
}
