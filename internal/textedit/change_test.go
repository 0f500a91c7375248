package textedit

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomChanges makes up to n random non-overlapping changes of a text of
// size bytes, in order.
func randomChanges(r *rand.Rand, size, n int) []Change {
	var out []Change
	at := 0
	for range n {
		if at > size {
			break
		}
		start := at + r.IntN(size-at+1)
		end := start
		if r.IntN(3) > 0 {
			end = start + r.IntN(size-start+1)
		}
		news := []string{"", "x", "yy\n", "zzz", "\n"}
		out = append(out, Change{Start: start, End: end, New: news[r.IntN(len(news))], Method: "exact"})
		at = end
		if start == end {
			at++ // no two insertions at one offset: their order is the caller's
		}
	}
	return out
}

// TestCompose checks Compose against splicing twice on random texts and
// changes: the result must make the same bytes, and be one valid step of
// the base.
func TestCompose(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		base := bytes.Repeat([]byte("ab\n"), r.IntN(6))
		first := randomChanges(r, len(base), r.IntN(4))
		mid, err := Splice(base, first)
		if err != nil {
			t.Fatal(err)
		}
		next := randomChanges(r, len(mid), r.IntN(4))
		want, err := Splice(mid, next)
		if err != nil {
			t.Fatal(err)
		}
		sorted, _ := Check(len(base), first)
		c := Compose(base, sorted, next)
		got, err := Splice(base, c)
		if err != nil {
			t.Fatalf("case %d: composed changes invalid: %v\nbase %q first %+v next %+v composed %+v", i, err, base, first, next, c)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d: composed %q, want %q\nbase %q first %+v next %+v composed %+v", i, got, want, base, first, next, c)
		}
	}
}

// FuzzCompose is TestCompose driven by the fuzzer's bytes.
func FuzzCompose(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		r := rand.New(rand.NewPCG(a, b))
		base := bytes.Repeat([]byte("a\r\nb"), r.IntN(5))
		first := randomChanges(r, len(base), r.IntN(5))
		mid, _ := Splice(base, first)
		next := randomChanges(r, len(mid), r.IntN(5))
		want, _ := Splice(mid, next)
		sorted, _ := Check(len(base), first)
		got, err := Splice(base, Compose(base, sorted, next))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("got %q (%v), want %q", got, err, want)
		}
	})
}

func TestCheckOverlap(t *testing.T) {
	_, err := Check(10, []Change{{Start: 2, End: 6, Edit: "edits[0]", Desc: "lines 1-2"}, {Start: 4, End: 5, Edit: "edits[1]", Desc: "line 2"}})
	if !errors.Is(err, ErrMalformed) || err.Error() != "edits[0]: lines 1-2 and edits[1] (line 2) overlap" {
		t.Fatalf("got %v", err)
	}
	if _, err := Check(10, []Change{{Start: 2, End: 6}, {Start: 6, End: 6}, {Start: 2, End: 2}}); err != nil {
		t.Fatalf("touching insertions refused: %v", err)
	}
}

func TestEOL(t *testing.T) {
	for _, c := range []struct {
		text string
		off  int
		want string
	}{
		{"a\r\nb\n", 0, "\r\n"},
		{"a\r\nb\n", 3, "\n"},
		{"a\r\nb", 4, "\r\n"},     // last line without an ending: the one before
		{"a\r\nb", 3, "\r\n"},     // the start of that line
		{"abc", 1, "\n"},          // no ending anywhere
		{"", 0, "\n"},             // empty
		{"x\r\ny\r\n", 6, "\r\n"}, // the end: the last line's
	} {
		if got := EOL([]byte(c.text), c.off); got != c.want {
			t.Errorf("EOL(%q, %d) = %q, want %q", c.text, c.off, got, c.want)
		}
	}
	if got := WithEOL("a\nb\r\nc", "\r\n"); got != "a\r\nb\r\nc" {
		t.Errorf("WithEOL: %q", got)
	}
}

func TestView(t *testing.T) {
	data := []byte("\xef\xbb\xbffirst\nsecond\n")
	v := NewView(data)
	if string(v.Text) != "first\nsecond\n" {
		t.Fatalf("text %q", v.Text)
	}
	// Line 1 replaced, an insertion at the top: the mark stays first.
	cs, err := v.Bytes([]Change{{Start: 0, End: 6, New: "ONE\n"}, {Start: 0, End: 0, New: "ZERO\n"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Splice(data, cs)
	if err != nil || string(got) != "\xef\xbb\xbfZERO\nONE\nsecond\n" {
		t.Fatalf("got %q %v", got, err)
	}
	if got, _ := v.Encode([]byte("whole\n")); string(got) != "\xef\xbb\xbfwhole\n" {
		t.Fatalf("encode %q", got)
	}
	if got, _ := v.Encode([]byte("\xef\xbb\xbfwhole\n")); string(got) != "\xef\xbb\xbfwhole\n" {
		t.Fatalf("encode of a text with its mark %q", got)
	}
	if v := NewView([]byte("plain")); len(v.Prefix) != 0 || string(must(v.Encode([]byte("x")))) != "x" {
		t.Fatal("a file without a mark has no prefix")
	}
}

// Splice copies a big result in two halves on two goroutines: whatever the
// hunks and wherever the middle falls (inside a hunk's new text, at a
// piece's edge, in an empty piece), the result is the naive one's.
func TestSpliceBigResultInHalves(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 7))
	base := make([]byte, parallelCopy+4096)
	for i := range base {
		base[i] = byte('a' + rng.IntN(26))
	}
	for round := 0; round < 200; round++ {
		n := rng.IntN(6)
		var cuts []int
		for i := 0; i < 2*n; i++ {
			cuts = append(cuts, rng.IntN(len(base)+1))
		}
		if round%4 == 0 && n > 0 {
			cuts[0] = len(base) / 2 // a hunk at the middle
		}
		slices.Sort(cuts)
		var hunks []Change
		for i := 0; i < n; i++ {
			size := rng.IntN(3) * rng.IntN(2<<20) // often empty, sometimes big
			hunks = append(hunks, Change{Start: cuts[2*i], End: cuts[2*i+1], New: strings.Repeat(string(rune('A'+i)), size)})
		}
		got, err := Splice(base, hunks)
		if err != nil {
			t.Fatal(err)
		}
		if want := spliceNaive(base, hunks); !bytes.Equal(got, want) {
			t.Fatalf("round %d: Apply differs from the naive result (%d hunks, %d vs %d bytes)", round, n, len(got), len(want))
		}
	}
	// copyPieces on its own, every split of a small concatenation.
	pieces := [][]byte{[]byte("ab"), nil, []byte("cde"), []byte(""), []byte("f"), []byte("ghij")}
	want := bytes.Join(pieces, nil)
	for mid := 0; mid <= len(want); mid++ {
		out := make([]byte, len(want))
		copyPieces(out, pieces, 0, mid)
		copyPieces(out, pieces, mid, len(want))
		if !bytes.Equal(out, want) {
			t.Fatalf("split at %d: %q", mid, out)
		}
	}
}

// spliceNaive is Splice written the obvious way, for comparison.
func spliceNaive(content []byte, changes []Change) []byte {
	sorted, _ := Check(len(content), changes)
	var out []byte
	at := 0
	for _, c := range sorted {
		out = append(out, content[at:c.Start]...)
		out = append(out, c.New...)
		at = c.End
	}
	return append(out, content[at:]...)
}

// Changes given in order come back from Check as the same slice, not a
// copy (a replaceAll of every line of a big file is one per line); changes
// out of order come back sorted in a copy, the input as it was.
func TestCheckKeepsChangesInOrder(t *testing.T) {
	in := []Change{{Start: 0, End: 1, New: "a"}, {Start: 2, End: 2, New: "b"}, {Start: 2, End: 3, New: "c"}}
	got, err := Check(5, in)
	if err != nil || &got[0] != &in[0] || len(got) != len(in) {
		t.Fatalf("in order: a copy or an error (%v)", err)
	}
	out := []Change{in[2], in[0], in[1]}
	got, err = Check(5, out)
	if err != nil || &got[0] == &out[0] {
		t.Fatalf("out of order: sorted in place or an error (%v)", err)
	}
	if got[0].New != "a" || got[1].New != "b" || got[2].New != "c" || out[0].New != "c" || out[1].New != "a" {
		t.Fatalf("sorted %v, input now %v", got, out)
	}
}

// Composed composes steps exactly as ComposeInto does, one step after
// another, whatever the blocks: the same changes, in the same order, with
// the same Locations, on random texts and steps, with blocks of one to
// four changes so that steps fall inside, across and between them.
func TestComposedIsComposeInto(t *testing.T) {
	defer func(b int) { composedBlock = b }(composedBlock)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 20000 {
		composedBlock = 1 + r.IntN(4)
		checkComposed(t, r, fmt.Sprintf("case %d", i), bytes.Repeat([]byte("ab\n"), 1+r.IntN(12)), 1+r.IntN(8))
	}
}

// FuzzComposed is TestComposedIsComposeInto driven by the fuzzer's bytes.
func FuzzComposed(f *testing.F) {
	f.Add(uint64(3), uint64(4))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		defer func(n int) { composedBlock = n }(composedBlock)
		r := rand.New(rand.NewPCG(a, b))
		composedBlock = 1 + r.IntN(4)
		checkComposed(t, r, "fuzz", bytes.Repeat([]byte("a\r\nb"), 1+r.IntN(8)), 1+r.IntN(10))
	})
}

// checkComposed composes steps of random changes of base in a Composed and
// with ComposeInto, and fails unless both give the same changes, in the
// same order, with the same Locations, after every step, without writing
// to a step's changes, and unless they make the text the steps made.
func checkComposed(t *testing.T, r *rand.Rand, name string, base []byte, steps int) {
	t.Helper()
	var c Composed
	var want []Change
	text := base
	for step := range steps {
		next := randomChanges(r, len(text), r.IntN(5))
		for k := range next {
			next[k].Line = step*10 + k // a Location to follow
		}
		given := slices.Clone(next)
		want = ComposeInto(nil, base, want, next)
		c.Add(base, next)
		if got := c.Changes(); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("%s step %d (blocks of %d): composed\n%+v\nwant\n%+v", name, step, composedBlock, got, want)
		}
		if c.Len() != len(want) {
			t.Fatalf("%s step %d: Len %d, want %d", name, step, c.Len(), len(want))
		}
		if !slices.Equal(next, given) {
			t.Fatalf("%s step %d: the step's changes were written to", name, step)
		}
		var err error
		if text, err = Splice(text, next); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := Splice(base, c.Changes()); !bytes.Equal(got, text) {
		t.Fatalf("%s: composed changes make %q, want %q", name, got, text)
	}
}

// DroppedLines reads Dropped back as the line numbers it names, and
// LineList writes them so.
func TestDroppedLines(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
	}{{"", nil}, {"7", []int{7}}, {"7, 9-10", []int{7, 9, 10}}, {"3-5, 12, 40-41", []int{3, 4, 5, 12, 40, 41}}} {
		if got := (Location{Dropped: c.in}).DroppedLines(); !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.in, got, c.want)
		}
		var zero []int // LineList takes 0-based lines
		for _, n := range c.want {
			zero = append(zero, n-1)
		}
		if got := LineList(zero); got != c.in {
			t.Errorf("LineList(%v) = %q, want %q", zero, got, c.in)
		}
	}
}
