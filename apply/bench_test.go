package apply

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply/lineedit"
	"github.com/graftdev/graft/internal/textedit"
	"github.com/graftdev/graft/matcher"
)

// bigFile is a 10 MB, 200,000-line Go-like file.
func bigFile() []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 10<<20 || i < 200_000; i++ {
		fmt.Fprintf(&b, "\tvalue%06d := compute(%6d, \"some text here\") // c\n", i, i)
	}
	return b.Bytes()
}

// BenchmarkEngine measures the engine without the disk or git: locating,
// making hunks, applying them and rendering the diff (what every call does
// before landing).
func BenchmarkEngine(b *testing.B) {
	content := bigFile()
	b.Run("baseline/bytes.Replace/10MB", func(b *testing.B) {
		old := []byte("\tvalue123456 := compute(123456, \"some text here\") // c\n")
		b.SetBytes(int64(len(content)))
		b.ReportAllocs()
		for b.Loop() {
			if out := bytes.Replace(content, old, []byte("\tchanged := 1\n"), 1); len(out) == len(content) {
				b.Fatal("no change")
			}
		}
	})
	b.Run("edit/10MB", func(b *testing.B) {
		old := "\tvalue123456 := compute(123456, \"some text here\") // c\n"
		b.SetBytes(int64(len(content)))
		b.ReportAllocs()
		for b.Loop() {
			f := &TxFile{Old: content, Exists: true}
			ms, err := locate(content, old, "\tchanged := 1\n", false, matcher.Options{}, "")
			if err != nil {
				b.Fatal(err)
			}
			if err := f.Step(stringChanges(content, ms, "\tchanged := 1\n", "")); err != nil {
				b.Fatal(err)
			}
			if r := f.result(); r.Additions != 1 {
				b.Fatal("wrong diff")
			}
		}
	})
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("replace_in_file/10MB/%d-ops", n), func(b *testing.B) {
			e := &Engine{}
			ops := make([]Replacement, n)
			with := "\tx := 1\n"
			for i := range ops {
				line := 1 + i*(200_000/n)
				ops[i] = Replacement{Type: "lines", StartLine: line, EndLine: line, ReplaceWith: &with}
			}
			b.SetBytes(int64(len(content)))
			b.ReportAllocs()
			for b.Loop() {
				f := &TxFile{Old: content, Exists: true}
				ix := lineedit.NewFile(content)
				var hunks []textedit.Change
				for i, r := range ops {
					hs, _, err := e.replacementChanges(ix, "big.go", r, fmt.Sprint(i), nil)
					if err != nil {
						b.Fatal(err)
					}
					hunks = append(hunks, hs...)
				}
				if err := f.Step(hunks); err != nil {
					b.Fatal(err)
				}
				if r := f.result(); r.Additions != n || !strings.HasPrefix(r.Diff, "---") {
					b.Fatalf("wrong diff: +%d", r.Additions)
				}
			}
		})
	}
}
