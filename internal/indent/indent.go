// Package indent reads the width of one level of a file's space
// indentation, the one way graft reads it: the matcher (which re-indents
// an edit's new text when the old text was found shifted) and the line
// edits (which re-indent new content to its context) both ask this
// package, so they never disagree about a file.
package indent

// MaxLines bounds the lines Unit reads: the first ones of a file tell its
// style, and a call on a big file stays cheap.
const MaxLines = 2000

// Unit is the width of one level of space indentation that the first n
// lines show (n at most MaxLines is read): the most common step, 2 to 8
// columns, from one space-indented line to the next deeper one; blank
// lines, tab-indented lines and block-comment continuations (" * ...")
// are left out, and steps of one column (alignment) do not count. Ties go
// to the smaller step. 0 when the lines show no step; callers choose
// their own default then. line(i) is line i (0-based) without its break.
func Unit(n int, line func(i int) []byte) int {
	n = min(n, MaxLines)
	var count [9]int
	prev := -1
	for i := 0; i < n; i++ {
		t := line(i)
		ind := 0
		for ind < len(t) && (t[ind] == ' ' || t[ind] == '\t') {
			ind++
		}
		if ind == len(t) {
			continue // blank
		}
		if ind > 0 && t[0] == '\t' || t[ind] == '*' {
			continue // tabs, or a block comment's continuation
		}
		if d := ind - prev; prev >= 0 && d >= 2 && d < len(count) {
			count[d]++
		}
		prev = ind
	}
	best := 0
	for d := 2; d < len(count); d++ {
		if count[d] > count[best] {
			best = d
		}
	}
	return best
}

// Columns is the width of an indentation with tab stops every w columns.
func Columns(ind string, w int) int {
	c := 0
	for i := 0; i < len(ind); i++ {
		if ind[i] == '\t' {
			c += w - c%w
		} else {
			c++
		}
	}
	return c
}
