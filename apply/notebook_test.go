package apply_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/graftdev/graft/internal/textedit"
)

// nbRepo is a repository holding the test notebook name as nb.ipynb.
func nbRepo(t *testing.T, name string) (dir string, data []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata/notebooks", name))
	if err != nil {
		t.Fatal(err)
	}
	dir = newRepo(t)
	writeFile(t, filepath.Join(dir, "nb.ipynb"), data)
	commitAll(t, dir)
	return dir, data
}

func readNotebook(t *testing.T, dir string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cellSources parses data as a notebook (failing the test when it is not
// one) and returns its cells' sources.
func cellSources(t *testing.T, data []byte) []string {
	t.Helper()
	nb, err := textedit.ParseNotebook(data)
	if err != nil {
		t.Fatalf("not a valid notebook: %v\n%s", err, data)
	}
	var out []string
	for _, c := range nb.Cells {
		out = append(out, c.Source)
	}
	return out
}

// onlyCellChanged checks that got is old with only cell k's source value
// changed: every other byte identical.
func onlyCellChanged(t *testing.T, old, got []byte, k int) {
	t.Helper()
	nb, err := textedit.ParseNotebook(old)
	if err != nil {
		t.Fatal(err)
	}
	c := nb.Cells[k]
	tail := len(old) - c.ValEnd
	if len(got) < c.ValStart+tail || !bytes.Equal(got[:c.ValStart], old[:c.ValStart]) || !bytes.Equal(got[len(got)-tail:], old[c.ValEnd:]) {
		t.Errorf("bytes outside cell %d's source changed:\n%s", k, got)
	}
}

// Every text tool edits a notebook through its view: the old text or
// lines of one cell's source, and the JSON changes in that cell's source
// value only.
func TestNotebookTextTools(t *testing.T) {
	const calc = "import math\nx = 2\ny = \"quoted\\\\path\"\nprint(x)"
	for _, tc := range []struct {
		name string
		tool string
		args map[string]any
	}{
		{"edit", "edit", map[string]any{"filePath": "nb.ipynb", "oldString": "x = 1", "newString": "x = 2"}},
		{"multi_edit", "multi_edit", map[string]any{"description": "d", "edits": []any{
			map[string]any{"file_path": "nb.ipynb", "old_string": "x = 1", "new_string": "x = 9"},
			map[string]any{"file_path": "nb.ipynb", "old_string": "x = 9", "new_string": "x = 2"}}}},
		{"edit_lines", "edit_lines", map[string]any{"command": "replace", "path": "nb.ipynb", "start_line": 8, "new_content": "x = 2"}},
		{"replace_in_file", "replace_in_file", map[string]any{"filePath": "nb.ipynb", "replacements": []any{map[string]any{"type": "lines", "startLine": 8, "endLine": 8, "replaceWith": "x = 2"}}}},
		{"edit_file snippet", "edit_file", map[string]any{"target_file": "nb.ipynb", "code_edit": "# ... existing code ...\nimport math\nx = 2\ny = \"quoted\\\\path\"\n# ... existing code ..."}},
		{"edit_file overwrite with the whole view", "edit_file", map[string]any{"target_file": "nb.ipynb", "overwrite": true, "code_edit": "# %% [markdown] id=intro\n# Café analysis\n\nDonnées: ünïcödé ✓ 漢字\n\n# %% id=calc\nimport math\nx = 2\ny = \"quoted\\\\path\"\nprint(x)\n\n# %% [raw] id=r1\nraw text\twith tab\n\n# %% id=empty\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, old := nbRepo(t, "jupyter.ipynb")
			res, err := call(t, dir, tc.tool, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			got := readNotebook(t, dir)
			if s := cellSources(t, got)[1]; s != calc {
				t.Errorf("cell 1 source %q, want %q", s, calc)
			}
			onlyCellChanged(t, old, got, 1)
			if d := toJSON(t, res); !strings.Contains(d, `-x = 1\n+x = 2`) {
				t.Errorf("the result's diff is not of the view: %s", d)
			}
			if d := toJSON(t, res); !strings.Contains(d, `"note":"edited code cells keep their outputs`) {
				t.Errorf("the result does not say what happened to the cell's outputs: %s", d)
			}
		})
	}
}

func TestNotebookFileRead(t *testing.T) {
	dir, _ := nbRepo(t, "colab.ipynb")
	res, err := call(t, dir, "file_read", map[string]any{"path": "nb.ipynb"})
	if err != nil {
		t.Fatal(err)
	}
	s := toJSON(t, res)
	for _, want := range []string{`"view":"notebook:`, `1: # %%`, `2: def f(a):`, `7: # %% [markdown]`, `8: Some *notes* here`} {
		if !strings.Contains(s, want) {
			t.Errorf("file_read lacks %q: %s", want, s)
		}
	}
}

// An edit whose new text would break the JSON as raw text (a quote, a
// backslash) lands escaped: the notebook stays valid.
func TestNotebookEditEscapes(t *testing.T) {
	dir, old := nbRepo(t, "strings.ipynb")
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "nb.ipynb", "oldString": "b = 2", "newString": "z = \"unterminated\\"}); err != nil {
		t.Fatal(err)
	}
	got := readNotebook(t, dir)
	if s := cellSources(t, got)[0]; s != "a = 1\nz = \"unterminated\\\n" {
		t.Errorf("source %q", s)
	}
	onlyCellChanged(t, old, got, 0)
}

func TestNotebookTextToolRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		tool string
		args map[string]any
	}{
		{"edit of a header", "edit", map[string]any{"filePath": "nb.ipynb", "oldString": "# %% id=calc", "newString": "# %% id=other"}},
		{"edit across two cells", "edit", map[string]any{"filePath": "nb.ipynb", "oldString": "print(x)\n\n# %% [raw] id=r1\nraw", "newString": "print(x)\nraw"}},
		{"edit_lines of a header", "edit_lines", map[string]any{"command": "delete", "path": "nb.ipynb", "start_line": 6}},
		{"replace_in_file lines over two cells", "replace_in_file", map[string]any{"filePath": "nb.ipynb", "replacements": []any{map[string]any{"type": "lines", "startLine": 10, "endLine": 13, "replaceWith": "x"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, old := nbRepo(t, "jupyter.ipynb")
			_, err := call(t, dir, tc.tool, tc.args)
			if err == nil || !strings.Contains(err.Error(), "notebook_edit") {
				t.Fatalf("err = %v, want a refusal pointing to notebook_edit", err)
			}
			if got := readNotebook(t, dir); !bytes.Equal(got, old) {
				t.Error("the refused edit changed the file")
			}
		})
	}
}

// apply_patch takes a diff of the notebook's JSON, as git shows it, and
// refuses a result that is not a valid notebook.
func TestNotebookApplyPatch(t *testing.T) {
	dir, old := nbRepo(t, "strings.ipynb")
	good := "--- a/nb.ipynb\n+++ b/nb.ipynb\n@@ -7,3 +7,3 @@\n    \"outputs\": [],\n-   \"source\": \"a = 1\\nb = 2\\n\"\n+   \"source\": \"a = 1\\nb = 3\\n\"\n   },\n"
	if _, err := call(t, dir, "apply_patch", map[string]any{"patch": good}); err != nil {
		t.Fatal(err)
	}
	got := readNotebook(t, dir)
	if s := cellSources(t, got)[0]; s != "a = 1\nb = 3\n" {
		t.Errorf("source %q", s)
	}
	onlyCellChanged(t, old, got, 0)

	for name, bad := range map[string]string{
		"invalid JSON":   "--- a/nb.ipynb\n+++ b/nb.ipynb\n@@ -7,3 +7,3 @@\n    \"outputs\": [],\n-   \"source\": \"a = 1\\nb = 3\\n\"\n+   \"source\": \"a = 1\\nb = 3\\n\",\n   },\n",
		"no cell source": "--- a/nb.ipynb\n+++ b/nb.ipynb\n@@ -7,3 +7,3 @@\n    \"outputs\": [],\n-   \"source\": \"a = 1\\nb = 3\\n\"\n+   \"sauce\": \"a = 1\\nb = 3\\n\"\n   },\n",
	} {
		before := readNotebook(t, dir)
		_, err := call(t, dir, "apply_patch", map[string]any{"patch": bad})
		if err == nil || !strings.Contains(err.Error(), "not a valid notebook") {
			t.Errorf("%s: err = %v, want a refusal", name, err)
		}
		if !bytes.Equal(readNotebook(t, dir), before) {
			t.Errorf("%s: the refused patch changed the file", name)
		}
	}
}

func notebookEdit(t *testing.T, dir string, args map[string]any) map[string]any {
	t.Helper()
	args["notebook_path"] = "nb.ipynb"
	res, err := call(t, dir, "notebook_edit", args)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(toJSON(t, res)), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestNotebookEditTool(t *testing.T) {
	t.Run("replace by id keeps outputs", func(t *testing.T) {
		dir, old := nbRepo(t, "jupyter.ipynb")
		m := notebookEdit(t, dir, map[string]any{"cell_id": "calc", "new_source": "print('hi')\n# é"})
		got := readNotebook(t, dir)
		if s := cellSources(t, got)[1]; s != "print('hi')\n# é" {
			t.Errorf("source %q", s)
		}
		onlyCellChanged(t, old, got, 1)
		if !strings.Contains(m["note"].(string), "outputs") {
			t.Errorf("note %v", m["note"])
		}
	})
	t.Run("replace by number, 2-space layout", func(t *testing.T) {
		dir, old := nbRepo(t, "colab.ipynb")
		notebookEdit(t, dir, map[string]any{"cell_number": 1, "new_source": "new *notes*\nline 2"})
		got := readNotebook(t, dir)
		onlyCellChanged(t, old, got, 1)
		if !strings.Contains(string(got), "\"source\": [\n        \"new *notes*\\n\",\n        \"line 2\"\n      ],") {
			t.Errorf("layout:\n%s", got)
		}
	})
	t.Run("insert with ids", func(t *testing.T) {
		dir, old := nbRepo(t, "jupyter.ipynb")
		m := notebookEdit(t, dir, map[string]any{"edit_mode": "insert", "cell_id": "intro", "cell_type": "code", "new_source": "a = 1\nb = 2"})
		got := readNotebook(t, dir)
		id, _ := m["cell_id"].(string)
		if !regexp.MustCompile(`^[0-9a-f]{8}$`).MatchString(id) {
			t.Errorf("new cell id %q", id)
		}
		want := "  {\n   \"cell_type\": \"code\",\n   \"execution_count\": null,\n   \"id\": \"" + id + "\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\n    \"a = 1\\n\",\n    \"b = 2\"\n   ]\n  },\n"
		nb, _ := textedit.ParseNotebook(old)
		at := nb.Cells[1].ObjStart - 2 // the start of cell 1's line
		if string(got[:at]) != string(old[:at]) || string(got[at:at+len(want)]) != want || string(got[at+len(want):]) != string(old[at:]) {
			t.Errorf("insert:\n%s", got)
		}
		if s := cellSources(t, got); len(s) != 5 || s[1] != "a = 1\nb = 2" {
			t.Errorf("sources %q", s)
		}
	})
	t.Run("insert without ids, string sources, at the end", func(t *testing.T) {
		dir, _ := nbRepo(t, "strings.ipynb")
		m := notebookEdit(t, dir, map[string]any{"edit_mode": "insert", "cell_number": 2, "cell_type": "markdown", "new_source": "# End"})
		got := readNotebook(t, dir)
		if m["cell_id"] != nil || bytes.Contains(got, []byte(`"id"`)) {
			t.Errorf("a notebook without ids got one: %s", got)
		}
		if !bytes.Contains(got, []byte("  },\n  {\n   \"cell_type\": \"markdown\",\n   \"metadata\": {},\n   \"source\": \"# End\"\n  }\n ],")) {
			t.Errorf("insert:\n%s", got)
		}
	})
	t.Run("delete, then undo", func(t *testing.T) {
		dir, old := nbRepo(t, "jupyter.ipynb")
		notebookEdit(t, dir, map[string]any{"edit_mode": "delete", "cell_id": "r1"})
		got := readNotebook(t, dir)
		if s := cellSources(t, got); len(s) != 3 || strings.Contains(string(got), "raw text") {
			t.Errorf("delete: %q", s)
		}
		notebookEdit(t, dir, map[string]any{"edit_mode": "delete", "cell_number": 2})
		if s := cellSources(t, readNotebook(t, dir)); len(s) != 2 {
			t.Errorf("delete of the last cell: %q", s)
		}
		if _, err := call(t, dir, "undo", map[string]any{"steps": 2}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(readNotebook(t, dir), old) {
			t.Error("undo did not restore the notebook's bytes")
		}
	})
	t.Run("retype code to markdown", func(t *testing.T) {
		dir, _ := nbRepo(t, "jupyter.ipynb")
		notebookEdit(t, dir, map[string]any{"cell_id": "calc", "cell_type": "markdown", "new_source": "now text"})
		got := readNotebook(t, dir)
		if !bytes.Contains(got, []byte("{\n   \"cell_type\": \"markdown\",\n   \"id\": \"calc\",\n   \"metadata\": {\n    \"tags\": [\n     \"setup\"\n    ]\n   },\n   \"source\": [\n    \"now text\"\n   ]\n  }")) || bytes.Contains(got, []byte("image/png")) {
			t.Errorf("retype:\n%s", got)
		}
	})
	for name, args := range map[string]map[string]any{
		"insert without cell_type": {"edit_mode": "insert", "new_source": "x"},
		"unknown id":               {"cell_id": "nope", "new_source": "x"},
		"number out of range":      {"cell_number": 4, "new_source": "x"},
		"no cell named":            {"new_source": "x"},
		"bad mode":                 {"edit_mode": "move", "cell_number": 0},
	} {
		t.Run(name, func(t *testing.T) {
			dir, old := nbRepo(t, "jupyter.ipynb")
			args["notebook_path"] = "nb.ipynb"
			if _, err := call(t, dir, "notebook_edit", args); err == nil {
				t.Fatal("landed")
			}
			if !bytes.Equal(readNotebook(t, dir), old) {
				t.Error("changed the file")
			}
		})
	}
}

// A new notebook is written as given, if it is one.
func TestNotebookCreate(t *testing.T) {
	dir := newRepo(t)
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "new.ipynb", "oldString": "", "newString": `{"cells": [`}); err == nil || !strings.Contains(err.Error(), "not a valid notebook") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.ipynb")); err == nil {
		t.Fatal("the refused notebook was written")
	}
	nb := "{\n \"cells\": [],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n"
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "new.ipynb", "oldString": "", "newString": nb}); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, dir, "notebook_edit", map[string]any{"notebook_path": "new.ipynb", "edit_mode": "insert", "cell_type": "code", "new_source": "x = 1"}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "new.ipynb"))
	if s := cellSources(t, got); len(s) != 1 || s[0] != "x = 1" || !strings.Contains(string(got), `"id": "`) {
		t.Errorf("notebook:\n%s", got)
	}
}

// Every cell of every producer's notebook, edited by line number: only
// that cell's source value changes.
func TestNotebookEveryCellByLine(t *testing.T) {
	names, _ := filepath.Glob("testdata/notebooks/*.ipynb")
	if len(names) < 4 {
		t.Fatalf("notebooks: %v", names)
	}
	for _, path := range names {
		name := filepath.Base(path)
		old, _ := os.ReadFile(path)
		v, err := textedit.NotebookView(old)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for k, c := range v.Notebook().Cells {
			if c.Source == "" {
				continue
			}
			t.Run(name+"/"+c.Type, func(t *testing.T) {
				dir, _ := nbRepo(t, name)
				line := 2 + bytes.Count(v.Text[:c.Header], []byte("\n"))
				if _, err := call(t, dir, "edit_lines", map[string]any{"command": "replace", "path": "nb.ipynb", "start_line": line, "new_content": "CHANGED ü"}); err != nil {
					t.Fatal(err)
				}
				got := readNotebook(t, dir)
				onlyCellChanged(t, old, got, k)
				// The first line replaced, its line ending kept.
				first, _, _ := strings.Cut(c.Source, "\n")
				want := "CHANGED ü" + c.Source[len(strings.TrimSuffix(first, "\r")):]
				if s := cellSources(t, got)[k]; s != want {
					t.Errorf("cell %d source %q, want %q", k, s, want)
				}
			})
		}
	}
}
