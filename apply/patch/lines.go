package patch

import "bytes"

// fileLines indexes a file's content by line: line i is the bytes
// [start[i], end[i]) followed by its line ending [end[i], next[i]).
type fileLines struct {
	content           []byte
	start, end, next  []int
	crlf, lf, noFinal int
}

func indexLines(content []byte) *fileLines {
	n := bytes.Count(content, []byte{'\n'}) + 1
	f := &fileLines{content: content, start: make([]int, 0, n), end: make([]int, 0, n), next: make([]int, 0, n)}
	for at := 0; at < len(content); {
		f.start = append(f.start, at)
		i := bytes.IndexByte(content[at:], '\n')
		if i < 0 {
			f.end = append(f.end, len(content))
			f.next = append(f.next, len(content))
			f.noFinal = 1
			break
		}
		e := at + i
		if e > at && content[e-1] == '\r' {
			f.end = append(f.end, e-1)
			f.crlf++
		} else {
			f.end = append(f.end, e)
			f.lf++
		}
		f.next = append(f.next, e+1)
		at = e + 1
	}
	return f
}

func (f *fileLines) n() int { return len(f.start) }

func (f *fileLines) text(i int) []byte { return f.content[f.start[i]:f.end[i]] }

func (f *fileLines) eol(i int) string { return string(f.content[f.end[i]:f.next[i]]) }

// offset returns the byte offset where line i starts (len(content) for
// the line after the last).
func (f *fileLines) offset(i int) int {
	if i <= 0 {
		return 0
	}
	if i >= f.n() {
		return len(f.content)
	}
	return f.start[i]
}

// dominantEOL is the line ending most lines of the file have; "\n" for a
// file without line endings.
func (f *fileLines) dominantEOL() string {
	if f.crlf > f.lf {
		return "\r\n"
	}
	return "\n"
}

// matchAt reports whether the lines at i are old, by text (line endings
// aside).
func (f *fileLines) matchAt(i int, old []Line) bool {
	if i < 0 || i+len(old) > f.n() {
		return false
	}
	for k, l := range old {
		if string(f.text(i+k)) != l.Text {
			return false
		}
	}
	return true
}

// findAll returns up to limit line indexes at or after lo where old
// matches exactly.
func (f *fileLines) findAll(old []Line, lo, limit int) []int {
	var out []int
	first := []byte(old[0].Text)
	for i := lo; i+len(old) <= f.n(); i++ {
		if bytes.Equal(f.text(i), first) && f.matchAt(i, old) {
			out = append(out, i)
			if len(out) == limit {
				break
			}
		}
	}
	return out
}

// lineOf returns the index of the line holding byte offset off.
func (f *fileLines) lineOf(off int) int {
	lo, hi := 0, f.n()
	for lo < hi {
		m := (lo + hi) / 2
		if f.next[m] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// writer builds new content line by line, giving a line that lacked a line
// ending one when anything follows it.
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
