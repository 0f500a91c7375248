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
