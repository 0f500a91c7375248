package apply_test

import (
	"context"
	"encoding/json"
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
