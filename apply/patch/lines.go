package patch

import "bytes"

// The helpers below read a content's lines where a hunk needs them (at the
// stated line, inside the block the matcher found, past a Codex anchor),
// walking from a known offset; a hunk is located by the matcher, and the
// content is never indexed as a whole.

// lineAt returns, for the line starting at off, the offset where its text
// ends (before "\r\n" or "\n") and where the next line starts
// (len(content) for the last line).
func lineAt(content []byte, off int) (textEnd, next int) {
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

// skipLines returns the offset k lines after the line starting at off
// (len(content) when the content ends first).
func skipLines(content []byte, off, k int) int {
	for ; k > 0 && off < len(content); k-- {
		_, off = lineAt(content, off)
	}
	return off
}

// countLines is the number of lines of content: its line breaks, plus a
// last line without one.
func countLines(content []byte) int {
	n := bytes.Count(content, []byte{'\n'})
	if len(content) > 0 && content[len(content)-1] != '\n' {
		n++
	}
	return n
}

// dominantEOL is the line ending most lines of content have; "\n" for a
// content without line endings.
func dominantEOL(content []byte) string {
	crlf := bytes.Count(content, []byte("\r\n"))
	if crlf > bytes.Count(content, []byte{'\n'})-crlf {
		return "\r\n"
	}
	return "\n"
}

// eolAt is the line ending of the line starting at off ("" for a last line
// without one, or past the end).
func eolAt(content []byte, off int) string {
	if off >= len(content) {
		return ""
	}
	te, nx := lineAt(content, off)
	return string(content[te:nx])
}

// linesAt reports whether the lines from off on are old, by text (line
// endings aside), and where they end.
func linesAt(content []byte, off int, old []Line) (int, bool) {
	for _, l := range old {
		if off >= len(content) {
			return 0, false
		}
		te, nx := lineAt(content, off)
		if string(content[off:te]) != l.Text {
			return 0, false
		}
		off = nx
	}
	return off, true
}

// writer builds a hunk's new text line by line, giving a line that lacked
// a line ending one when anything follows it.
type writer struct {
	buf     []byte
	pending bool // the last line written has no line ending
	eol     string
}

func (w *writer) raw(b []byte) {
	if len(b) == 0 {
		return
	}
	if w.pending {
		w.buf = append(w.buf, w.eol...)
		w.pending = false
	}
	w.buf = append(w.buf, b...)
	w.pending = b[len(b)-1] != '\n'
}

func (w *writer) line(text, eol string) {
	if text == "" && eol == "" {
		return
	}
	if w.pending {
		w.buf = append(w.buf, w.eol...)
	}
	w.buf = append(w.buf, text...)
	w.buf = append(w.buf, eol...)
	w.pending = eol == ""
}
