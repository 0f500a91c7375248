package apply_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
)

func call(t *testing.T, dir, tool string, args any) (any, error) {
	t.Helper()
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(args)
	return e.Call(context.Background(), tool, b)
}

func TestSymlinkOutsideRefused(t *testing.T) {
	dir := newRepo(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	writeFile(t, outside, []byte("secret\n"))
	if err := os.Symlink(outside, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	commitAll(t, dir)
	_, err := call(t, dir, "edit", map[string]any{"filePath": "link.txt", "oldString": "secret", "newString": "x"})
	if apply.CodeOf(err) != apply.CodePermission {
		t.Fatalf("got %v, want a permission error", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "secret\n" {
		t.Fatalf("outside file changed: %q", b)
	}
}

func TestSymlinkInsideFollowed(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "real.txt"), []byte("a\n"))
	if err := os.Symlink("real.txt", filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	commitAll(t, dir)
	res, err := call(t, dir, "edit", map[string]any{"filePath": "link.txt", "oldString": "a", "newString": "b"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.(*apply.Landing).Files[0].Path; got != "real.txt" {
		t.Errorf("result path %q, want real.txt", got)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "link.txt")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink itself was replaced")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "real.txt")); string(b) != "b\n" {
		t.Errorf("real.txt = %q", b)
	}
}

func TestExecutableBitKept(t *testing.T) {
	dir := newRepo(t)
	name := filepath.Join(dir, "run.sh")
	writeFile(t, name, []byte("#!/bin/sh\necho a\n"))
	if err := os.Chmod(name, 0o755); err != nil {
		t.Fatal(err)
	}
	commitAll(t, dir)
	if _, err := call(t, dir, "edit_lines", map[string]any{"command": "replace", "path": "run.sh", "start_line": 2, "new_content": "echo b"}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o755 {
		t.Fatalf("mode %v, want 0755", fi.Mode().Perm())
	}
}

func TestTooLarge(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "big.txt"), make([]byte, 2048))
	commitAll(t, dir)
	e, err := apply.Open(apply.Options{Dir: dir, MaxFileBytes: 1024})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Call(context.Background(), "file_read", json.RawMessage(`{"path":"big.txt"}`))
	if apply.CodeOf(err) != apply.CodeTooLarge {
		t.Fatalf("got %v, want too large", err)
	}
}

func TestFileReadVersionAndRange(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "f.txt"), []byte("a\r\nb\nc"))
	commitAll(t, dir)
	res, err := call(t, dir, "file_read", map[string]any{"path": "f.txt", "start_line": 2, "end_line": 9})
	if err != nil {
		t.Fatal(err)
	}
	r := res.(*apply.FileReadResult)
	want := apply.FileReadResult{Path: "f.txt", Content: "2: b\n3: c\n", StartLine: 2, EndLine: 3, TotalLines: 3,
		Version: strings.TrimSpace(git(t, dir, "hash-object", "f.txt")), LineEndings: "mixed", FinalNewline: false}
	if *r != want {
		t.Fatalf("got %+v\nwant %+v", *r, want)
	}
}

func TestToolsHaveSchemas(t *testing.T) {
	for _, name := range []string{"file_read", "edit", "edit_text_file", "replace_in_file", "edit_lines",
		"multi_edit", "edit_file", "apply_patch", "undo", "redo", "history", "diff"} {
		if apply.Lookup(name) == nil {
			t.Errorf("tool %s not registered", name)
		}
	}
	for _, tl := range apply.Tools() { // building a schema panics if a type cannot have one
		if tl.InputSchema() == nil || tl.OutputSchema() == nil || tl.Description == "" {
			t.Errorf("tool %s lacks a schema or description", tl.Name)
		}
	}
}

func TestCheckWarnLandsAndReports(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "a.json"), []byte("{\"a\": 1}\n"))
	commitAll(t, dir)
	e, err := apply.Open(apply.Options{Dir: dir, Check: apply.CheckWarn})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Call(context.Background(), "edit", json.RawMessage(`{"filePath":"a.json","oldString":"1}","newString":"1,}"}`))
	if err != nil {
		t.Fatal(err)
	}
	f := res.(*apply.Landing).Files[0]
	if f.Syntax == nil || f.Syntax.AddedCount != 1 || f.Syntax.Added[0].Line != 1 {
		t.Fatalf("want a reported syntax error on line 1, got %+v", f.Syntax)
	}
	e, _ = apply.Open(apply.Options{Dir: dir, Check: apply.CheckOff})
	if _, err := e.Call(context.Background(), "edit", json.RawMessage(`{"filePath":"a.json","oldString":"1,}","newString":"1,,}"}`)); err != nil {
		t.Fatalf("--check=off refused: %v", err)
	}
}

func TestPatchModeOnly(t *testing.T) {
	dir := newRepo(t)
	name := filepath.Join(dir, "run.sh")
	writeFile(t, name, []byte("echo hi\n"))
	commitAll(t, dir)
	p := "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"
	res, err := call(t, dir, "apply_patch", map[string]any{"patch": p})
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o755 {
		t.Fatalf("mode %v, want 0755", fi.Mode().Perm())
	}
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), `old mode 100644\nnew mode 100755`) {
		t.Errorf("result does not show the mode change: %s", b)
	}
}
