package apply

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
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
		for _, i := range []int{0, 8, 9, 99, 12345, len(changes) - 1} {
			if c := changes[i]; c.Desc != fmt.Sprintf("text at line %d", c.Line) || c.Line != i+1 {
				t.Fatalf("%s: change %d says %q (line %d)", name, i, c.Desc, c.Line)
			}
		}
		if err := f.Step(changes); err != nil {
			t.Fatal(err)
		}
		bom := name == "bom.txt"
		if held := &f.composed.Changes()[0] == &changes[0]; held == bom {
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
		if f.composed.Len() > 0 && &f.composed.Changes()[0] == &changes[0] {
			t.Fatalf("%s: the composed changes are the format's slice", name)
		}
		l, err := tx.Land(context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		if f.composed.Len() != 0 {
			t.Errorf("%s: %d located changes still held after the diff", name, f.composed.Len())
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

// A file's Locations are held as their lines and the index of what else
// they say (a replaceAll of every line of a 60 MB file made 750,000 of
// 88 bytes each), and come back as they were added, in order: runs of one
// kind, kinds that alternate, and lines past int32.
func TestLocatedListKeepsEveryLocation(t *testing.T) {
	var want []Located
	for i := range 5000 {
		want = append(want, Located{Line: i + 1, EndLine: i + 1, Method: "exact", Similarity: 1})
	}
	want = append(want,
		Located{Edit: "edits[1]", Line: 3, EndLine: 9, Method: "indentation", Similarity: 0.9, Reindented: "+4"},
		Located{Edit: "edits[2]", Line: 3, EndLine: 3, Method: "symbol", Similarity: 1, Symbol: "T.m"},
		Located{Edit: "edits[1]", Line: 4, EndLine: 9, Method: "indentation", Similarity: 0.9, Reindented: "+4"},
		Located{Line: 1 << 40, EndLine: 1<<40 + 2, Method: "lines", Similarity: 1},
		Located{Line: 7, EndLine: 7, Method: "exact", Similarity: 1},
	)
	var l locatedList
	for _, loc := range want {
		l.add(loc)
	}
	got := l.all()
	if len(got) != len(want) {
		t.Fatalf("%d locations, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("location %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if len(l.kinds) > 6 {
		t.Errorf("%d kinds held for 5,000 alike and 5 others", len(l.kinds))
	}
	var empty locatedList
	if h := empty.all(); h == nil || len(h) != 0 {
		t.Error("no locations: want an empty list, not nil (the result's JSON says [])")
	}
}

// Steps after the first make the content from the content before them
// (not from every change since the call began): after each of many
// random edits of a small and a big file, in any order, the content is
// what the composed changes make of the file as it was, and the call's
// result is the same as edit by edit.
func TestManyStepsMakeTheComposedContent(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, lines := range []int{300, (partsBytes + 4096) / 20} {
		var b strings.Builder
		for i := range lines {
			fmt.Fprintf(&b, "line %07d here\n", i)
		}
		dir := gittest.Repo(t, map[string]string{"f.txt": b.String()})
		e, err := Open(Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		tx := e.Begin("multi_edit", true)
		want := b.String()
		for step := range 200 {
			i := r.IntN(lines)
			old := fmt.Sprintf("line %07d here\n", i)
			if strings.Count(want, old) != 1 {
				continue
			}
			next := []string{"", "x\n", old + old, strings.ToUpper(old)}[r.IntN(4)]
			if next == old {
				continue
			}
			if err := tx.editString("f.txt", fmt.Sprintf("edits[%d]", step), old, next, false, ""); err != nil {
				t.Fatal(err)
			}
			want = strings.Replace(want, old, next, 1)
			f := tx.byRel["f.txt"]
			if got := string(f.Content()); got != want {
				t.Fatalf("%d lines, step %d: content differs", lines, step)
			}
			if got, err := textedit.Splice(f.Old, f.composed.Changes()); err != nil || string(got) != want {
				t.Fatalf("%d lines, step %d: the composed changes make another content (%v)", lines, step, err)
			}
		}
		if _, err := tx.Land(context.Background(), ""); err != nil {
			t.Fatal(err)
		}
	}
}

// A replaceAll's changes are made as the matcher finds its matches
// (locateAll), not from a list of them: the same changes as
// stringChanges of locate's matches, and the same refusals.
func TestLocateAllIsStringChangesOfLocate(t *testing.T) {
	content := []byte("func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\r\nx = 1\n")
	big := []byte(strings.Repeat("a line\n", 5000))
	e := &Engine{}
	cases := []struct {
		content  []byte
		old, new string
	}{
		{content, "return 1", "return 2"},
		{content, "func b() {\n    return 1\n}", "func b() {\n\treturn 3\n}"}, // a fuzzy tier, once
		{content, "1", "one\nline"},
		{content, "nowhere", "x"},
		{content, "", "x"},
		{big, "a", "b"},
		{big, "line\n", "l\r\n"},
	}
	for _, c := range cases {
		ms, lerr := locate(c.content, c.old, c.new, true, e.matchOptions(0), "edits[1]")
		got, err := locateAll(c.content, c.old, c.new, e.matchOptions(0), "edits[1]")
		if (err == nil) != (lerr == nil) || err != nil && err.Error() != lerr.Error() {
			t.Fatalf("%q: error %v, want %v", c.old, err, lerr)
		}
		if lerr != nil {
			continue
		}
		if want := stringChanges(c.content, ms, c.new, "edits[1]"); !slices.Equal(got, want) {
			t.Fatalf("%q: %d changes, want %d; first %+v, want %+v", c.old, len(got), len(want), got[0], want[0])
		}
	}
}
