package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
)

// brokenEdit is an edit that adds a syntax error to a.go: a brace left
// open.
var brokenEdit = map[string]any{"filePath": "a.go", "oldString": "func f() {}", "newString": "func f() {"}

const goFile = "package a\n\nfunc f() {}\n"

// With --check warn an edit that adds a syntax error lands, and the
// warning reaches the caller on every face: stderr for each CLI command
// that edits, the text content over MCP (item 4 of issue 32).
func TestCheckWarnReachesTheCaller(t *testing.T) {
	args, _ := json.Marshal(brokenEdit)
	patch := "--- a/a.go\n+++ b/a.go\n@@ -3 +3 @@\n-func f() {}\n+func f() {\n"
	for _, c := range []struct {
		name  string
		args  []string
		stdin string
		dry   bool
	}{
		{"edit", []string{"edit", "a.go", "--old", "func f() {}", "--new", "func f() {"}, "", false},
		{"edit --dry-run", []string{"edit", "a.go", "--old", "func f() {}", "--new", "func f() {", "--dry-run"}, "", true},
		{"call", []string{"call", "edit", string(args)}, "", false},
		{"patch", []string{"patch"}, patch, false},
		{"patch --check", []string{"patch", "--check"}, patch, true},
	} {
		dir := gitRepo(t, map[string]string{"a.go": goFile})
		var out, errb bytes.Buffer
		code := Main(append([]string{"-C", dir, "--check", "warn"}, c.args...), strings.NewReader(c.stdin), &out, &errb)
		if code != exitApplied {
			t.Errorf("%s: exit %d: %s", c.name, code, errb.String())
			continue
		}
		verb := "adds"
		if c.dry {
			verb = "would add"
		}
		want := "warning: a.go: the edit " + verb + " 1 syntax error"
		if !strings.Contains(errb.String(), want) || !strings.Contains(errb.String(), "a.go:3:") {
			t.Errorf("%s: stderr lacks the warning %q with its place:\n%s", c.name, want, errb.String())
		}
	}

	dir := gitRepo(t, map[string]string{"a.go": goFile})
	s := startMCP(t, dir, "--check", "warn")
	res, _ := s.call("edit", brokenEdit, nil)
	if res["isError"] == true {
		t.Fatalf("mcp: refused: %s", text(res))
	}
	if got := text(res); !strings.Contains(got, "warning: a.go: the edit adds 1 syntax error") || !strings.Contains(got, "a.go:3:") {
		t.Errorf("mcp: the text content lacks the warning:\n%s", got)
	}
	s.closeWait()
}

// The summary reads the result as the engine shapes it: a real result of
// --check warn, not a shape written by hand.
func TestSummarizeSyntaxWarning(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.go": goFile})
	e, err := apply.Open(apply.Options{Dir: dir, Check: apply.CheckWarn})
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]any{"filePath": "a.go", "oldString": "func f() {}", "newString": "func f() {", "dry_run": true})
	out, err := e.Call(context.Background(), "edit", args)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := marshalJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	got := summarize("edit", raw)
	for _, w := range []string{"would edit a.go: +1 -1", "warning: a.go: the edit would add 1 syntax error", "\na.go:3:", "\n--- a/a.go\n+++ b/a.go\n"} {
		if !strings.Contains(got, w) {
			t.Errorf("summary lacks %q:\n%s", w, got)
		}
	}
}

// A diff past the text's bound is clipped in the text content, with a note
// that the structured result holds it whole; the structured result has
// every byte (SPEC: MCP; issue 32 item 10).
func TestMCPTextClipsABigDiff(t *testing.T) {
	big := strings.Repeat("a line of some length to fill the diff\n", 5000) // 195 KB
	dir := gitRepo(t, map[string]string{"a.txt": "x\n"})
	s := startMCP(t, dir)
	res, _ := s.call("edit", map[string]any{"filePath": "b.txt", "oldString": "", "newString": big}, nil)
	if res["isError"] == true {
		t.Fatalf("refused: %s", text(res))
	}
	txt := text(res)
	if len(txt) > textDiffBytes+1024 || !strings.Contains(txt, "the structured result's files[].diff holds it whole") || !strings.HasPrefix(txt, "created b.txt: +5000 -0") {
		t.Errorf("text of %d bytes, want the summary and a diff clipped near %d bytes with a note:\n%s", len(txt), textDiffBytes, txt[max(0, len(txt)-300):])
	}
	sc, _ := res["structuredContent"].(map[string]any)
	files, _ := sc["files"].([]any)
	if len(files) != 1 {
		t.Fatalf("structured files: %v", files)
	}
	if d, _ := files[0].(map[string]any)["diff"].(string); len(d) < len(big)+5000 || strings.Count(d, "\n+a line of some length") != 5000 {
		t.Errorf("the structured result's diff has %d bytes, want the whole diff", len(d))
	}
	s.closeWait()
}

// A snippet that removes lines it does not show, nothing in it like them
// (a deletion it implies, as a forgotten marker implies one too), lands,
// and its result names those lines on every face: the hunk's dropped
// field, stderr on the CLI, the text content over MCP. One that shows
// every line it changes names none.
func TestDroppedLinesReachTheCaller(t *testing.T) {
	const file = "'use strict'\n\nvar log = require('./log')\nvar a = require('./a')\nvar b = require('./b')\nvar path = require('path')\n\nmodule.exports = path.basename\n"
	drop := map[string]any{"target_file": "r.js", "code_edit": "var log = require('./log')\nvar path = require('path')\n// ... existing code ...\n"}
	drop["code_edit"] = "// ... existing code ...\n" + drop["code_edit"].(string)
	shown := map[string]any{"target_file": "r.js", "code_edit": "// ... existing code ...\nvar a = require('./a')\nvar b = require('./lib/b')\nvar path = require('path')\n// ... existing code ...\n"}
	const want = "warning: r.js: region 1 removed line(s) 4-5 of the file as it was, which the snippet does not show and nothing in it reads like"

	for _, c := range []struct {
		name string
		args map[string]any
		want bool
	}{{"dropped", drop, true}, {"shown", shown, false}} {
		raw, _ := json.Marshal(c.args)
		dir := gitRepo(t, map[string]string{"r.js": file})
		var out, errb bytes.Buffer
		if code := Main([]string{"-C", dir, "call", "edit_file", string(raw)}, strings.NewReader(""), &out, &errb); code != exitApplied {
			t.Fatalf("%s: exit %d: %s", c.name, code, errb.String())
		}
		if got := strings.Contains(errb.String(), want); got != c.want {
			t.Errorf("%s: stderr has the warning %v, want %v:\n%s", c.name, got, c.want, errb.String())
		}
		if got := strings.Contains(out.String(), `"dropped": "4-5"`); got != c.want {
			t.Errorf("%s: result has dropped 4-5 %v, want %v:\n%s", c.name, got, c.want, out.String())
		}

		dir = gitRepo(t, map[string]string{"r.js": file})
		s := startMCP(t, dir, "--tools", "snippets")
		res, _ := s.call("edit_file", c.args, nil)
		if res["isError"] == true {
			t.Fatalf("%s: mcp: refused: %s", c.name, text(res))
		}
		if got := strings.Contains(text(res), want); got != c.want {
			t.Errorf("%s: mcp text has the warning %v, want %v:\n%s", c.name, got, c.want, text(res))
		}
		s.closeWait()
	}
}

// In a dry run the summary says which lines the snippet would remove
// unshown, read from a real result.
func TestSummarizeDroppedDryRun(t *testing.T) {
	dir := gitRepo(t, map[string]string{"r.py": "import os\nimport re\nimport sys\nimport json\n\nprint(os.sep)\n"})
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]any{"target_file": "r.py", "code_edit": "import os\nimport json\n# ... existing code ...\n", "dry_run": true})
	out, err := e.Call(context.Background(), "edit_file", args)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := marshalJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	got := summarize("edit_file", raw)
	want := "warning: r.py: region 1 would remove line(s) 2-3 of the file as it was, which the snippet does not show and nothing in it reads like: if they should stay, send a marker where they are\n"
	if !strings.Contains(got, want) {
		t.Errorf("summary lacks %q:\n%s", want, got)
	}
}
