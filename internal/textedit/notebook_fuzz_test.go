package textedit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// FuzzNotebook: whatever ParseNotebook accepts is valid JSON, and a
// change of any cell's source through the view leaves a notebook whose
// cell has exactly the new source and whose other cells are unchanged.
func FuzzNotebook(f *testing.F) {
	files, _ := filepath.Glob("testdata/notebooks/*.ipynb")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "x = \"\\\n\ty", uint8(0))
	}
	f.Add([]byte(`{"cells":[{"cell_type":"raw","source":""}],"nbformat":4}`), "a\r\nb", uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, src string, k uint8) {
		nb, err := ParseNotebook(data)
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON: %q", data)
		}
		if len(nb.Cells) == 0 || !json.Valid([]byte(QuoteJSON(src))) {
			return
		}
		v, err := NotebookView(data)
		if err != nil {
			t.Fatal(err)
		}
		c := v.Notebook().Cells[int(k)%len(nb.Cells)]
		cs, err := v.Bytes([]Change{{Start: c.SrcStart, End: c.SrcEnd, New: src}})
		if !utf8.ValidString(src) {
			if err == nil {
				t.Fatalf("new text %q that is not UTF-8 was taken", src)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		out, err := Splice(data, cs)
		if err != nil {
			t.Fatal(err)
		}
		nb2, err := ParseNotebook(out)
		if err != nil {
			t.Fatalf("the change left no notebook (%v):\n%s", err, out)
		}
		for i, d := range nb2.Cells {
			want := nb.Cells[i].Source
			if i == c.Index {
				want = src
			}
			if d.Source != want {
				t.Fatalf("cell %d: source %q, want %q", i, d.Source, want)
			}
		}
	})
}
