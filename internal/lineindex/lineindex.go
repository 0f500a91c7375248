// Package lineindex maps a content's bytes to its lines, the one way graft
// reads lines: apply's engine, its diffs, line tools, reads and symbol
// edits, the snippet planner, syntax diagnostics, outlines and the
// matcher's fuzzy tiers all ask an Index (and a patch hunk walks the few
// lines it needs from its stated place with LineAt and Skip), so they
// never disagree about
// where a line starts, whether a final line without a newline counts, or
// what a line's text is.
//
// The lines of a content are what a reader sees:
//
//   - a line ends after "\n" (its ending is "\r\n" or "\n"), or at the end
//     of the content for a final line without one, which counts as a line;
//   - a "\n" at the very end ends the last line and does not start an
//     empty one: "a\n" and "a" are both one line, "" is no lines and "\n"
//     is one empty line;
//   - a line's text is the line without its ending; a lone "\r" is text.
//
// Lines are numbered from 1, as graft reports them everywhere (and as
// go/token numbers them); offsets are byte offsets from 0. A caller that
// counts lines from 0 asks about line i+1.
//
// An Index finds line starts as they are asked for, scanning from its
// first line on: an edit near the top of a big file never scans the rest.
// Only the line count is read from the whole content at once (a
// vectorised count of newlines, when a question needs it). An index may
// also start at a line other than the first (Window), for a diff of
// changes far down a file; a question about an earlier line then makes
// it index from the top after all. Eager finds every line up front, for
// callers that read them all. Whatever the way it was made, an Index
// answers every question the same.
//
// Start, End, Count and Text have small fast paths that the compiler
// inlines; the scanning happens out of line.
package lineindex

import "bytes"

// Index holds the byte offsets where a content's lines start, found as
// they are asked for. It is not safe for concurrent use: a question may
// extend it.
type Index struct {
	content []byte
	first   int // the first line indexed (1 unless windowed)
	// starts[k] is where line first-1+k starts, for k >= 1 (starts[0] is
	// 0, a place holder); once done, it ends with len(content).
	starts []int
	// lines is starts when first is 1 (lines[n] is where line n starts),
	// else nil: the fast path's one lookup.
	lines []int
	next  int  // where the line after the last in starts begins (until done)
	done  bool // starts holds every line from first on, and the end after them
	n     int  // the number of lines; -1 until counted
}

// New is an index of content that finds lines as they are asked for,
// from the first line on.
func New(content []byte) *Index {
	return &Index{content: content, first: 1, n: -1}
}

// Eager is an index of content with every line found up front: what a
// caller that reads every line wants, each question then taking the fast
// path.
func Eager(content []byte) *Index {
	x := New(content)
	x.grow(x.Count()+1, -1)
	return x
}

// Window is an index of content that starts scanning at the line holding
// offset off, backed up by `before` lines: what a diff of changes from
// that offset on needs, without scanning what comes before. It answers
// about earlier lines too, by indexing from the top when asked.
func Window(content []byte, off, before int) *Index {
	at := 0
	if off > 0 && off <= len(content) {
		at = StartBefore(content, off, before)
	}
	if at == 0 {
		return New(content)
	}
	return &Index{content: content, first: bytes.Count(content[:at], []byte("\n")) + 1, next: at, n: -1}
}

// StartBefore is the offset where the line holding offset off (0 to
// len(content)) starts, backed up by `before` lines (to 0 at most),
// without an index: the one place such a line is looked for backwards.
func StartBefore(content []byte, off, before int) int {
	at := bytes.LastIndexByte(content[:off], '\n') + 1
	for i := 0; i < before && at > 0; i++ {
		at = bytes.LastIndexByte(content[:at-1], '\n') + 1
	}
	return at
}

// LineAt reads the line that starts at offset off without an index: the
// offset where its text ends (before "\r\n" or "\n") and where the next
// line starts (len(content) for the last line). It is for a reader that
// walks a few lines from a known place (a patch hunk at its stated line),
// and reads them as an Index does.
func LineAt(content []byte, off int) (textEnd, next int) {
	i := bytes.IndexByte(content[off:], '\n')
	if i < 0 {
		return len(content), len(content)
	}
	e := off + i
	if e > off && content[e-1] == '\r' {
		return e - 1, e + 1
	}
	return e, e + 1
}

// Skip is the offset k lines after the line starting at off (len(content)
// when the content ends first), without an index.
func Skip(content []byte, off, k int) int {
	for ; k > 0 && off < len(content); k-- {
		_, off = LineAt(content, off)
	}
	return off
}

// Content is the content the index maps.
func (x *Index) Content() []byte { return x.content }

// Count is the number of lines; a final line without a newline counts.
func (x *Index) Count() int {
	if x.n >= 0 {
		return x.n
	}
	return x.count()
}

func (x *Index) count() int {
	x.n = bytes.Count(x.content, []byte("\n"))
	if len(x.content) > 0 && x.content[len(x.content)-1] != '\n' {
		x.n++
	}
	return x.n
}

// Start is the offset where line n starts. Start(Count()+1), and any line
// past it, is len(content); a line before the first is 0.
func (x *Index) Start(n int) int {
	if uint(n) < uint(len(x.lines)) {
		return x.lines[n]
	}
	return x.start(n)
}

func (x *Index) start(n int) int {
	if n < 1 {
		return 0
	}
	if n < x.first {
		x.rewind()
	}
	x.grow(n, -1)
	if k := n - x.first + 1; k < len(x.starts) {
		return x.starts[k]
	}
	return len(x.content)
}

// End is the offset just after line n, its line ending included: the
// start of line n+1.
func (x *Index) End(n int) int { return x.Start(n + 1) }

// Text is line n without its line ending ("\r\n" or "\n"); empty for a
// line past the last.
func (x *Index) Text(n int) []byte {
	var s, e int
	if l := x.lines; n >= 0 && n+1 < len(l) {
		s, e = l[n], l[n+1]
	} else {
		s, e = x.Start(n), x.Start(n+1)
	}
	if e > s && x.content[e-1] == '\n' {
		e--
		if e > s && x.content[e-1] == '\r' {
			e--
		}
	}
	return x.content[s:e]
}

// HasEOL reports whether line n ends with a line ending (every line but
// a final one without a newline does).
func (x *Index) HasEOL(n int) bool {
	s, e := x.Start(n), x.Start(n+1)
	return e > s && x.content[e-1] == '\n'
}

// EOL is the line ending of line n: "\r\n", "\n", or "" for a final line
// without one (and a line past the last).
func (x *Index) EOL(n int) string {
	s, e := x.Start(n), x.Start(n+1)
	switch {
	case e == s || x.content[e-1] != '\n':
		return ""
	case e-1 > s && x.content[e-2] == '\r':
		return "\r\n"
	}
	return "\n"
}

// LineAt is the line holding offset off. An offset at or past the end of
// the content is on the last line (the end of "a\n" is on line 1, as a
// final "\n" starts no line), and every offset of an empty content is on
// line 1.
func (x *Index) LineAt(off int) int {
	x.grow(0, off)
	lines := x.starts[1:]
	if x.done {
		lines = lines[:len(lines)-1] // the end is no line's start
	}
	lo, hi := 0, len(lines)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if lines[m] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		if x.first > 1 { // before the window
			x.rewind()
			return x.LineAt(off)
		}
		return 1
	}
	return x.first - 1 + lo
}

// rewind makes a windowed index start at line 1.
func (x *Index) rewind() {
	x.first, x.starts, x.lines, x.next, x.done = 1, nil, nil, 0, false
}

// grow scans until line `line` is in starts (or the end is) and every line
// starting at or before off is (off -1: no offset asked).
func (x *Index) grow(line, off int) {
	if x.done {
		return
	}
	starts, next, content := x.starts, x.next, x.content
	if starts == nil {
		starts = make([]int, 1, x.Count()-x.first+3)
	}
	upto := line - x.first + 2 // len(starts) once line is in it
	for len(starts) < upto || next <= off {
		if next == len(content) {
			// No line starts at the end: it closes the last line.
			starts = append(starts, next)
			x.done = true
			x.n = x.first - 3 + len(starts)
			break
		}
		starts = append(starts, next)
		if i := bytes.IndexByte(content[next:], '\n'); i >= 0 {
			next += i + 1
		} else {
			next = len(content)
		}
	}
	x.starts, x.next = starts, next
	if x.first == 1 {
		x.lines = starts
	}
}
