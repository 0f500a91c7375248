package apply

import (
	"bytes"
	"strings"
)

// lineIndex holds the byte offset where each line of a content starts.
// Line n (1-based) is content[starts[n-1]:end(n)], its line ending included.
type lineIndex struct {
	content []byte
	starts  []int
	style   *indentStyle // fileIndentStyle's result, once computed
}

func newLineIndex(content []byte) *lineIndex {
	ix := &lineIndex{content: content}
	if len(content) == 0 {
		return ix
	}
	ix.starts = make([]int, 0, len(content)/32+1)
	for off := 0; off < len(content); {
		ix.starts = append(ix.starts, off)
		i := bytes.IndexByte(content[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	return ix
}

// count is the number of lines; a final line without a newline counts.
func (ix *lineIndex) count() int { return len(ix.starts) }

// start is the offset of line n (1-based); n == count()+1 gives len(content).
func (ix *lineIndex) start(n int) int {
	if n > len(ix.starts) {
		return len(ix.content)
	}
	return ix.starts[n-1]
}

// end is the offset just after line n, its line ending included.
func (ix *lineIndex) end(n int) int { return ix.start(n + 1) }

// lineAt is the 1-based line holding offset off (count()+1 at the very end
// of a content that ends with a newline).
func (ix *lineIndex) lineAt(off int) int {
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
		return 1
	}
	return lo
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
	return bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0
}
