package matcher

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"
)

// The split search of big contents finds exactly what one pass finds,
// whatever the occurrences do at the split: straddle it, start on it,
// overlap across it.
func TestExactStartsSplitAgreesWithOnePass(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, size := range []int{parallelSearchBytes, parallelSearchBytes + 1, parallelSearchBytes + 12345} {
		for _, needle := range []string{"a", "aa", "abcab", "needle in the hay\n"} {
			content := bytes.Repeat([]byte("xyz\n"), size/4+1)[:size]
			mid := len(content) / 2
			for _, at := range []int{0, mid - len(needle), mid - len(needle) + 1, mid - 1, mid, mid + 1, len(content) - len(needle), rng.Intn(len(content) - len(needle))} {
				if at >= 0 {
					copy(content[at:], needle)
				}
			}
			// A run of the needle's first byte across the split: overlapping
			// occurrences of "a" and "aa".
			for i := mid - 3; i < mid+3; i++ {
				content[i] = 'a'
			}
			want := searchFrom(content, []byte(needle), 0, true)
			got := exactStarts(content, []byte(needle), true)
			if !slices.Equal(got, want) {
				t.Errorf("size %d needle %q: split search %v, one pass %v", size, needle, got, want)
			}
			if len(want) == 0 {
				t.Errorf("size %d needle %q: the test placed no occurrence", size, needle)
			}
		}
	}
}

// index, anchored on the needle's rarest byte, finds what bytes.Index
// finds: first occurrences at every place, with the rare byte common in the
// content (so that it hands over to bytes.Index), at the edges, and for
// needles whose rare byte is first, last or repeated.
func TestIndexAgreesWithBytesIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	alphabets := []string{"ab", "abc\n", " \tx:", "e t\nZ", "aaaaaaaaZ"}
	for round := 0; round < 20000; round++ {
		alpha := alphabets[rng.Intn(len(alphabets))]
		s := make([]byte, rng.Intn(300))
		for i := range s {
			s[i] = alpha[rng.Intn(len(alpha))]
		}
		var needle []byte
		if len(s) > 0 && rng.Intn(3) > 0 {
			a := rng.Intn(len(s))
			needle = slices.Clone(s[a:min(len(s), a+1+rng.Intn(12))])
		} else {
			needle = make([]byte, 1+rng.Intn(6))
			for i := range needle {
				needle[i] = alpha[rng.Intn(len(alpha))]
			}
		}
		rare := rarestByte(needle)
		if got, want := index(s, needle, rare), bytes.Index(s, needle); got != want {
			t.Fatalf("index(%q, %q, %d) = %d, bytes.Index says %d", s, needle, rare, got, want)
		}
	}
	// Many misses: the rare byte everywhere, the needle nowhere until the end.
	s := append(bytes.Repeat([]byte("Z"), 100000), "xZy"...)
	if got := index(s, []byte("xZy"), 1); got != 100000 {
		t.Fatalf("index after many misses = %d", got)
	}
	if r := rarestByte([]byte("\treturn x:")); r != 9 {
		t.Fatalf("rarest byte of a tab-indented line at %d, want the colon", r)
	}
}

func TestStripLineNumbers(t *testing.T) {
	for _, c := range []struct {
		lines []string
		want  []string // nil: not a numbered view
	}{
		{[]string{"12: a", "13:", "14:   b"}, []string{"a", "", "  b"}},
		{[]string{"    12\ta", "    13\tb"}, []string{"a", "b"}},
		{[]string{"7\u2192x", "8\u2192"}, []string{"x", ""}},
		{[]string{"12: a", "14: b"}, nil},   // not consecutive
		{[]string{"12: a", "13\tb"}, nil},   // two forms
		{[]string{"12: a", "b"}, nil},       // a line without
		{[]string{"1:2"}, nil},              // "1:2" is text, not "1: "
		{[]string{"x := 1", "y := 2"}, nil}, // no numbers
		{[]string{"2024: year"}, []string{"year"}},
	} {
		got, _ := stripLineNumbers(c.lines)
		if !slices.Equal(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("%q: got %q, want %q", c.lines, got, c.want)
		}
	}
}
