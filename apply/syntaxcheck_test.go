package apply_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
)

// An edit to a file the checker cannot parse before (a header full of
// calling-convention macros) lands, with the diagnostics, saying so.
func TestSyntaxUnparsedFileLands(t *testing.T) {
	dir := newRepo(t)
	hdr := "struct io_methods {\n  int iVersion;\n  int (SQLITE_CDECL *xClose)(sqlite3_file*);\n  int (SQLITE_CDECL *xWrite)(sqlite3_file*, const void*, int iAmt);\n};\nint SQLITE_STDCALL sqlite3_close(sqlite3*);\n"
	writeFile(t, filepath.Join(dir, "sqlite3.h"), []byte(hdr))
	commitAll(t, dir)
	res, err := call(t, dir, "edit", map[string]any{"filePath": "sqlite3.h",
		"oldString": "  int (SQLITE_CDECL *xWrite)", "newString": "  int (SQLITE_CDECL *xTruncate)(sqlite3_file*, sqlite3_int64 size);\n  int (SQLITE_CDECL *xWrite)"})
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	rep := res.(*apply.Landing).Files[0].Syntax
	t.Logf("%+v", rep)
	if rep != nil && rep.Checked && rep.AddedCount > 0 && !rep.Unparsed {
		t.Fatalf("added errors reported without saying the file did not parse before: %+v", rep)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "sqlite3.h"))
	if !strings.Contains(string(got), "xTruncate") {
		t.Fatalf("not landed:\n%s", got)
	}
}

// One part of a change that opens a brace another part closes is refused
// in a file that parsed cleanly, with a hint to send both parts at once;
// sent together, they land.
func TestSyntaxSplitChangeRefused(t *testing.T) {
	dir := newRepo(t)
	src := "package p\n\nfunc f(x bool) int {\n\treturn 1\n}\n\nfunc g() int {\n\treturn 2\n}\n"
	writeFile(t, filepath.Join(dir, "p.go"), []byte(src))
	commitAll(t, dir)
	_, err := call(t, dir, "edit", map[string]any{"filePath": "p.go", "oldString": "\treturn 1\n", "newString": "\tif x {\n\t\treturn 1\n"})
	if apply.CodeOf(err) != apply.CodeSyntax {
		t.Fatalf("got %v, want a syntax refusal", err)
	}
	if !strings.Contains(err.Error(), "multi_edit") {
		t.Fatalf("the refusal does not say to send both parts in one call: %v", err)
	}
	if _, err := call(t, dir, "multi_edit", map[string]any{"description": "guard", "edits": []map[string]any{
		{"file_path": "p.go", "old_string": "\treturn 1\n", "new_string": "\tif x {\n\t\treturn 1\n"},
		{"file_path": "p.go", "old_string": "\t\treturn 1\n}\n", "new_string": "\t\treturn 1\n\t}\n\treturn 0\n}\n"},
	}}); err != nil {
		t.Fatalf("both parts together refused: %v", err)
	}
}

// A calling-convention macro added inside a declarator of a header that
// parsed cleanly (valid C once the preprocessor has run) lands through
// every format, the report naming the macro; a broken edit of the same
// header is still refused.
func TestSyntaxMacroAddedLands(t *testing.T) {
	hdr := "#ifndef LIB_H\n#define LIB_H\n\nstruct lib_config {\n  int bMemstat;\n  int szLookaside;\n};\n\nint lib_open(const char *name);\n\n#endif\n"
	line := "  void (SQLITE_CDECL*log)(int,const char*,...);\n"
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"edit", map[string]any{"filePath": "lib.h", "oldString": "  int szLookaside;\n", "newString": "  int szLookaside;\n" + line}},
		{"apply_patch", map[string]any{"patch": "--- a/lib.h\n+++ b/lib.h\n@@ -5,2 +5,3 @@\n   int szLookaside;\n+" + line[:len(line)-1] + "\n };\n"}},
		{"edit_file", map[string]any{"target_file": "lib.h", "code_edit": "// ... existing code ...\n  int szLookaside;\n" + line + "};\n// ... existing code ...\n"}},
	} {
		t.Run(c.tool, func(t *testing.T) {
			dir := newRepo(t)
			writeFile(t, filepath.Join(dir, "lib.h"), []byte(hdr))
			commitAll(t, dir)
			res, err := call(t, dir, c.tool, c.args)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			got, _ := os.ReadFile(filepath.Join(dir, "lib.h"))
			if want := strings.Replace(hdr, "  int szLookaside;\n", "  int szLookaside;\n"+line, 1); string(got) != want {
				t.Fatalf("landed wrong:\n%s", got)
			}
			landing, ok := res.(*apply.Landing)
			if r, isPatch := res.(*apply.ApplyPatchResult); isPatch {
				landing, ok = &r.Landing, true
			}
			if !ok {
				t.Fatalf("result %T", res)
			}
			if rep := landing.Files[0].Syntax; rep != nil && rep.AddedCount > 0 && !slices.Contains(rep.UnknownWords, "SQLITE_CDECL") {
				t.Fatalf("the warning does not name the macro: %+v", rep)
			}
			_, err = call(t, dir, "edit", map[string]any{"filePath": "lib.h", "oldString": "int lib_open(const char *name);", "newString": "int lib_open(const char *name;"})
			if apply.CodeOf(err) != apply.CodeSyntax {
				t.Fatalf("an unbalanced parenthesis: got %v, want a syntax refusal", err)
			}
		})
	}
}
