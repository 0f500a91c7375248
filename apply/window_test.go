package apply

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/graftdev/graft/internal/textedit"

	"github.com/graftdev/graft/internal/lineindex"
)

func TestCommonPrefixSuffix(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for round := 0; round < 300; round++ {
		a := bytes.Repeat([]byte("x"), r.Intn(20000))
		b := append([]byte(nil), a...)
		if len(b) > 0 && r.Intn(2) == 0 {
			b[r.Intn(len(b))] = 'y'
		}
		b = append(b, bytes.Repeat([]byte("z"), r.Intn(3))...)
		p, q := 0, 0
		for p < len(a) && p < len(b) && a[p] == b[p] {
			p++
		}
		for q < len(a) && q < len(b) && a[len(a)-1-q] == b[len(b)-1-q] {
			q++
		}
		if got := commonPrefix(a, b); got != p {
			t.Fatalf("prefix %d, want %d", got, p)
		}
		if got := commonSuffix(a, b); got != q {
			t.Fatalf("suffix %d, want %d", got, q)
		}
	}
}

// A diff rendered from windowed indexes is the one rendered from full
// ones, for random hunks on random contents.
func TestWindowedDiffSameAsFull(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	for round := 0; round < 3000; round++ {
		var old []byte
		for i, n := 0, r.Intn(30); i < n; i++ {
			old = append(old, []byte([]string{"a\n", "b\n", "\n", "c\r\n", "dd"}[r.Intn(5)])...)
		}
		var hunks []textedit.Change
		at := 0
		for at < len(old) && r.Intn(3) > 0 {
			start := at + r.Intn(len(old)-at+1)
			end := start + r.Intn(len(old)-start+1)
			hunks = append(hunks, textedit.Change{Start: start, End: end, New: []string{"", "x\n", "y", "z\nw\n"}[r.Intn(4)]})
			at = end + 1
		}
		if len(hunks) == 0 {
			continue
		}
		cur, err := textedit.Splice(old, hunks)
		if err != nil {
			continue
		}
		sorted, _ := textedit.Check(len(old), hunks)
		fa, fb := lineindex.New(old), lineindex.New(cur)
		want := unified("a", "b", fa, fb, editsFromHunks(fa, fb, sorted))
		wa := lineindex.Window(old, sorted[0].Start, contextLines+1)
		wb := lineindex.Window(cur, sorted[0].Start, contextLines+1)
		if got := unified("a", "b", wa, wb, editsFromHunks(wa, wb, sorted)); got != want {
			t.Fatalf("%q %+v:\nwindowed:\n%s\nfull:\n%s", old, hunks, got, want)
		}
	}
}
