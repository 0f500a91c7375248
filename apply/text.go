package apply

import (
	"bytes"
	"strings"

	"github.com/graftdev/graft/internal/lineindex"
)

// fileLines is a file's content as the line operations of one call read
// it: its line index (internal/lineindex, the one every part of graft
// reads lines with) and the file's indentation style, read once on the
// first ask (every line operation of a call asks).
type fileLines struct {
	*lineindex.Index
	style *indentStyle // fileIndentStyle's result, once computed
}

func newFileLines(content []byte) *fileLines {
	return &fileLines{Index: lineindex.New(content)}
}

// eolNear picks the line ending for text inserted at line n of ix: that
// line's own ending, else the nearest line's before it, else after it,
// else "\n". Mixed files thus get, per place, the ending of their
// neighbourhood.
func eolNear(ix *lineindex.Index, n int) string {
	for i := min(n, ix.Count()); i >= 1; i-- {
		if e := ix.EOL(i); e != "" {
			return e
		}
	}
	for i := n + 1; i <= ix.Count(); i++ {
		if e := ix.EOL(i); e != "" {
			return e
		}
	}
	return "\n"
}

// eolAround is the line ending of the line holding off, else of the
// nearest line before it, else "\n": eolNear without an index.
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
