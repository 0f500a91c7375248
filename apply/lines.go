package apply

import (
	"fmt"
	"github.com/graftdev/graft/internal/textedit"
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
// text; empty text deletes them (linesHunk).
func replaceLinesHunk(ix *fileLines, file string, first, last int, text string, edit string, plan indentPlan) (textedit.Change, string, error) {
	if err := checkRange(ix, first, last, edit); err != nil {
		return textedit.Change{}, "", err
	}
	lines, note := plan.reindent(splitText(text), file, ix, first, last)
	return linesHunk(ix, first, last, lines, edit), note, nil
}

// insertLinesHunk inserts text after line `after` (0 is the top of the
// file). Inserted lines take the line ending of their neighbourhood; after
// a last line without a line ending, one is added to it and the inserted
// block becomes the unterminated last line, so the file still has no
// final newline.
func insertLinesHunk(ix *fileLines, file string, after int, text string, edit string, plan indentPlan) (textedit.Change, string, error) {
	if after < 0 || after > ix.Count() {
		return textedit.Change{}, "", invalidf("", edit, "line %d out of range: the file has %d lines (0 inserts at the top)", after, ix.Count())
	}
	lines, note := plan.reindent(splitText(text), file, ix, after+1, after)
	if len(lines) == 0 {
		return textedit.Change{}, "", invalidf("", edit, "nothing to insert")
	}
	return insertHunk(ix, after, lines, edit), note, nil
}

func checkRange(ix *fileLines, first, last int, edit string) error {
	switch {
	case first < 1:
		return invalidf("", edit, "start line %d out of range: lines start at 1 (the file has %d lines)", first, ix.Count())
	case last < first:
		return invalidf("", edit, "end line %d is before start line %d", last, first)
	case last > ix.Count():
		return invalidf("", edit, "line %d out of range: the file has %d lines", last, ix.Count())
	}
	return nil
}

func lineDesc(first, last int) string {
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d-%d", first, last)
}
