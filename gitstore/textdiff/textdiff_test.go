package textdiff

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"strings"
	"testing"
)

// apply rebuilds b from a and the edits.
func apply(a, b []byte, edits []Edit) []byte {
	x, y := Split(a), Split(b)
	var out []byte
	at := 0
	for _, e := range edits {
		for ; at < e.A0; at++ {
			out = append(out, x[at]...)
		}
		for j := e.B0; j < e.B1; j++ {
			out = append(out, y[j]...)
		}
		at = e.A1
	}
	for ; at < len(x); at++ {
		out = append(out, x[at]...)
	}
	return out
}

func TestLines(t *testing.T) {
	cases := [][2]string{
		{"", ""}, {"", "a\n"}, {"a\n", ""}, {"a\nb\nc\n", "a\nB\nc\n"}, {"a\nb", "a\nb\n"},
		{"a\r\nb\r\n", "a\nb\n"}, {"1\n2\n3\n4\n5\n6\n7\n8\n9\n", "0\n1\n2\n4\n5\n6\nx\n8\n9\n10\n"},
	}
	for _, c := range cases {
		a, b := []byte(c[0]), []byte(c[1])
		if got := apply(a, b, Lines(a, b)); !bytes.Equal(got, b) {
			t.Errorf("Lines(%q, %q) rebuilds %q", a, b, got)
		}
	}
	if e := Lines([]byte("a\nb\nc\n"), []byte("a\nx\nc\n")); len(e) != 1 || e[0] != (Edit{1, 2, 1, 2}) {
		t.Errorf("one changed line: %+v", e)
	}
}

// FuzzLines checks that the edits always rebuild b, are ordered and do not
// touch one another.
func FuzzLines(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), []byte("a\nc\nd\n"))
	f.Add([]byte("x\r\ny"), []byte("x\ny\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		edits := Lines(a, b)
		if got := apply(a, b, edits); !bytes.Equal(got, b) {
			t.Fatalf("rebuilt %q, want %q", got, b)
		}
		for i := 1; i < len(edits); i++ {
			if edits[i].A0 <= edits[i-1].A1 && edits[i].B0 <= edits[i-1].B1 {
				t.Fatalf("edits touch: %+v", edits)
			}
		}
	})
}

// TestLinesWhenHashesCollide makes every line hash alike: the edits must
// be those of distinct hashes, since lines are compared whenever their
// hashes agree.
func TestLinesWhenHashesCollide(t *testing.T) {
	a := []byte("a\nb\nc\nd\ne\nf\n")
	b := []byte("a\nB\nc\nd\nE\nf\ng\n")
	want := Lines(a, b)
	defer func(h func(maphash.Seed, []byte) uint64) { lineHash = h }(lineHash)
	lineHash = func(maphash.Seed, []byte) uint64 { return 7 }
	got := Lines(a, b)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("all hashes alike: %+v, want %+v", got, want)
	}
	if r := apply(a, b, got); !bytes.Equal(r, b) {
		t.Errorf("all hashes alike: rebuilds %q", r)
	}
}

// BenchmarkLines diffs a file of 200,000 distinct lines in which 20 lines
// changed, spread over it: the common case of a big file's diff.
func BenchmarkLines(b *testing.B) {
	var old, new bytes.Buffer
	for i := range 200_000 {
		line := fmt.Sprintf("line %d of the file, with some words after it\n", i)
		old.WriteString(line)
		if i%10_000 == 5_000 {
			line = fmt.Sprintf("changed line %d\n", i)
		}
		new.WriteString(line)
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(Lines(old.Bytes(), new.Bytes())) != 20 {
			b.Fatal("want 20 edits")
		}
	}
}

func TestWriteFile(t *testing.T) {
	var w strings.Builder
	WriteFile(&w, "a/f", "b/f", []byte("x\ny\n"), []byte("x\ny\n"))
	if w.Len() != 0 {
		t.Fatalf("no line changed, wrote %q", w.String())
	}
	WriteFile(&w, "a/f", "b/f", []byte("x\ny\n"), []byte("x\nz"))
	if want := "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n\\ No newline at end of file\n"; w.String() != want {
		t.Fatalf("wrote %q, want %q", w.String(), want)
	}
}
