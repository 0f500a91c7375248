package apply

import (
	"context"
	"strings"
	"testing"

	"github.com/graftdev/graft/gitstore/gittest"
	"github.com/graftdev/graft/internal/textedit"
)

// A replaceAll of every line of a big file makes as many located changes
// as the file has lines (750,000 for 60 MB): the file holds them once. A
// step's changes given in order are kept as they came (no sorted copy, no
// composed copy), a later step composes them into memory of the file's
// own (the format's slice is never written to), and Land lets them go
// once the diff's regions are known, before the line diff runs, with the
// same diff and content as before (issue 32 item 10).
func TestLocatedChangesHeldOnce(t *testing.T) {
	line := "a" + strings.Repeat("x", 38) + "\n"
	content := strings.Repeat(line, (partsBytes+maxWindow)/len(line)+10)
	dir := gittest.Repo(t, map[string]string{"big.txt": content, "bom.txt": "\uFEFF" + content})
	e, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"big.txt", "bom.txt"} {
		tx := e.Begin("edit", true)
		f, err := tx.Open(name, "", false)
		if err != nil {
			t.Fatal(err)
		}
		base := f.Text()
		matches, err := locate(base, "a", "b", true, e.matchOptions(0), "")
		if err != nil {
			t.Fatal(err)
		}
		changes := stringChanges(base, matches, "b", "")
		given := append([]textedit.Change(nil), changes...)
		if err := f.Step(changes); err != nil {
			t.Fatal(err)
		}
		bom := name == "bom.txt"
		if held := &f.changes[0] == &changes[0]; held == bom {
			t.Fatalf("%s: the step's changes held as given: %v; want %v (a view that maps them needs a copy)", name, held, !bom)
		}
		// A second step: composed into the file's own memory.
		if err := f.Step([]textedit.Change{{Start: 0, End: 1, New: "Z", Method: "lines", Line: 1, EndLine: 1}}); err != nil {
			t.Fatal(err)
		}
		for i := range changes {
			if changes[i] != given[i] {
				t.Fatalf("%s: the format's change %d was written to: %+v, was %+v", name, i, changes[i], given[i])
			}
		}
		if len(f.changes) > 0 && &f.changes[0] == &changes[0] {
			t.Fatalf("%s: the composed changes are the format's slice", name)
		}
		l, err := tx.Land(context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		if f.changes != nil {
			t.Errorf("%s: %d located changes still held after the diff", name, len(f.changes))
		}
		want := "Z" + strings.ReplaceAll(content, "a", "b")[1:]
		if bom {
			want = "\uFEFF" + want
		}
		if got := string(f.Content()); got != want {
			t.Fatalf("%s: content differs from the expected rewrite", name)
		}
		if d := l.Files[0].Diff; strings.Count(d, "\n+b") != strings.Count(content, "\n")-1 || !strings.Contains(d, "Zx") {
			t.Errorf("%s: the diff lost lines (%d added lines)", name, strings.Count(d, "\n+"))
		}
	}
}
