package apply

import (
	"bytes"
	"strings"
)

// lineIndex holds the byte offset where each line of a content starts.
// Line n (1-based) is content[starts[n-1]:end(n)], its line ending included.
// The offsets are found as they are asked for, scanning from the start:
// an edit near the top of a big file never scans the rest, and the line
// count comes from one vectorised count of newlines.
//
// An index may start at a line other than the first (newLineIndexFrom):
// then starts[i] is the start of line first+i, and a question about an
// earlier line makes it index from the top after all.
type lineIndex struct {
	content []byte
	first   int // the line starts[0] belongs to (1 unless windowed)
	starts  []int
	next    int          // where the line after the last in starts begins
	done    bool         // starts holds every line from first on
	n       int          // the number of lines; -1 until counted
	style   *indentStyle // fileIndentStyle's result, once computed
}

func newLineIndex(content []byte) *lineIndex {
	return &lineIndex{content: content, first: 1, done: len(content) == 0, n: -1}
}

// newLineIndexFrom is an index of content that scans from the line
// holding offset from, backed up by `before` lines: what a diff of changes
// from that offset on needs, without scanning what comes before.
func newLineIndexFrom(content []byte, from, before int) *lineIndex {
	at := 0
	if from > 0 && from <= len(content) {
		at = lineStartBefore(content, from, before)
	}
	if at == 0 {
		return newLineIndex(content)
	}
	return &lineIndex{content: content, first: bytes.Count(content[:at], []byte("\n")) + 1, next: at,
		done: at == len(content), n: -1}
}

// lineStartBefore is the start of the line holding offset from, backed up
// by `before` lines (0 at most).
func lineStartBefore(content []byte, from, before int) int {
	at := bytes.LastIndexByte(content[:from], '\n') + 1
	for i := 0; i < before && at > 0; i++ {
		at = bytes.LastIndexByte(content[:at-1], '\n') + 1
	}
	return at
}

// rewind makes a windowed index start at line 1.
func (ix *lineIndex) rewind() {
	ix.first, ix.starts, ix.next, ix.done = 1, nil, 0, len(ix.content) == 0
}

// grow scans until line `line` is in starts and every line starting at or
// before off is (off -1: no offset asked).
func (ix *lineIndex) grow(line, off int) {
	if ix.starts == nil && !ix.done {
		ix.starts = make([]int, 0, ix.count()-ix.first+1)
	}
	for !ix.done && (ix.first-1+len(ix.starts) < line || ix.next <= off) {
		ix.starts = append(ix.starts, ix.next)
		i := bytes.IndexByte(ix.content[ix.next:], '\n')
		if i < 0 || ix.next+i+1 == len(ix.content) {
			ix.done = true
			break
		}
		ix.next += i + 1
	}
}

// count is the number of lines; a final line without a newline counts.
func (ix *lineIndex) count() int {
	if ix.done {
		return ix.first - 1 + len(ix.starts)
	}
	if ix.n < 0 {
		ix.n = bytes.Count(ix.content, []byte("\n"))
		if len(ix.content) > 0 && ix.content[len(ix.content)-1] != '\n' {
			ix.n++
		}
	}
	return ix.n
}

// start is the offset of line n (1-based); n == count()+1 gives len(content).
func (ix *lineIndex) start(n int) int {
	if n < ix.first {
		ix.rewind()
	}
	i := n - ix.first
	if i >= len(ix.starts) {
		ix.grow(n, -1)
		if i >= len(ix.starts) {
			return len(ix.content)
		}
	}
	return ix.starts[i]
}

// end is the offset just after line n, its line ending included.
func (ix *lineIndex) end(n int) int { return ix.start(n + 1) }

// lineAt is the 1-based line holding offset off (count()+1 at the very end
// of a content that ends with a newline).
func (ix *lineIndex) lineAt(off int) int {
	ix.grow(0, off)
	lo, hi := 0, len(ix.starts)
	for lo < hi {
		m := (lo + hi) / 2
		if ix.starts[m] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		if ix.first > 1 { // before the window
			ix.rewind()
			return ix.lineAt(off)
		}
		return 1
	}
	return ix.first - 1 + lo
}

// line returns line n without its line ending.
func (ix *lineIndex) line(n int) []byte {
	return trimEOL(ix.content[ix.start(n):ix.end(n)])
}

// eol returns the line ending of line n: "\r\n", "\n", or "" for a last
// line without one.
func (ix *lineIndex) eol(n int) string {
	return eolOf(ix.content[ix.start(n):ix.end(n)])
}

// eolNear picks the line ending for text inserted at line n: that line's
// own ending, else the nearest line's before it, else after it, else "\n".
// Mixed files thus get, per place, the ending of their neighbourhood.
func (ix *lineIndex) eolNear(n int) string {
	for i := min(n, ix.count()); i >= 1; i-- {
		if e := ix.eol(i); e != "" {
			return e
		}
	}
	for i := n + 1; i <= ix.count(); i++ {
		if e := ix.eol(i); e != "" {
			return e
		}
	}
	return "\n"
}

// eolAround is the line ending of the line holding off, else of the
// nearest line before it, else "\n": lineIndex.eolNear without an index.
func eolAround(content []byte, off int) string {
	if i := bytes.IndexByte(content[off:], '\n'); i >= 0 {
		return eolOf(content[:off+i+1])
	}
	if i := bytes.LastIndexByte(content[:off], '\n'); i >= 0 {
		return eolOf(content[:i+1])
	}
	return "\n"
}

func eolOf(line []byte) string {
	switch {
	case bytes.HasSuffix(line, []byte("\r\n")):
		return "\r\n"
	case bytes.HasSuffix(line, []byte("\n")):
		return "\n"
	}
	return ""
}

func trimEOL(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r"))
}

// withEOL gives every line break of text the ending eol: "\r\n" and "\n"
// both become eol. A lone "\r" is left alone.
func withEOL(text, eol string) string {
	if !strings.Contains(text, "\n") {
		return text
	}
	if eol == "\n" {
		return strings.ReplaceAll(text, "\r\n", "\n")
	}
	var b strings.Builder
	b.Grow(len(text) + strings.Count(text, "\n"))
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(strings.TrimSuffix(text[:i], "\r"))
		b.WriteString(eol)
		text = text[i+1:]
	}
}

// splitText splits text given for line operations into lines without
// their endings. A final line break ends the last line rather than
// starting an empty one: "" is no lines, "\n" is one empty line, "a\nb"
// and "a\nb\n" are both two lines.
func splitText(text string) []string {
	if text == "" {
		return nil
	}
	text = strings.TrimSuffix(text, "\n")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// isBinary reports whether content looks binary: a NUL byte in the first
// 8000 bytes, as git decides.
func isBinary(content []byte) bool {
	return bytes.IndexByte(content[:min(len(content), binarySniff)], 0) >= 0
}

// binarySniff is how many bytes from the start isBinary looks at, as git
// does.
const binarySniff = 8000
