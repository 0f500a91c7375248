package syntax

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// lineIndex maps byte offsets of src to lines and columns.
type lineIndex struct {
	src    []byte
	starts []int // byte offset of the start of each line
}

func newLineIndex(src []byte) lineIndex {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		starts = append(starts, off)
	}
	return lineIndex{src: src, starts: starts}
}

// lineOf returns the 0-based line holding offset off.
func (x lineIndex) lineOf(off int) int {
	return sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
}

// text returns line i without its line ending.
func (x lineIndex) text(i int) []byte {
	end := len(x.src)
	if i+1 < len(x.starts) {
		end = x.starts[i+1] - 1
	}
	b := x.src[x.starts[i]:end]
	return bytes.TrimSuffix(b, []byte{'\r'})
}

// column returns the 1-based character column of offset off on line i.
func (x lineIndex) column(i, off int) int {
	return utf8.RuneCount(x.src[x.starts[i]:off]) + 1
}

// lineCol returns the 1-based line and character column of offset off.
func (x lineIndex) lineCol(off int) (int, int) {
	off = max(0, min(off, len(x.src)))
	i := x.lineOf(off)
	return i + 1, x.column(i, off)
}

// diagnostic turns a checker's diag into the public form with a snippet.
func (x lineIndex) diagnostic(d diag) Diagnostic {
	end := max(d.end, d.start)
	line, col := x.lineCol(d.start)
	endLine, endCol := x.lineCol(end)
	return Diagnostic{
		Line: line, Column: col, EndLine: endLine, EndColumn: endCol,
		Message: d.msg,
		Snippet: x.snippet(line-1, col, endLine-1, endCol),
	}
}

const (
	snippetWidth = 160 // characters of a line shown at most
	snippetLead  = 60  // characters kept before the caret when a long line is cut
)

// snippet renders the line before line (for context), line itself with a
// caret under col, and up to two more lines of the error's span:
//
//	41 | func f() {
//	42 | 	if (x > 0 {
//	   | 	          ^
func (x lineIndex) snippet(line, col, endLine, endCol int) string {
	if endLine > line && endCol == 1 {
		endLine-- // a span ending at the start of a line ends on the one before
	}
	first := max(0, line-1)
	last := min(max(line, endLine), line+2, len(x.starts)-1)
	width := len(fmt.Sprint(last + 1))
	var b strings.Builder
	for i := first; i <= last; i++ {
		text := []rune(string(x.text(i)))
		if i != line {
			fmt.Fprintf(&b, "%*d | %s\n", width, i+1, clip(text, 0))
			continue
		}
		from := 0
		if col-1 > snippetLead && len(text) > snippetWidth {
			from = col - 1 - snippetLead
		}
		fmt.Fprintf(&b, "%*d | %s\n", width, i+1, clip(text, from))
		// The caret line copies the tabs before the caret, so it lines up
		// in any tab width.
		var pad strings.Builder
		if from > 0 {
			pad.WriteString(" ") // under the leading "…"
		}
		for _, r := range text[from:min(col-1, len(text))] {
			if r == '\t' {
				pad.WriteByte('\t')
			} else {
				pad.WriteByte(' ')
			}
		}
		fmt.Fprintf(&b, "%*s | %s^\n", width, "", pad.String())
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// clip returns text from character from on, at most snippetWidth characters,
// marking a cut at either end with "…".
func clip(text []rune, from int) string {
	from = min(from, len(text))
	s := text[from:]
	tail := ""
	if len(s) > snippetWidth {
		s = s[:snippetWidth]
		tail = "…"
	}
	head := ""
	if from > 0 {
		head = "…"
	}
	return head + string(s) + tail
}
