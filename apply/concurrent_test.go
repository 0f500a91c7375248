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
	"github.com/graftdev/graft/internal/testhook"
)

// changeUnder runs tool on dir with, just before the call's write, the
// file name rewritten by change (as an editor or a formatter would, once:
// the first time only). It returns the number of times the call reached
// its write, and the call's result.
func changeUnder(t *testing.T, dir, name, tool string, args any, change func(string) string) (int, any, error) {
	t.Helper()
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	writes := 0
	apply.SetBeforeLand(e, func() {
		writes++
		if writes == 1 {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, name), []byte(change(string(b))))
		}
	})
	b, _ := json.Marshal(args)
	res, err := e.Call(context.Background(), tool, b)
	return writes, res, err
}

func TestChangedUnderCallIsRecomputed(t *testing.T) {
	base := "alpha\nbeta\ngamma\ndelta\nepsilon\n"
	prepend := func(s string) string { return "# added by a formatter\n# and another line\n" + s }
	for _, tc := range []struct {
		name, tool string
		args       any
		change     func(string) string
		want       string
	}{
		{"string edit relocated", "edit",
			map[string]any{"filePath": "f.txt", "oldString": "gamma", "newString": "GAMMA"},
			prepend, "# added by a formatter\n# and another line\nalpha\nbeta\nGAMMA\ndelta\nepsilon\n"},
		{"line numbers carried", "edit_lines",
			map[string]any{"command": "replace", "path": "f.txt", "start_line": 4, "end_line": 4, "new_content": "DELTA"},
			prepend, "# added by a formatter\n# and another line\nalpha\nbeta\ngamma\nDELTA\nepsilon\n"},
		{"insert carried", "replace_in_file",
			map[string]any{"filePath": "f.txt", "replacements": []map[string]any{
				{"type": "insert_after", "lineNumber": 2, "insertText": "beta2"},
				{"type": "string", "searchFor": "epsilon", "replaceWith": "EPSILON"}}},
			func(s string) string { return strings.Replace(s, "delta", "delta (edited)", 1) },
			"alpha\nbeta\nbeta2\ngamma\ndelta (edited)\nEPSILON\n"},
		{"multi_edit relocated", "multi_edit",
			map[string]any{"description": "two", "edits": []map[string]any{
				{"file_path": "f.txt", "old_string": "alpha", "new_string": "ALPHA"},
				{"file_path": "f.txt", "old_string": "epsilon", "new_string": "EPSILON"}}},
			func(s string) string { return strings.Replace(s, "gamma\n", "gamma\nzeta\n", 1) }, "ALPHA\nbeta\ngamma\nzeta\ndelta\nEPSILON\n"},
		{"patch relocated", "apply_patch",
			map[string]any{"patch": "--- a/f.txt\n+++ b/f.txt\n@@ -2,3 +2,3 @@\n beta\n-gamma\n+GAMMA\n delta\n"},
			prepend, "# added by a formatter\n# and another line\nalpha\nbeta\nGAMMA\ndelta\nepsilon\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			writeFile(t, filepath.Join(dir, "f.txt"), []byte(base))
			commitAll(t, dir)
			writes, _, err := changeUnder(t, dir, "f.txt", tc.tool, tc.args, tc.change)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if writes != 2 {
				t.Fatalf("the call reached its write %d times, want 2 (once refused, once recomputed)", writes)
			}
			got, _ := os.ReadFile(filepath.Join(dir, "f.txt"))
			if string(got) != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
			// The outside change is a snapshot commit of its own; the
			// call's commit holds only the call's change.
			log := git(t, dir, "log", "--format=%s", "refs/graft/main")
			if !strings.Contains(log, "snapshot") {
				t.Fatalf("no snapshot of the outside change in the journal:\n%s", log)
			}
		})
	}
}

func TestChangedUnderCallConflictShowsDiff(t *testing.T) {
	for _, tc := range []struct {
		name, tool string
		args       any
	}{
		{"string edit", "edit", map[string]any{"filePath": "f.txt", "oldString": "gamma", "newString": "GAMMA"}},
		{"line edit", "edit_lines", map[string]any{"command": "replace", "path": "f.txt", "start_line": 3, "new_content": "GAMMA"}},
		{"patch", "apply_patch", map[string]any{"patch": "--- a/f.txt\n+++ b/f.txt\n@@ -3 +3 @@\n-gamma\n+GAMMA\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			writeFile(t, filepath.Join(dir, "f.txt"), []byte("alpha\nbeta\ngamma\ndelta\n"))
			commitAll(t, dir)
			// The edit's own line changes under it.
			_, _, err := changeUnder(t, dir, "f.txt", tc.tool, tc.args, func(s string) string {
				return strings.Replace(s, "gamma", "gamm4 by someone else", 1)
			})
			if apply.CodeOf(err) != apply.CodeConflict {
				t.Fatalf("got %v, want a conflict", err)
			}
			msg := err.Error()
			t.Log(msg)
			if !strings.Contains(msg, "+gamm4 by someone else") || !strings.Contains(msg, "-gamma") {
				t.Fatalf("the conflict does not show what changed:\n%s", msg)
			}
			if n := strings.Count(msg, "What changed"); n != 1 {
				t.Fatalf("the change is shown %d times:\n%s", n, msg)
			}
			if strings.Count(msg, "f.txt: ") > 1 && strings.HasPrefix(msg, "f.txt: f.txt:") {
				t.Fatalf("path named twice: %s", msg)
			}
			got, _ := os.ReadFile(filepath.Join(dir, "f.txt"))
			if string(got) != "alpha\nbeta\ngamm4 by someone else\ndelta\n" {
				t.Fatalf("file changed by a refused call: %q", got)
			}
		})
	}
}

// A file that keeps changing under a call is refused after a bounded
// number of recomputations, naming the path once.
func TestChangedUnderCallEveryTime(t *testing.T) {
	dir := newRepo(t)
	name := filepath.Join(dir, "f.txt")
	writeFile(t, name, []byte("a\nb\n"))
	commitAll(t, dir)
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	apply.SetBeforeLand(e, func() {
		n++
		b, _ := os.ReadFile(name)
		writeFile(t, name, append([]byte("more\n"), b...))
	})
	_, err = e.Call(context.Background(), "edit", json.RawMessage(`{"filePath":"f.txt","oldString":"a","newString":"A"}`))
	if apply.CodeOf(err) != apply.CodeConflict {
		t.Fatalf("got %v, want a conflict", err)
	}
	if n < 2 || n > 5 {
		t.Fatalf("the call was computed %d times", n)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "f.txt: file changed while the call ran") {
		t.Fatalf("message: %s", msg)
	}
}

// Lines appended to a file while a call runs (a logger) do not make the
// call run again, however often they come: the call lands at once, its
// change where it was located, the appended lines after it, and the next
// call records them as a change made outside graft.
func TestAppendedUnderCallIsCarried(t *testing.T) {
	dir := newRepo(t)
	name := filepath.Join(dir, "f.txt")
	writeFile(t, name, []byte("a\nb\n"))
	commitAll(t, dir)
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	apply.SetBeforeLand(e, func() {
		n++
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, "log line %d\n", n)
		f.Close()
	})
	for _, args := range []string{
		`{"filePath":"f.txt","oldString":"a","newString":"A"}`,
		`{"command":"replace","path":"f.txt","start_line":2,"new_content":"B"}`,
	} {
		tool := "edit"
		if strings.Contains(args, "command") {
			tool = "edit_lines"
		}
		if _, err := e.Call(context.Background(), tool, json.RawMessage(args)); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
	}
	if n != 2 {
		t.Fatalf("the calls were computed %d times, want once each", n)
	}
	got, _ := os.ReadFile(name)
	if string(got) != "A\nB\nlog line 1\nlog line 2\n" {
		t.Fatalf("f.txt = %q", got)
	}
	if log := git(t, dir, "log", "--format=%s", "refs/graft/main"); strings.Count(log, "snapshot") != 1 {
		t.Fatalf("want one snapshot (of log line 1, before the second call):\n%s", log)
	}
}

// A file rewritten by another process after the transaction's last check,
// just before graft's rename, is not lost: the call is put back and
// computed again on what the writer wrote, landing on top of it, or, when
// the writer changed the call's own lines, refused with the file as the
// writer left it.
func TestRewrittenBeforeRenameIsRecomputed(t *testing.T) {
	for _, tc := range []struct {
		name, rewrite, want string
		refused             bool
	}{
		{"other lines", "# by a formatter\nalpha\nbeta\ngamma\n", "# by a formatter\nalpha\nBETA\ngamma\n", false},
		{"the call's line", "alpha\nbeta by someone else\ngamma\n", "alpha\nbeta by someone else\ngamma\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			name := filepath.Join(dir, "f.txt")
			writeFile(t, name, []byte("alpha\nbeta\ngamma\n"))
			commitAll(t, dir)
			e, err := apply.Open(apply.Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			attempts, done := 0, false
			apply.SetBeforeLand(e, func() { attempts++ })
			testhook.LateWrite = func(moment, path string) {
				if moment == "rename" && path == "f.txt" && !done {
					done = true
					if err := os.WriteFile(name, []byte(tc.rewrite), 0o644); err != nil {
						t.Error(err)
					}
				}
			}
			defer func() { testhook.LateWrite = nil }()
			_, err = e.Call(context.Background(), "edit_lines", json.RawMessage(`{"command":"replace","path":"f.txt","start_line":2,"new_content":"BETA"}`))
			if tc.refused != (err != nil) {
				t.Fatalf("err = %v", err)
			}
			if tc.refused && apply.CodeOf(err) != apply.CodeConflict {
				t.Fatalf("got %v, want a conflict", err)
			}
			if got, _ := os.ReadFile(name); string(got) != tc.want {
				t.Fatalf("f.txt = %q, want %q", got, tc.want)
			}
			// Refused, the second computation stops before the write.
			if want := map[bool]int{false: 2, true: 1}[tc.refused]; attempts != want {
				t.Fatalf("the call reached its write %d times, want %d", attempts, want)
			}
			if tc.refused {
				return
			}
			if log := git(t, dir, "log", "--format=%s", "refs/graft/main"); !strings.Contains(log, "snapshot") {
				t.Fatalf("no snapshot of the writer's change:\n%s", log)
			}
		})
	}
}
