package patch

import (
	"github.com/graftdev/graft/internal/lineindex"
)

// A hunk reads a content's lines where it needs them (at the stated line,
// inside the block the matcher found, past a Codex anchor), walking from a
// known offset with internal/lineindex's LineAt and Skip; a hunk is
// located by the matcher, and the content is never indexed as a whole.

// eolAt is the line ending of the line starting at off ("" for a last line
// without one, or past the end).
func eolAt(content []byte, off int) string {
	if off >= len(content) {
		return ""
	}
	te, nx := lineindex.LineAt(content, off)
	return string(content[te:nx])
}

// linesAt reports whether the lines from off on are old, by text (line
// endings aside), and where they end.
func linesAt(content []byte, off int, old []Line) (int, bool) {
	for _, l := range old {
		if off >= len(content) {
			return 0, false
		}
		te, nx := lineindex.LineAt(content, off)
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
