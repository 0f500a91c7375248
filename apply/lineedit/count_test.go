package lineedit

import "testing"

// Count agrees with Split on every shape of text: empty, one line with
// and without its break, CRLF, blank lines, a lone break.
func TestCountIsLenSplit(t *testing.T) {
	for _, s := range []string{"", "a", "a\n", "a\nb", "a\nb\n", "\n", "\n\n", "a\r\nb\r\n", "a\n\nb\n\n"} {
		if got, want := Count(s), len(Split(s)); got != want {
			t.Errorf("Count(%q) = %d, len(Split) = %d", s, got, want)
		}
	}
}
