package apply

import (
	"bytes"
	"math/rand"
	"testing"
)

// refStarts is the plain definition lineIndex computes lazily.
func refStarts(content []byte) []int {
	var starts []int
	for off := 0; off < len(content); {
		starts = append(starts, off)
		i := bytes.IndexByte(content[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	return starts
}

// The lazy index, from the top or windowed, answers every question, in any
// order, as a complete one would: start, end, lineAt and count, on
// contents with and without a final newline, empty lines, CRLF and no
// newline at all.
func TestLineIndexLazy(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	alphabet := []byte("ab\n\r\n")
	for round := 0; round < 2000; round++ {
		content := make([]byte, r.Intn(40))
		for i := range content {
			content[i] = alphabet[r.Intn(len(alphabet))]
		}
		starts := refStarts(content)
		ix := newLineIndex(content)
		if round%2 == 1 {
			ix = newLineIndexFrom(content, r.Intn(len(content)+1), r.Intn(3))
		}
		for q := 0; q < 20; q++ {
			switch r.Intn(3) {
			case 0:
				n := 1 + r.Intn(len(starts)+2)
				want := len(content)
				if n <= len(starts) {
					want = starts[n-1]
				}
				if got := ix.start(n); got != want {
					t.Fatalf("%q: start(%d) = %d, want %d", content, n, got, want)
				}
			case 1:
				off := r.Intn(len(content) + 1)
				want := 0
				for _, s := range starts {
					if s <= off {
						want++
					}
				}
				if want == 0 {
					want = 1
				}
				if got := ix.lineAt(off); got != want {
					t.Fatalf("%q: lineAt(%d) = %d, want %d", content, off, got, want)
				}
			default:
				if got := ix.count(); got != len(starts) {
					t.Fatalf("%q: count() = %d, want %d", content, got, len(starts))
				}
			}
		}
	}
}

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
		var hunks []Hunk
		at := 0
		for at < len(old) && r.Intn(3) > 0 {
			start := at + r.Intn(len(old)-at+1)
			end := start + r.Intn(len(old)-start+1)
			hunks = append(hunks, Hunk{Start: start, End: end, New: []string{"", "x\n", "y", "z\nw\n"}[r.Intn(4)]})
			at = end + 1
		}
		if len(hunks) == 0 {
			continue
		}
		cur, err := Apply(old, hunks)
		if err != nil {
			continue
		}
		sorted, _ := sortHunks(len(old), hunks)
		fa, fb := newLineIndex(old), newLineIndex(cur)
		want := unified("a", "b", fa, fb, editsFromHunks(fa, fb, sorted))
		wa := newLineIndexFrom(old, sorted[0].Start, contextLines+1)
		wb := newLineIndexFrom(cur, sorted[0].Start, contextLines+1)
		if got := unified("a", "b", wa, wb, editsFromHunks(wa, wb, sorted)); got != want {
			t.Fatalf("%q %+v:\nwindowed:\n%s\nfull:\n%s", old, hunks, got, want)
		}
	}
}
