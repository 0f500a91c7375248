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

// The per-call limit counts the bytes a call changes, and a call changing
// one file is held only to the per-file limit: a file bigger than the
// per-call limit can be edited. Refusals name the limit and its flag.
func TestLimitsCountChangedBytes(t *testing.T) {
	dir := newRepo(t)
	big := strings.Repeat("line of text\n", 1000) // 13 KB
	writeFile(t, filepath.Join(dir, "big.txt"), []byte(big+"end\n"))
	writeFile(t, filepath.Join(dir, "a.txt"), []byte(strings.Repeat("a", 800)+"\n"))
	writeFile(t, filepath.Join(dir, "b.txt"), []byte(strings.Repeat("b", 800)+"\n"))
	commitAll(t, dir)
	e, err := apply.Open(apply.Options{Dir: dir, MaxCallBytes: 1 << 10, MaxFileBytes: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	run := func(tool string, args any) error {
		b, _ := json.Marshal(args)
		_, err := e.Call(context.Background(), tool, b)
		return err
	}
	if err := run("edit", map[string]any{"filePath": "big.txt", "oldString": "end", "newString": "END"}); err != nil {
		t.Fatalf("a one-line edit in a file over the per-call limit: %v", err)
	}
	err = run("multi_edit", map[string]any{"description": "both", "edits": []map[string]any{
		{"file_path": "a.txt", "old_string": strings.Repeat("a", 800), "new_string": strings.Repeat("A", 800)},
		{"file_path": "b.txt", "old_string": strings.Repeat("b", 800), "new_string": strings.Repeat("B", 800)},
	}})
	if apply.CodeOf(err) != apply.CodeTooLarge || !strings.Contains(err.Error(), "--max-call-size") {
		t.Fatalf("got %v, want too large naming --max-call-size", err)
	}
	writeFile(t, filepath.Join(dir, "huge.txt"), []byte(strings.Repeat("x", 70<<10)))
	err = run("file_read", map[string]any{"path": "huge.txt"})
	if apply.CodeOf(err) != apply.CodeTooLarge || !strings.Contains(err.Error(), "--max-file-size") || !strings.Contains(err.Error(), "64 KiB") {
		t.Fatalf("got %v, want too large naming --max-file-size and 64 KiB", err)
	}
}

// The per-file limit holds for what a call writes, not only for what it
// reads: a file created, grown by an edit, a regex or a patch past it is
// refused, dry run or not, and nothing changes on disk (issue 32 item 6).
func TestLimitsHoldForWrites(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "small.txt"), []byte("hello\n"))
	commitAll(t, dir)
	const limit = 64 << 10
	e, err := apply.Open(apply.Options{Dir: dir, MaxFileBytes: limit})
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("y", limit+10)
	var patch strings.Builder
	patch.WriteString("--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n")
	for range 2 {
		patch.WriteString("+" + strings.Repeat("p", limit/2) + "\n")
	}
	for _, c := range []struct {
		name, tool string
		args       map[string]any
	}{
		{"create", "edit", map[string]any{"filePath": "new.txt", "oldString": "", "newString": big}},
		{"edit", "edit", map[string]any{"filePath": "small.txt", "oldString": "hello", "newString": big}},
		{"dry run", "edit", map[string]any{"filePath": "small.txt", "oldString": "hello", "newString": big, "dry_run": true}},
		{"regex", "replace_in_file", map[string]any{"filePath": "small.txt", "replacements": []map[string]any{
			{"type": "regex", "searchFor": "l", "replaceWith": strings.Repeat("$&", limit/2)}}}},
		{"lines", "edit_lines", map[string]any{"command": "insert", "path": "small.txt", "insert_line": 0, "new_content": big}},
		{"patch", "apply_patch", map[string]any{"patch": patch.String()}},
	} {
		// Each case starts from the committed state, whatever the one
		// before it did.
		writeFile(t, filepath.Join(dir, "small.txt"), []byte("hello\n"))
		os.Remove(filepath.Join(dir, "new.txt"))
		b, _ := json.Marshal(c.args)
		_, err := e.Call(context.Background(), c.tool, b)
		if apply.CodeOf(err) != apply.CodeTooLarge || !strings.Contains(err.Error(), "--max-file-size") || !strings.Contains(err.Error(), "64 KiB") || !strings.Contains(err.Error(), "would be") {
			t.Errorf("%s: got %v, want too large naming --max-file-size and 64 KiB", c.name, err)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "small.txt")); string(got) != "hello\n" {
			t.Errorf("%s: small.txt changed to %d bytes", c.name, len(got))
		}
		if _, err := os.Stat(filepath.Join(dir, "new.txt")); err == nil {
			t.Errorf("%s: new.txt was created", c.name)
		}
	}
}
