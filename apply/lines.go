package apply

import (
	"fmt"
	"strings"
)

// lineBlock joins lines with eol. When terminated is set every line ends
// with eol; otherwise the last one has no line ending.
func lineBlock(lines []string, eol string, terminated bool) string {
	if len(lines) == 0 {
		return ""
	}
	s := strings.Join(lines, eol)
	if terminated {
		s += eol
	}
	return s
}

// replaceLinesHunk replaces lines first..last (1-based, inclusive) with
// text; empty text deletes them. The replaced range keeps its last line's
// ending, or its absence at the end of the file.
func replaceLinesHunk(ix *lineIndex, first, last int, text string, edit string, indent *indentSpec) (Hunk, error) {
	if err := checkRange(ix, first, last, edit); err != nil {
		return Hunk{}, err
	}
	lines := indent.apply(splitText(text), ix, first, last)
	eol := ix.eolNear(first)
	terminated := ix.eol(last) != ""
	return Hunk{Start: ix.start(first), End: ix.end(last), New: lineBlock(lines, eol, terminated),
		Edit: edit, Desc: lineDesc(first, last)}, nil
}

// insertLinesHunk inserts text after line `after` (0 is the top of the
// file). Inserted lines take the line ending of their neighbourhood; after
// a last line without a line ending, one is added to it and the inserted
// block becomes the unterminated last line, so the file still has no
// final newline.
func insertLinesHunk(ix *lineIndex, after int, text string, edit string, indent *indentSpec) (Hunk, error) {
	if after < 0 || after > ix.count() {
		return Hunk{}, invalidf("", edit, "line %d out of range: the file has %d lines (0 inserts at the top)", after, ix.count())
	}
	lines := indent.apply(splitText(text), ix, after+1, after)
	if len(lines) == 0 {
		return Hunk{}, invalidf("", edit, "nothing to insert")
	}
	eol := ix.eolNear(max(after, 1))
	h := Hunk{Start: ix.end(after), End: ix.end(after), Edit: edit, Desc: fmt.Sprintf("insert after line %d", after)}
	if after == 0 {
		h.Start, h.End, h.Desc = 0, 0, "insert at the top"
	}
	if after > 0 && after == ix.count() && ix.eol(after) == "" {
		h.New = eol + lineBlock(lines, eol, false)
	} else {
		h.New = lineBlock(lines, eol, true)
	}
	return h, nil
}

func checkRange(ix *lineIndex, first, last int, edit string) error {
	switch {
	case first < 1:
		return invalidf("", edit, "start line %d out of range: lines start at 1 (the file has %d lines)", first, ix.count())
	case last < first:
		return invalidf("", edit, "end line %d is before start line %d", last, first)
	case last > ix.count():
		return invalidf("", edit, "line %d out of range: the file has %d lines", last, ix.count())
	}
	return nil
}

func lineDesc(first, last int) string {
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d-%d", first, last)
}

// indentSpec says how new lines of a line edit are indented: nil keeps
// them as given; a level forces their base indentation.
type indentSpec struct {
	level int
}

// apply re-indents lines so that their least-indented non-blank line sits
// at the forced level, keeping relative indentation. The level counts
// columns of the file's indentation unit: tabs in a tab-indented file,
// spaces otherwise.
func (s *indentSpec) apply(lines []string, ix *lineIndex, first, last int) []string {
	if s == nil || len(lines) == 0 {
		return lines
	}
	unit := " "
	if fileIndentsWithTabs(ix) {
		unit = "\t"
	}
	base := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n := len(l) - len(strings.TrimLeft(l, " \t")); base < 0 || n < base {
			base = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			out[i] = ""
			continue
		}
		out[i] = strings.Repeat(unit, s.level) + l[base:]
	}
	return out
}

// fileIndentsWithTabs reports whether more lines of the file start with a
// tab than with a space.
func fileIndentsWithTabs(ix *lineIndex) bool {
	tabs, spaces := 0, 0
	for n := 1; n <= ix.count() && tabs+spaces < 1000; n++ {
		l := ix.line(n)
		if len(l) == 0 {
			continue
		}
		switch l[0] {
		case '\t':
			tabs++
		case ' ':
			spaces++
		}
	}
	return tabs > spaces
}
