package indent

import (
	"strings"
	"testing"
)

func unitOf(text string) int {
	lines := strings.Split(text, "\n")
	return Unit(len(lines), func(i int) []byte { return []byte(lines[i]) })
}

func TestUnit(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"a\n  b\n    c\n  d\n", 2},
		{"a\n    b\n        c\n", 4},
		{"def f():\n    x = 1\n    if x:\n        y()\n", 4},
		{"a\n\tb\n\t\tc\n", 0},                     // tabs: no space unit
		{"/**\n * doc\n */\nf() {\n  g()\n}\n", 2}, // comment continuations left out
		{"a\n b\n  c\n   d\n", 0},                  // one-column steps are alignment
		{"a\n  b\n    c\na\n    b\n", 2},           // a tie goes to the smaller step
		{"", 0},
	} {
		if got := unitOf(c.text); got != c.want {
			t.Errorf("Unit(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}
