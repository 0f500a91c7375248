package apply_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
)

// A file its owner cannot write is refused as permission denied by every
// tool that would change or delete it, dry run or not, naming the file
// and its mode, with nothing changed on disk. The check reads the mode
// bits: the tests may run as root, who could write the file anyway.
func TestReadOnlyFileRefused(t *testing.T) {
	calls := []struct {
		tool string
		args map[string]any
		verb string
	}{
		{"edit", map[string]any{"filePath": "ro.txt", "oldString": "two", "newString": "2"}, "edit"},
		{"edit", map[string]any{"filePath": "ro.txt", "oldString": "two", "newString": "2", "dry_run": true}, "edit"},
		{"edit_text_file", map[string]any{"path": "ro.txt", "old_string": "two", "new_string": "2"}, "edit"},
		{"replace_in_file", map[string]any{"filePath": "ro.txt", "replacements": []any{map[string]any{"type": "lines", "startLine": 1, "endLine": 1, "replaceWith": "1"}}}, "edit"},
		{"edit_lines", map[string]any{"command": "delete", "path": "ro.txt", "start_line": 2}, "edit"},
		{"multi_edit", map[string]any{"description": "d", "edits": []any{
			map[string]any{"file_path": "rw.txt", "old_string": "a", "new_string": "b"},
			map[string]any{"file_path": "ro.txt", "old_string": "two", "new_string": "2"}}}, "edit"},
		{"edit_file", map[string]any{"target_file": "ro.txt", "code_edit": "one\n2\nthree\n", "overwrite": true}, "edit"},
		{"apply_patch", map[string]any{"patch": "--- a/ro.txt\n+++ b/ro.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"}, "edit"},
		{"apply_patch", map[string]any{"patch": "*** Begin Patch\n*** Delete File: ro.txt\n*** End Patch\n"}, "delete"},
	}
	for _, c := range calls {
		t.Run(c.tool, func(t *testing.T) {
			dir := newRepo(t)
			ro, rw := filepath.Join(dir, "ro.txt"), filepath.Join(dir, "rw.txt")
			writeFile(t, ro, []byte("one\ntwo\nthree\n"))
			writeFile(t, rw, []byte("a\n"))
			commitAll(t, dir)
			if err := os.Chmod(ro, 0o444); err != nil {
				t.Fatal(err)
			}
			_, err := call(t, dir, c.tool, c.args)
			if apply.CodeOf(err) != apply.CodePermission {
				t.Fatalf("got %v, want a permission error", err)
			}
			want := "ro.txt: file is read-only (mode 0444): make it writable to " + c.verb + " it"
			if err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
			if b, _ := os.ReadFile(ro); string(b) != "one\ntwo\nthree\n" {
				t.Errorf("ro.txt changed: %q", b)
			}
			if fi, _ := os.Stat(ro); fi.Mode().Perm() != 0o444 {
				t.Errorf("ro.txt mode changed: %v", fi.Mode())
			}
			if b, _ := os.ReadFile(rw); string(b) != "a\n" {
				t.Errorf("rw.txt changed: %q", b)
			}
		})
	}
}

// Undo and redo write through the store, which refuses a read-only file
// too; new files in a writable directory are still created.
func TestReadOnlyUndoAndCreate(t *testing.T) {
	dir := newRepo(t)
	name := filepath.Join(dir, "a.txt")
	writeFile(t, name, []byte("a\n"))
	commitAll(t, dir)
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "a.txt", "oldString": "a", "newString": "b"}); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, 0o400); err != nil {
		t.Fatal(err)
	}
	_, err := call(t, dir, "undo", map[string]any{})
	if apply.CodeOf(err) != apply.CodePermission || !strings.Contains(err.Error(), "a.txt: file is read-only (mode 0400)") {
		t.Fatalf("undo: got %v, want a read-only refusal", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "b\n" {
		t.Errorf("a.txt changed: %q", b)
	}
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "new.txt", "oldString": "", "newString": "n\n"}); err != nil {
		t.Fatalf("creating a file: %v", err)
	}
	if err := os.Chmod(name, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, dir, "undo", map[string]any{"steps": 2}); err != nil {
		t.Fatalf("undo once writable: %v", err)
	}
}
