package textedit

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func readNB(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/notebooks/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// editNB replaces old (once, in the view) by new and returns the file's
// new bytes.
func editNB(t *testing.T, data []byte, old, new string) ([]byte, error) {
	t.Helper()
	v, err := NotebookView(data)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(v.Text, []byte(old))
	if i < 0 || bytes.Count(v.Text, []byte(old)) != 1 {
		t.Fatalf("%q not once in the view:\n%s", old, v.Text)
	}
	cs, err := v.Bytes([]Change{{Start: i, End: i + len(old), New: new}})
	if err != nil {
		return nil, err
	}
	return Splice(data, cs)
}

// sources decodes every cell's source, joined.
func sources(t *testing.T, data []byte) []string {
	t.Helper()
	var nb struct {
		Cells []struct {
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, data)
	}
	var out []string
	for _, c := range nb.Cells {
		var s string
		var l []string
		if json.Unmarshal(c.Source, &s) != nil {
			if err := json.Unmarshal(c.Source, &l); err != nil {
				t.Fatal(err)
			}
			s = strings.Join(l, "")
		}
		out = append(out, s)
	}
	return out
}

// sameOutside checks that got differs from old only inside [s, e) of old.
func sameOutside(t *testing.T, old, got []byte, s, e int) {
	t.Helper()
	tail := len(old) - e
	if !bytes.Equal(got[:s], old[:s]) || len(got) < s+tail || !bytes.Equal(got[len(got)-tail:], old[e:]) {
		t.Errorf("bytes outside the cell's source changed:\n%s", got)
	}
}

func TestNotebookViewText(t *testing.T) {
	v, err := NotebookView(readNB(t, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# %% [markdown] id=intro\n# Café analysis\n\nDonnées: ünïcödé ✓ 漢字\n" +
		"\n# %% id=calc\nimport math\nx = 1\ny = \"quoted\\\\path\"\nprint(x)\n" +
		"\n# %% [raw] id=r1\nraw text\twith tab\n" +
		"\n# %% id=empty\n"
	if string(v.Text) != want {
		t.Errorf("view:\n%s\nwant:\n%s", v.Text, want)
	}
	v, err = NotebookView(readNB(t, "colab.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "# %%\ndef f(a):\r\n    return a + 1\r\n\r\nf(2)\n\n# %% [markdown]\nSome *notes* here\n"; string(v.Text) != want {
		t.Errorf("colab view:\n%q", v.Text)
	}
}

func TestNotebookEditListSource(t *testing.T) {
	data := readNB(t, "jupyter.ipynb")
	v, _ := NotebookView(data)
	cell := v.Notebook().Cells[1]
	got, err := editNB(t, data, "x = 1\n", "x = 2  # ü \"q\"\nz = 3\n")
	if err != nil {
		t.Fatal(err)
	}
	want := `[
    "import math\n",
    "x = 2  # ü \"q\"\n",
    "z = 3\n",
    "y = \"quoted\\\\path\"\n",
    "print(x)"
   ]`
	if s := string(got[cell.ValStart : len(got)-(len(data)-cell.ValEnd)]); s != want {
		t.Errorf("source value:\n%s\nwant:\n%s", s, want)
	}
	sameOutside(t, data, got, cell.ValStart, cell.ValEnd)
	if s := sources(t, got)[1]; s != "import math\nx = 2  # ü \"q\"\nz = 3\ny = \"quoted\\\\path\"\nprint(x)" {
		t.Errorf("source %q", s)
	}
}

func TestNotebookEditLastLineAndUnicode(t *testing.T) {
	data := readNB(t, "jupyter.ipynb")
	// The last line of a source, with the newline the view adds.
	got, err := editNB(t, data, "print(x)\n", "print(x, y)\n")
	if err != nil {
		t.Fatal(err)
	}
	if s := sources(t, got)[1]; !strings.HasSuffix(s, "print(x, y)") {
		t.Errorf("source %q", s)
	}
	got, err = editNB(t, data, "✓ 漢字", "✗ 字")
	if err != nil {
		t.Fatal(err)
	}
	if s := sources(t, got)[0]; s != "# Café analysis\n\nDonnées: ünïcödé ✗ 字" {
		t.Errorf("source %q", s)
	}
	// Deleting the last line leaves no trailing newline.
	got, err = editNB(t, data, "\nprint(x)\n", "\n")
	if err != nil {
		t.Fatal(err)
	}
	if s := sources(t, got)[1]; s != "import math\nx = 1\ny = \"quoted\\\\path\"" {
		t.Errorf("source %q", s)
	}
}

func TestNotebookEditEmptyCellAndCRLF(t *testing.T) {
	data := readNB(t, "jupyter.ipynb")
	v, _ := NotebookView(data)
	c := v.Notebook().Cells[3]
	cs, err := v.Bytes([]Change{{Start: c.SrcStart, End: c.SrcStart, New: "a = 1\nb = 2\n"}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := Splice(data, cs)
	if s := string(got[c.ValStart : len(got)-(len(data)-c.ValEnd)]); s != "[\n    \"a = 1\\n\",\n    \"b = 2\\n\"\n   ]" {
		t.Errorf("source value %q", s)
	}
	sameOutside(t, data, got, c.ValStart, c.ValEnd)

	data = readNB(t, "colab.ipynb")
	got, err = editNB(t, data, "    return a + 1\r\n", "    return a + 2\r\n")
	if err != nil {
		t.Fatal(err)
	}
	if s := sources(t, got)[0]; s != "def f(a):\r\n    return a + 2\r\n\r\nf(2)" {
		t.Errorf("source %q", s)
	}
	if !bytes.Contains(got, []byte("\n        \"    return a + 2\\r\\n\",\n        \"\\r\\n\",")) {
		t.Errorf("2-space layout not kept:\n%s", got)
	}
}

func TestNotebookEditStringSource(t *testing.T) {
	data := readNB(t, "strings.ipynb")
	v, _ := NotebookView(data)
	c := v.Notebook().Cells[1]
	got, err := editNB(t, data, "more", "less \\ \"x\"\ttab")
	if err != nil {
		t.Fatal(err)
	}
	if s := string(got[c.ValStart : len(got)-(len(data)-c.ValEnd)]); s != `"text \"quoted\"\nless \\ \"x\"\ttab"` {
		t.Errorf("source value %s", s)
	}
	sameOutside(t, data, got, c.ValStart, c.ValEnd)
}

func TestNotebookRefusals(t *testing.T) {
	data := readNB(t, "jupyter.ipynb")
	for _, tc := range []struct{ old, new string }{
		{"# %% id=calc\n", "# %% id=calc2\n"},              // a header line
		{"print(x)\n\n# %% [raw]", "print(x)\n# %% [raw]"}, // two cells
		{"漢字\n\n# %% id=calc\nimport", "import"},
	} {
		_, err := editNB(t, data, tc.old, tc.new)
		if err == nil || !strings.Contains(err.Error(), "notebook_edit") {
			t.Errorf("%q: err = %v, want a refusal naming notebook_edit", tc.old, err)
		}
	}
}

func TestNotebookInvalid(t *testing.T) {
	for _, bad := range []string{
		`{"cells": [], "nbformat": 3}`,
		`{"cells": [{"source": "x"}], "nbformat": 4}`,
		`{"cells": [{"cell_type": "code"}], "nbformat": 4}`,
		`{"cells": [{"cell_type": "code", "source": "x"], "nbformat": 4}`,
		`{"nbformat": 4}`,
	} {
		if _, err := ParseNotebook([]byte(bad)); err == nil {
			t.Errorf("%s: parsed", bad)
		}
	}
}

func TestNotebookEncodeWhole(t *testing.T) {
	data := readNB(t, "jupyter.ipynb")
	v, _ := NotebookView(data)
	text := strings.Replace(string(v.Text), "x = 1", "x = 10", 1)
	got, err := v.Encode([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	c := v.Notebook().Cells[1]
	sameOutside(t, data, got, c.ValStart, c.ValEnd)
	if _, err := v.Encode([]byte(strings.Replace(string(v.Text), "# %% id=calc", "# %% id=x", 1))); err == nil {
		t.Error("a whole content that changes a header landed")
	}
}

// Changes in two cells at once (a replaceAll) each land in their cell.
func TestNotebookChangesInTwoCells(t *testing.T) {
	data := readNB(t, "strings.ipynb")
	v, _ := NotebookView(data)
	var cs []Change
	for _, w := range []string{"a = 1", "more"} {
		i := bytes.Index(v.Text, []byte(w))
		cs = append(cs, Change{Start: i, End: i + len(w), New: "X"})
	}
	out, err := v.Bytes(cs)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := Splice(data, out)
	if s := sources(t, got); s[0] != "X\nb = 2\n" || s[1] != "text \"quoted\"\nX" {
		t.Errorf("sources %q", s)
	}
}

func TestNotebookCellChanges(t *testing.T) {
	empty := []byte("{\n \"cells\": [],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n")
	nb, err := ParseNotebook(empty)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := Splice(empty, []Change{nb.InsertCell(0, "markdown", "abc", "# T")})
	want := "{\n \"cells\": [\n  {\n   \"cell_type\": \"markdown\",\n   \"id\": \"abc\",\n   \"metadata\": {},\n   \"source\": [\n    \"# T\"\n   ]\n  }\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n"
	if string(got) != want {
		t.Errorf("insert into no cells:\n%s", got)
	}
	nb, _ = ParseNotebook(got)
	back, _ := Splice(got, []Change{nb.DeleteCell(0)})
	if !bytes.Equal(back, empty) {
		t.Errorf("delete of the only cell:\n%s", back)
	}

	// A notebook on one line, CRLF layout elsewhere.
	one := []byte(`{"cells": [{"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], "source": ["a\n", "b"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 2}`)
	nb, err = ParseNotebook(one)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = Splice(one, []Change{nb.InsertCell(1, "code", "", "c")})
	if !bytes.HasSuffix(got, []byte(`"b"]}, {"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], "source": ["c"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 2}`)) {
		t.Errorf("one-line insert:\n%s", got)
	}
	v, _ := NotebookView(one)
	i := bytes.Index(v.Text, []byte("b"))
	cs, _ := v.Bytes([]Change{{Start: i, End: i + 1, New: "b\nz"}})
	got, _ = Splice(one, cs)
	if !bytes.Contains(got, []byte(`"source": ["a\n", "b\n", "z"]}`)) {
		t.Errorf("one-line source:\n%s", got)
	}
	crlf := bytes.ReplaceAll(readNB(t, "strings.ipynb"), []byte("\n"), []byte("\r\n"))
	nb, err = ParseNotebook(crlf)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = Splice(crlf, []Change{nb.InsertCell(2, "code", "", "c")})
	if bytes.Contains(bytes.ReplaceAll(got, []byte("\r\n"), nil), []byte("\n")) {
		t.Errorf("a CRLF notebook got a bare LF:\n%q", got)
	}
	if _, err := ParseNotebook(got); err != nil {
		t.Error(err)
	}
}
