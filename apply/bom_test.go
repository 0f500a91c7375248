package apply_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A UTF-8 byte order mark belongs to the file, not to its first line:
// reads do not show it, no old text or patch line must carry it, and no
// tool moves it or drops it, whichever touches line 1.
func TestBOMKeptByEveryTool(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	const base = bom + "first line\nsecond line\n"
	patch := "--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n-first line\n+FIRST\n second line\n"
	for _, tc := range []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"edit_lines insert 0", "edit_lines", map[string]any{"command": "insert", "path": "b.txt", "insert_line": 0, "new_content": "ZERO"}, bom + "ZERO\nfirst line\nsecond line\n"},
		{"edit_lines replace 1", "edit_lines", map[string]any{"command": "replace", "path": "b.txt", "start_line": 1, "new_content": "ONE"}, bom + "ONE\nsecond line\n"},
		{"edit_lines delete 1", "edit_lines", map[string]any{"command": "delete", "path": "b.txt", "start_line": 1}, bom + "second line\n"},
		{"replace_in_file lines 1", "replace_in_file", map[string]any{"filePath": "b.txt", "replacements": []any{map[string]any{"type": "lines", "startLine": 1, "endLine": 1, "replaceWith": "ONE"}}}, bom + "ONE\nsecond line\n"},
		{"replace_in_file insert_before 1", "replace_in_file", map[string]any{"filePath": "b.txt", "replacements": []any{map[string]any{"type": "insert_before", "lineNumber": 1, "insertText": "ZERO"}}}, bom + "ZERO\nfirst line\nsecond line\n"},
		{"edit of line 1", "edit", map[string]any{"filePath": "b.txt", "oldString": "first line", "newString": "FIRST"}, bom + "FIRST\nsecond line\n"},
		{"edit_file overwrite", "edit_file", map[string]any{"target_file": "b.txt", "code_edit": "whole\nnew\n", "overwrite": true}, bom + "whole\nnew\n"},
		{"edit_file overwrite sent with its mark", "edit_file", map[string]any{"target_file": "b.txt", "code_edit": bom + "whole\n", "overwrite": true}, bom + "whole\n"},
		{"apply_patch of line 1 without the mark", "apply_patch", map[string]any{"patch": patch}, bom + "FIRST\nsecond line\n"},
		{"multi_edit of line 1 twice", "multi_edit", map[string]any{"description": "d", "edits": []any{
			map[string]any{"file_path": "b.txt", "old_string": "first line", "new_string": "1st"},
			map[string]any{"file_path": "b.txt", "old_string": "1st", "new_string": "one"}}}, bom + "one\nsecond line\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			writeFile(t, filepath.Join(dir, "b.txt"), []byte(base))
			commitAll(t, dir)
			if _, err := call(t, dir, tc.tool, tc.args); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(filepath.Join(dir, "b.txt"))
			if string(got) != tc.want {
				t.Fatalf("file is %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("file_read", func(t *testing.T) {
		dir := newRepo(t)
		writeFile(t, filepath.Join(dir, "b.txt"), []byte(base))
		commitAll(t, dir)
		res, err := call(t, dir, "file_read", map[string]any{"path": "b.txt"})
		if err != nil {
			t.Fatal(err)
		}
		if s := toJSON(t, res); strings.Contains(s, "\\ufeff") || !strings.Contains(s, "1: first line") {
			t.Fatalf("file_read shows the mark or not line 1: %s", s)
		}
	})
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
