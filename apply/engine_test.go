package apply_test

import (
	"context"
	"encoding/json"
	"fmt"
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
		Version: strings.TrimSpace(git(t, dir, "hash-object", "f.txt")), LineEndings: "mixed", FinalNewline: false, Encoding: "UTF-8"}
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

// A SEARCH/REPLACE block whose file line is a Windows path (Aider run on
// Windows writes them) lands through apply_patch on the file the slashed
// path names, in a repository, journal and all.
func TestPatchSearchReplaceWindowsPath(t *testing.T) {
	dir := newRepo(t)
	name := filepath.Join(dir, "src", "pages", "index.astro")
	writeFile(t, name, []byte("<h1>Hello</h1>\n"))
	commitAll(t, dir)
	p := "src\\pages\\index.astro\n```astro\n<<<<<<< SEARCH\n<h1>Hello</h1>\n=======\n<h1>Bonjour</h1>\n>>>>>>> REPLACE\n```\n"
	if _, err := call(t, dir, "apply_patch", map[string]any{"patch": p}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(name); string(b) != "<h1>Bonjour</h1>\n" {
		t.Errorf("index.astro = %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, `src\pages\index.astro`)); err == nil {
		t.Error("a file named with backslashes was created")
	}
}

// A SEARCH/REPLACE block that changes nothing, among blocks that do, is
// reported as unchanged (as a multi_edit member whose old and new text
// are the same is) and the rest lands; an empty file is written into by
// an empty SEARCH.
func TestPatchSearchReplaceUnchangedBlockAndEmptyFile(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "f.py"), []byte("def f():\n    return 1\n"))
	writeFile(t, filepath.Join(dir, "empty.md"), nil)
	commitAll(t, dir)
	p := "f.py\n<<<<<<< SEARCH\ndef f():\n=======\ndef f():\n>>>>>>> REPLACE\n\n" +
		"f.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n\n" +
		"empty.md\n<<<<<<< SEARCH\n=======\n# Notes\n>>>>>>> REPLACE\n"
	res, err := call(t, dir, "apply_patch", map[string]any{"patch": p})
	if err != nil {
		t.Fatal(err)
	}
	r := res.(*apply.ApplyPatchResult)
	if len(r.Unchanged) != 1 || r.Unchanged[0].Path != "f.py" || r.Unchanged[0].Line != 1 || r.Unchanged[0].Edit != "hunk 1" {
		t.Errorf("unchanged = %+v, want hunk 1 of f.py at line 1", r.Unchanged)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f.py")); string(b) != "def f():\n    return 2\n" {
		t.Errorf("f.py = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "empty.md")); string(b) != "# Notes\n" {
		t.Errorf("empty.md = %q", b)
	}
}

// progressRepo makes a repository with big.txt (over 1 MiB, its last line
// "the one to change") and small.txt, and opens an engine that records
// every progress report as "DONE/TOTAL MESSAGE".
func progressRepo(t *testing.T) (dir string, e *apply.Engine, reports *[]string) {
	t.Helper()
	dir = newRepo(t)
	big := strings.Repeat("some line of a big file\n", 60000) + "the one to change\n"
	writeFile(t, filepath.Join(dir, "big.txt"), []byte(big))
	writeFile(t, filepath.Join(dir, "small.txt"), []byte("one\ntwo\n"))
	commitAll(t, dir)
	reports = new([]string)
	e, err := apply.Open(apply.Options{Dir: dir, Progress: func(p apply.Progress) {
		*reports = append(*reports, fmt.Sprintf("%d/%d %s", p.Done, p.Total, p.Message))
	}})
	if err != nil {
		t.Fatal(err)
	}
	return dir, e, reports
}

// An edit of one big file reports its phases (read, locate, write) before
// the counted steps end; a small file reports only the counted steps.
func TestBigFileReportsPhases(t *testing.T) {
	_, e, reports := progressRepo(t)
	if _, err := e.Call(context.Background(), "edit", json.RawMessage(`{"filePath":"big.txt","oldString":"the one to change","newString":"changed"}`)); err != nil {
		t.Fatal(err)
	}
	want := []string{"0/0 read big.txt", "0/0 locate in big.txt", "0/1 diff big.txt", "1/2 write", "2/2 done"}
	if strings.Join(*reports, "|") != strings.Join(want, "|") {
		t.Errorf("big file reports\n %q\nwant\n %q", *reports, want)
	}
	*reports = nil
	if _, err := e.Call(context.Background(), "edit", json.RawMessage(`{"filePath":"small.txt","oldString":"two","newString":"2"}`)); err != nil {
		t.Fatal(err)
	}
	if want := []string{"0/1 diff small.txt", "1/2 write", "2/2 done"}; strings.Join(*reports, "|") != strings.Join(want, "|") {
		t.Errorf("small file reports %q, want %q", *reports, want)
	}
}

// A big file in a language graft checks reports the check too.
func TestBigCodeFileReportsCheck(t *testing.T) {
	dir := newRepo(t)
	var b strings.Builder
	b.WriteString("package big\n\n")
	for i := 0; b.Len() < 1<<20+1000; i++ {
		fmt.Fprintf(&b, "func F%d() int {\n\treturn %d\n}\n\n", i, i)
	}
	writeFile(t, filepath.Join(dir, "big.go"), []byte(b.String()))
	commitAll(t, dir)
	var got []string
	e, err := apply.Open(apply.Options{Dir: dir, Progress: func(p apply.Progress) { got = append(got, p.Message) }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Call(context.Background(), "edit", json.RawMessage(`{"filePath":"big.go","oldString":"func F7() int {\n\treturn 7\n}","newString":"func F7() int {\n\treturn 70\n}"}`)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(got, "|"), "|check big.go|") {
		t.Errorf("reports %q lack the check", got)
	}
}

// apply_patch tells progress too: a patch of several files counts them as
// it reads them, and a big file's hunk search is a phase.
func TestPatchReportsProgress(t *testing.T) {
	dir, e, reports := progressRepo(t)
	patchText := "--- a/big.txt\n+++ b/big.txt\n@@ -60000,2 +60000,2 @@\n some line of a big file\n-the one to change\n+changed\n" +
		"--- a/small.txt\n+++ b/small.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"
	args, _ := json.Marshal(map[string]any{"patch": patchText})
	if _, err := e.Call(context.Background(), "apply_patch", args); err != nil {
		t.Fatal(err)
	}
	want := []string{"0/2 patch big.txt", "0/0 read big.txt", "0/0 locate in big.txt", "1/2 patch small.txt",
		"0/2 diff big.txt", "1/2 diff small.txt", "2/3 write", "3/3 done"}
	if strings.Join(*reports, "|") != strings.Join(want, "|") {
		t.Errorf("patch reports\n %q\nwant\n %q", *reports, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "small.txt")); string(b) != "one\n2\n" {
		t.Fatalf("small.txt = %q", b)
	}
}

// A patch sent with the version file_read returned is related to that
// version as the other tools are: when the file changed since, the hunks'
// line numbers are carried through the change, so a hunk meant for the
// second of two identical blocks lands there even though the file grew
// above it (without carrying, its stated line would now name the first
// block); a hunk whose lines changed since is a conflict, and nothing
// changes.
func TestPatchVersionCarriesLines(t *testing.T) {
	const blocks = "start\nblock\n  x = 1\nend\nblock\n  x = 1\nend\n"
	const patchText = "--- a/f.txt\n+++ b/f.txt\n@@ -5,3 +5,3 @@\n block\n-  x = 1\n+  x = 2\n end\n"
	read := func(t *testing.T, e *apply.Engine) string {
		res, err := e.Call(context.Background(), "file_read", json.RawMessage(`{"path":"f.txt"}`))
		if err != nil {
			t.Fatal(err)
		}
		return res.(*apply.FileReadResult).Version
	}
	run := func(t *testing.T, e *apply.Engine, version string) error {
		args, _ := json.Marshal(map[string]any{"patch": patchText, "version": version})
		_, err := e.Call(context.Background(), "apply_patch", args)
		return err
	}
	// repo commits f.txt holding blocks and opens an engine on it.
	repo := func(t *testing.T) (string, *apply.Engine) {
		dir := newRepo(t)
		writeFile(t, filepath.Join(dir, "f.txt"), []byte(blocks))
		commitAll(t, dir)
		e, err := apply.Open(apply.Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		return dir, e
	}
	t.Run("carried", func(t *testing.T) {
		dir, e := repo(t)
		v := read(t, e)
		writeFile(t, filepath.Join(dir, "f.txt"), []byte("a\nb\nc\n"+blocks))
		if err := run(t, e, v); err != nil {
			t.Fatal(err)
		}
		want := "a\nb\nc\nstart\nblock\n  x = 1\nend\nblock\n  x = 2\nend\n"
		if b, _ := os.ReadFile(filepath.Join(dir, "f.txt")); string(b) != want {
			t.Fatalf("f.txt =\n%s\nwant\n%s", b, want)
		}
	})
	t.Run("touched", func(t *testing.T) {
		dir, e := repo(t)
		v := read(t, e)
		changed := strings.Replace(blocks, "end\nblock\n  x = 1", "end\nblock\n  x = 5", 1)
		writeFile(t, filepath.Join(dir, "f.txt"), []byte(changed))
		err := run(t, e, v)
		if apply.CodeOf(err) != apply.CodeConflict || !strings.Contains(err.Error(), "hunk 1") {
			t.Fatalf("a hunk whose lines changed since the read: %v", err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "f.txt")); string(b) != changed {
			t.Fatalf("f.txt changed: %q", b)
		}
	})
	t.Run("current", func(t *testing.T) {
		dir, e := repo(t)
		if err := run(t, e, read(t, e)); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "f.txt")); string(b) != strings.Replace(blocks, "end\nblock\n  x = 1", "end\nblock\n  x = 2", 1) {
			t.Fatalf("f.txt = %q", b)
		}
	})
	t.Run("two files", func(t *testing.T) {
		dir := newRepo(t)
		writeFile(t, filepath.Join(dir, "f.txt"), []byte(blocks))
		writeFile(t, filepath.Join(dir, "g.txt"), []byte(blocks))
		commitAll(t, dir)
		two := patchText + strings.ReplaceAll(patchText, "f.txt", "g.txt")
		args, _ := json.Marshal(map[string]any{"patch": two, "version": "0123456789abcdef0123456789abcdef01234567"})
		if _, err := call(t, dir, "apply_patch", args); apply.CodeOf(err) != apply.CodeInvalid {
			t.Fatalf("a version with a two-file patch: %v", err)
		}
	})
}
