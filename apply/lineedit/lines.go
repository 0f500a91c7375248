package lineedit

import (
	"fmt"
	"strings"

	"github.com/graftdev/graft/internal/textedit"
)

// Block joins lines with eol. When terminated is set every line ends
// with eol; otherwise the last one has no line ending.
func Block(lines []string, eol string, terminated bool) string {
	if len(lines) == 0 {
		return ""
	}
	s := strings.Join(lines, eol)
	if terminated {
		s += eol
	}
	return s
}

// Replace replaces lines first..last (1-based, inclusive) with
// text; empty text deletes them (Range).
func Replace(ix *File, file string, first, last int, text string, edit string, plan Plan) (textedit.Change, string, error) {
	if err := CheckRange(ix, first, last, edit); err != nil {
		return textedit.Change{}, "", err
	}
	lines, note := plan.Reindent(Split(text), file, ix, first, last)
	return Range(ix, first, last, lines, edit), note, nil
}

// Insert inserts text after line `after` (0 is the top of the
// file). Inserted lines take the line ending of their neighbourhood; after
// a last line without a line ending, one is added to it and the inserted
// block becomes the unterminated last line, so the file still has no
// final newline.
func Insert(ix *File, file string, after int, text string, edit string, plan Plan) (textedit.Change, string, error) {
	if after < 0 || after > ix.Count() {
		return textedit.Change{}, "", invalidf("", edit, "line %d out of range: the file has %d lines (0 inserts at the top)", after, ix.Count())
	}
	lines, note := plan.Reindent(Split(text), file, ix, after+1, after)
	if len(lines) == 0 {
		return textedit.Change{}, "", invalidf("", edit, "nothing to insert")
	}
	return InsertAfter(ix, after, lines, edit), note, nil
}

func CheckRange(ix *File, first, last int, edit string) error {
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

func Desc(first, last int) string {
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d-%d", first, last)
}

// Range replaces lines first..last with lines (none deletes them):
// the one line-range change of edit_lines, replace_in_file and symbol
// edits. A line is its text and its own ending, and a line operation
// changes only the lines it names: new lines keep the last replaced
// line's ending or its absence, and deleting the last lines of a file
// without a final newline removes exactly their bytes, so the line before
// them keeps its own ending (a diff of the deletion shows only the
// deleted lines).
func Range(ix *File, first, last int, lines []string, edit string) textedit.Change {
	eol := EOLNear(ix.Index, first)
	terminated := ix.EOL(last) != ""
	start, end := ix.Start(first), ix.End(last)
	return textedit.Change{Start: start, End: end, New: Block(lines, eol, terminated), Edit: edit, Desc: Desc(first, last)}
}

// InsertAfter inserts lines after line after (0: the top). Inserted lines
// take the line ending of their neighbourhood; after a last line without
// one, one is added to it and the block becomes the unterminated last
// line, so the file still has no final newline. edit_lines' inserts
// (Insert) and symbol inserts both go through it.
func InsertAfter(ix *File, after int, lines []string, edit string) textedit.Change {
	eol := EOLNear(ix.Index, max(after, 1))
	h := textedit.Change{Start: ix.End(after), End: ix.End(after), Edit: edit, Desc: fmt.Sprintf("insert after line %d", after)}
	if after == 0 {
		h.Start, h.End, h.Desc = 0, 0, "insert at the top"
	}
	if after > 0 && after == ix.Count() && ix.EOL(after) == "" {
		h.New = eol + Block(lines, eol, false)
	} else {
		h.New = Block(lines, eol, true)
	}
	return h
}

// invalidf makes an invalid-request error (textedit.Error).
func invalidf(path, edit, format string, args ...any) *textedit.Error {
	return textedit.Errorf(textedit.CodeInvalid, path, edit, format, args...)
}
