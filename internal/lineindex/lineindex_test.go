package lineindex

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// naive is the plain definition an Index computes: the starts of the
// lines and their texts, by splitting.
type naive struct {
	starts []int
	texts  []string
	eols   []string
}

func naiveOf(content string) naive {
	var nv naive
	for off := 0; off < len(content); {
		nv.starts = append(nv.starts, off)
		line := content[off:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		off += len(line)
		eol := ""
		switch {
		case strings.HasSuffix(line, "\r\n"):
			eol = "\r\n"
		case strings.HasSuffix(line, "\n"):
			eol = "\n"
		}
		nv.texts = append(nv.texts, strings.TrimSuffix(line, eol))
		nv.eols = append(nv.eols, eol)
	}
	return nv
}

// lineAt is the line holding off by counting the starts at or before it.
func (nv naive) lineAt(off int) int {
	n := 0
	for _, s := range nv.starts {
		if s <= off {
			n++
		}
	}
	return max(n, 1)
}

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		content string
		texts   []string
		eols    []string
	}{
		{"", nil, nil},
		{"\n", []string{""}, []string{"\n"}},
		{"a", []string{"a"}, []string{""}},
		{"a\n", []string{"a"}, []string{"\n"}},
		{"a\nb", []string{"a", "b"}, []string{"\n", ""}},
		{"a\nb\n", []string{"a", "b"}, []string{"\n", "\n"}},
		{"a\r\nb\r\n", []string{"a", "b"}, []string{"\r\n", "\r\n"}},
		{"a\r\n\r\nb", []string{"a", "", "b"}, []string{"\r\n", "\r\n", ""}},
		{"a\rb\n", []string{"a\rb"}, []string{"\n"}},
		{"a\r", []string{"a\r"}, []string{""}},
		{"\r", []string{"\r"}, []string{""}},
		{"a\r\r\n", []string{"a\r"}, []string{"\r\n"}},
		{"\n\n\n", []string{"", "", ""}, []string{"\n", "\n", "\n"}},
	} {
		for _, mk := range makers(tc.content) {
			x := mk.make()
			name := fmt.Sprintf("%q/%s", tc.content, mk.name)
			if got := x.Count(); got != len(tc.texts) {
				t.Fatalf("%s: Count() = %d, want %d", name, got, len(tc.texts))
			}
			for i, want := range tc.texts {
				if got := string(x.Text(i + 1)); got != want {
					t.Errorf("%s: Text(%d) = %q, want %q", name, i+1, got, want)
				}
				if got := x.EOL(i + 1); got != tc.eols[i] {
					t.Errorf("%s: EOL(%d) = %q, want %q", name, i+1, got, tc.eols[i])
				}
				if got := x.HasEOL(i + 1); got != (tc.eols[i] != "") {
					t.Errorf("%s: HasEOL(%d) = %v", name, i+1, got)
				}
			}
			n := len(tc.texts)
			if got := x.Start(n + 1); got != len(tc.content) {
				t.Errorf("%s: Start(Count()+1) = %d, want %d", name, got, len(tc.content))
			}
			if got := x.Text(n + 1); len(got) != 0 {
				t.Errorf("%s: Text(Count()+1) = %q, want nothing", name, got)
			}
			if got := x.EOL(n + 1); got != "" {
				t.Errorf("%s: EOL(Count()+1) = %q, want nothing", name, got)
			}
			if got, want := x.LineAt(len(tc.content)), max(n, 1); got != want {
				t.Errorf("%s: LineAt(end) = %d, want %d", name, got, want)
			}
		}
	}
}

type maker struct {
	name string
	make func() *Index
}

// makers are the ways to index content, windows at every offset included.
func makers(content string) []maker {
	c := []byte(content)
	ms := []maker{
		{"new", func() *Index { return New(c) }},
		{"eager", func() *Index { return Eager(c) }},
	}
	for off := 0; off <= len(c); off++ {
		for before := 0; before < 3; before++ {
			ms = append(ms, maker{fmt.Sprintf("window(%d,%d)", off, before), func() *Index { return Window(c, off, before) }})
		}
	}
	return ms
}

// A windowed index asked about a line before its window indexes from the
// top and answers as a full one.
func TestWindowEarlierLine(t *testing.T) {
	content := []byte(strings.Repeat("line\n", 100))
	x := Window(content, 50*5+2, 1) // line 51, backed up to line 50
	if x.first != 50 {
		t.Fatalf("window starts at line %d, want 50", x.first)
	}
	if got := x.Start(60); got != 59*5 {
		t.Fatalf("Start(60) = %d, want %d", got, 59*5)
	}
	if x.first != 50 {
		t.Fatalf("a question inside the window rewound it")
	}
	if got := x.Start(3); got != 10 {
		t.Fatalf("Start(3) = %d, want 10", got)
	}
	if got := x.LineAt(7); got != 2 {
		t.Fatalf("LineAt(7) = %d, want 2", got)
	}
	y := Window(content, 90*5, 0)
	if got := y.LineAt(12); got != 3 {
		t.Fatalf("windowed LineAt(12) = %d, want 3", got)
	}
	if got := y.Count(); got != 100 {
		t.Fatalf("Count() = %d, want 100", got)
	}
}

// A question near the top of a big content never scans the rest.
func TestLazy(t *testing.T) {
	content := bytes.Repeat([]byte("0123456789\n"), 100_000)
	x := New(content)
	if got := x.Text(3); string(got) != "0123456789" {
		t.Fatalf("Text(3) = %q", got)
	}
	if got := x.LineAt(25); got != 3 {
		t.Fatalf("LineAt(25) = %d, want 3", got)
	}
	if len(x.starts) > 5 || x.done {
		t.Fatalf("asking about line 3 scanned %d lines", len(x.starts))
	}
	w := Window(content, 50_000*11, 2)
	if got := w.Text(50_001); string(got) != "0123456789" {
		t.Fatalf("Text(50001) = %q", got)
	}
	if len(w.starts) > 5 || w.done {
		t.Fatalf("asking about line 50001 in a window scanned %d lines", len(w.starts))
	}
}

// LineAt at every offset, and every accessor on every line, agree with
// the naive definition, however the index was made and in whatever order
// it is asked.
func TestAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	alphabet := []byte("ab\n\r\n")
	for round := 0; round < 300; round++ {
		content := make([]byte, r.Intn(30))
		for i := range content {
			content[i] = alphabet[r.Intn(len(alphabet))]
		}
		for _, mk := range makers(string(content)) {
			check(t, content, mk.make(), r)
		}
	}
}

func check(t *testing.T, content []byte, x *Index, r *rand.Rand) {
	t.Helper()
	nv := naiveOf(string(content))
	n := len(nv.starts)
	for q := 0; q < 3*(len(content)+2); q++ {
		switch r.Intn(4) {
		case 0:
			off := r.Intn(len(content) + 2)
			if got, want := x.LineAt(off), nv.lineAt(off); got != want {
				t.Fatalf("%q: LineAt(%d) = %d, want %d", content, off, got, want)
			}
		case 1:
			l := r.Intn(n + 3)
			want := len(content)
			if l == 0 {
				want = 0
			} else if l <= n {
				want = nv.starts[l-1]
			}
			if got := x.Start(l); got != want {
				t.Fatalf("%q: Start(%d) = %d, want %d", content, l, got, want)
			}
		case 2:
			l := 1 + r.Intn(n+2)
			want, eol := "", ""
			if l <= n {
				want, eol = nv.texts[l-1], nv.eols[l-1]
			}
			if got := string(x.Text(l)); got != want {
				t.Fatalf("%q: Text(%d) = %q, want %q", content, l, got, want)
			}
			if got := x.EOL(l); got != eol {
				t.Fatalf("%q: EOL(%d) = %q, want %q", content, l, got, eol)
			}
			if got, want := x.End(l), x.Start(l)+len(want)+len(eol); got != want {
				t.Fatalf("%q: End(%d) = %d, want %d", content, l, got, want)
			}
		default:
			if got := x.Count(); got != n {
				t.Fatalf("%q: Count() = %d, want %d", content, got, n)
			}
		}
	}
	for off := 0; off <= len(content); off++ {
		if got, want := x.LineAt(off), nv.lineAt(off); got != want {
			t.Fatalf("%q: LineAt(%d) = %d, want %d", content, off, got, want)
		}
	}
}

// FuzzAgainstNaive compares every way of making an index with a naive
// split of the content.
func FuzzAgainstNaive(f *testing.F) {
	for _, s := range []string{"", "\n", "a", "a\nb", "a\r\nb\r\n", "\r", "a\r\r\n\n", "x\n\ny\n"} {
		f.Add([]byte(s), uint16(0), int64(1))
	}
	f.Fuzz(func(t *testing.T, content []byte, off uint16, seed int64) {
		if len(content) > 4096 {
			return
		}
		r := rand.New(rand.NewSource(seed))
		o := int(off) % (len(content) + 1)
		check(t, content, New(content), r)
		check(t, content, Eager(content), r)
		check(t, content, Window(content, o, int(off)%4), r)
	})
}

func BenchmarkText(b *testing.B) {
	content := bytes.Repeat([]byte("\tfoo(bar, baz)\r\n"), 100_000)
	x := Eager(content)
	n := x.Count()
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		total := 0
		for i := 1; i <= n; i++ {
			total += len(x.Text(i))
		}
		if total != n*len("\tfoo(bar, baz)") {
			b.Fatal("wrong total")
		}
	}
}

// TestLineAtAndSkip: walking lines from an offset reads them as an Index
// does.
func TestLineAtAndSkip(t *testing.T) {
	for _, c := range []string{"", "a", "a\n", "a\r\nb", "a\n\nb\r\n", "\r\n\n", "x\ry\n"} {
		ix := New([]byte(c))
		off := 0
		for n := 1; n <= ix.Count(); n++ {
			if off != ix.Start(n) {
				t.Fatalf("%q: line %d starts at %d, Index says %d", c, n, off, ix.Start(n))
			}
			te, next := LineAt([]byte(c), off)
			if string(ix.Text(n)) != c[off:te] || next != ix.End(n) {
				t.Fatalf("%q: line %d: LineAt %d,%d, Index text %q end %d", c, n, te, next, ix.Text(n), ix.End(n))
			}
			if s := Skip([]byte(c), 0, n-1); s != off {
				t.Fatalf("%q: Skip to line %d = %d, want %d", c, n, s, off)
			}
			off = next
		}
		if off != len(c) || Skip([]byte(c), 0, ix.Count()+3) != len(c) {
			t.Fatalf("%q: walked to %d of %d", c, off, len(c))
		}
	}
}

// TestOutOfRange: a line before the first or after the last is empty,
// never a panic.
func TestOutOfRange(t *testing.T) {
	for _, ix := range []*Index{New([]byte("a\nb\n")), Eager([]byte("a\nb\n")), New(nil)} {
		for _, n := range []int{-5, -1, 0, 3, 100} {
			if got := ix.Text(n); len(got) != 0 {
				t.Errorf("Text(%d) = %q, want empty", n, got)
			}
		}
	}
}
