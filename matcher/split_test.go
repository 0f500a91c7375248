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
