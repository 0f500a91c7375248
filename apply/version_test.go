package apply_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
)

// readVersion reads path through file_read and returns the version.
func readVersion(t *testing.T, dir, path string) string {
	t.Helper()
	res, err := call(t, dir, "file_read", map[string]any{"path": path})
	if err != nil {
		t.Fatal(err)
	}
	return res.(*apply.FileReadResult).Version
}

func TestStaleVersionLineEditsCarried(t *testing.T) {
	dir := newRepo(t)
	name := filepath.Join(dir, "f.py")
	writeFile(t, name, []byte("a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n"))
	commitAll(t, dir)
	v := readVersion(t, dir, "f.py")

	// Something else edits the file above and below the agent's lines.
	writeFile(t, name, []byte("# header\n# more\na = 1\nb = 2\nc = 3\nd = 4\ne = 50\nf = 6\n"))

	// The agent's line numbers are from its read: line 3 was "c = 3".
	if _, err := call(t, dir, "edit_lines", map[string]any{"command": "replace", "path": "f.py",
		"start_line": 3, "new_content": "c = 30", "version": v}); err != nil {
		t.Fatal(err)
	}
	// The first call changed line 3 since v; this one uses v too: its
	// line 4 and its insertion point were untouched, so they are carried.
	if _, err := call(t, dir, "replace_in_file", map[string]any{"filePath": "f.py", "version": v,
		"replacements": []map[string]any{
			{"type": "insert_after", "lineNumber": 1, "insertText": "a2 = 1"},
			{"type": "lines", "startLine": 4, "endLine": 4, "replaceWith": "d = 40"},
		}}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(name)
	want := "# header\n# more\na = 1\na2 = 1\nb = 2\nc = 30\nd = 40\ne = 50\nf = 6\n"
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestStaleVersionTouchedLinesConflict(t *testing.T) {
	dir := newRepo(t)
	name := filepath.Join(dir, "f.txt")
	writeFile(t, name, []byte("one\ntwo\nthree\n"))
	commitAll(t, dir)
	v := readVersion(t, dir, "f.txt")
	writeFile(t, name, []byte("one\nTWO\nthree\n"))

	_, err := call(t, dir, "edit_lines", map[string]any{"command": "replace", "path": "f.txt",
		"start_line": 2, "end_line": 3, "new_content": "x", "version": v})
	if apply.CodeOf(err) != apply.CodeConflict {
		t.Fatalf("got %v, want a conflict", err)
	}
	for _, want := range []string{"lines 2-3 changed since version", "-two", "+TWO"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("conflict message lacks %q:\n%v", want, err)
		}
	}
	if got, _ := os.ReadFile(name); string(got) != "one\nTWO\nthree\n" {
		t.Fatalf("file changed: %q", got)
	}
}

func TestStaleVersionStringEdits(t *testing.T) {
	dir := newRepo(t)
	name := filepath.Join(dir, "f.txt")
	writeFile(t, name, []byte("alpha\nbeta\n"))
	commitAll(t, dir)
	v := readVersion(t, dir, "f.txt")
	writeFile(t, name, []byte("zero\nalpha\nbeta\n"))

	// Still unique: it lands.
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "f.txt", "oldString": "beta", "newString": "BETA", "version": v}); err != nil {
		t.Fatal(err)
	}
	// Gone since the read: a conflict showing what changed.
	writeFile(t, name, []byte("zero\nALPHA\nBETA\n"))
	_, err := call(t, dir, "edit_text_file", map[string]any{"path": "f.txt", "old_string": "alpha", "new_string": "a", "version": v})
	if apply.CodeOf(err) != apply.CodeConflict || !strings.Contains(err.Error(), "+ALPHA") {
		t.Fatalf("got %v, want a conflict with the diff", err)
	}
}
