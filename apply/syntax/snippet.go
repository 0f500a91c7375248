package syntax

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/graftdev/graft/internal/lineindex"
)

// lineCol returns the 1-based line and character column of offset off
// (clamped to src). The very end of a src that ends with a newline (or is
// empty) is column 1 of the line after its last, where an editor puts it.
func lineCol(ix *lineindex.Index, off int) (int, int) {
	src := ix.Content()
	off = max(0, min(off, len(src)))
	if off == len(src) && (len(src) == 0 || src[len(src)-1] == '\n') {
		return ix.Count() + 1, 1
	}
	n := ix.LineAt(off)
	return n, utf8.RuneCount(src[ix.Start(n):off]) + 1
}

// diagnostic turns a checker's diag on the content ix indexes into the
// public form with a snippet.
func diagnostic(ix *lineindex.Index, d diag) Diagnostic {
	end := max(d.end, d.start)
	line, col := lineCol(ix, d.start)
	endLine, endCol := lineCol(ix, end)
	return Diagnostic{
		Line: line, Column: col, EndLine: endLine, EndColumn: endCol,
		Message: d.msg,
		Snippet: snippet(ix, line, col, endLine, endCol),
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
func snippet(ix *lineindex.Index, line, col, endLine, endCol int) string {
	if endLine > line && endCol == 1 {
		endLine-- // a span ending at the start of a line ends on the one before
	}
	lastLine, _ := lineCol(ix, len(ix.Content()))
	first := max(1, line-1)
	last := min(max(line, endLine), line+2, lastLine)
	width := len(fmt.Sprint(last))
	var b strings.Builder
	for i := first; i <= last; i++ {
		text := []rune(string(ix.Text(i)))
		if i != line {
			fmt.Fprintf(&b, "%*d | %s\n", width, i, clip(text, 0))
			continue
		}
		from := 0
		if col-1 > snippetLead && len(text) > snippetWidth {
			from = col - 1 - snippetLead
		}
		fmt.Fprintf(&b, "%*d | %s\n", width, i, clip(text, from))
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
