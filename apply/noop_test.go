package apply_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/graftdev/graft/apply"
)

// A no-op member of a batch (old text found, new text identical) is
// reported and the rest lands; a batch of only no-ops is refused as one
// no-op is; a no-op whose old text is not there is "not found".
func TestBatchNoOps(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "a.txt"), []byte("one\ntwo\nthree\n"))
	commitAll(t, dir)
	read := func() string { b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); return string(b) }

	res, err := call(t, dir, "multi_edit", map[string]any{"description": "d", "edits": []map[string]any{
		{"file_path": "a.txt", "old_string": "one", "new_string": "1"},
		{"file_path": "a.txt", "old_string": "two", "new_string": "two"},
	}})
	if err != nil {
		t.Fatalf("multi_edit with a no-op: %v", err)
	}
	r := res.(*apply.MultiEditResult)
	if read() != "1\ntwo\nthree\n" || !r.Success || r.Results[1].Note != "unchanged: old and new are identical" || !r.Results[1].Success ||
		len(r.Unchanged) != 1 || r.Unchanged[0].Edit != "edits[1]" || r.Unchanged[0].Line != 2 {
		t.Fatalf("file %q, result %+v", read(), r)
	}

	res, err = call(t, dir, "replace_in_file", map[string]any{"filePath": "a.txt", "replacements": []map[string]any{
		{"type": "string", "searchFor": "three", "replaceWith": "three"},
		{"type": "string", "searchFor": "1", "replaceWith": "one"},
	}})
	if err != nil {
		t.Fatalf("replace_in_file with a no-op: %v", err)
	}
	if l := res.(*apply.Landing); read() != "one\ntwo\nthree\n" || len(l.Unchanged) != 1 || l.Unchanged[0].Edit != "replacements[0]" {
		t.Fatalf("file %q, result %+v", read(), l)
	}

	for name, args := range map[string]struct {
		tool string
		args map[string]any
		code apply.Code
	}{
		"only no-ops": {"multi_edit", map[string]any{"description": "d", "edits": []map[string]any{
			{"file_path": "a.txt", "old_string": "two", "new_string": "two"}}}, apply.CodeInvalid},
		"only no-ops (replace_in_file)": {"replace_in_file", map[string]any{"filePath": "a.txt", "replacements": []map[string]any{
			{"type": "string", "searchFor": "two", "replaceWith": "two"}}}, apply.CodeInvalid},
		"no-op not found": {"multi_edit", map[string]any{"description": "d", "edits": []map[string]any{
			{"file_path": "a.txt", "old_string": "one", "new_string": "1"},
			{"file_path": "a.txt", "old_string": "absent", "new_string": "absent"}}}, apply.CodeTextNotFound},
		"no-op not found (replace_in_file)": {"replace_in_file", map[string]any{"filePath": "a.txt", "replacements": []map[string]any{
			{"type": "string", "searchFor": "one", "replaceWith": "1"},
			{"type": "string", "searchFor": "absent", "replaceWith": "absent"}}}, apply.CodeTextNotFound},
		"lone edit no-op": {"edit", map[string]any{"filePath": "a.txt", "oldString": "two", "newString": "two"}, apply.CodeInvalid},
	} {
		_, err := call(t, dir, args.tool, args.args)
		if apply.CodeOf(err) != args.code {
			t.Errorf("%s: err %v (code %d), want code %d", name, err, apply.CodeOf(err), args.code)
		}
		if read() != "one\ntwo\nthree\n" {
			t.Fatalf("%s: file changed: %q", name, read())
		}
	}
}
