package textedit

import (
	"bytes"
	"strings"
)

// EOL is the one line-ending policy: the line ending that new text
// landing at byte off of text takes. It is the ending of the line holding
// off, else of the nearest line before it that has one, else of the
// nearest line after it, else "\n". A file with mixed endings thus gets,
// per place, the ending of its neighbourhood, and a change never brings
// a second kind of ending into a file that has one.
func EOL(text []byte, off int) string {
	off = min(max(off, 0), len(text))
	if i := bytes.IndexByte(text[off:], '\n'); i >= 0 {
		// the line holding off ends at the first line break from off on
		return EOLOf(text[:off+i+1])
	}
	if i := bytes.LastIndexByte(text[:off], '\n'); i >= 0 {
		return EOLOf(text[:i+1])
	}
	return "\n"
}

// EOLOf is the line ending a line ends with: "\r\n", "\n", or "" for a
// line without one.
func EOLOf(line []byte) string {
	switch {
	case bytes.HasSuffix(line, []byte("\r\n")):
		return "\r\n"
	case bytes.HasSuffix(line, []byte("\n")):
		return "\n"
	}
	return ""
}

// WithEOL gives every line break of text the ending eol: "\r\n" and "\n"
// both become eol. A lone "\r" is left alone.
func WithEOL(text, eol string) string {
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
