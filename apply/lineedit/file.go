package lineedit

import (
	"strings"

	"github.com/graftdev/graft/internal/lineindex"
	"github.com/graftdev/graft/internal/textedit"
)

// File is a file's content as the line operations of one call read
// it: its line index (internal/lineindex, the one every part of graft
// reads lines with) and the file's indentation style, read once on the
// first ask (every line operation of a call asks).
type File struct {
	*lineindex.Index
	style *Style // StyleOf's result, once computed
}

func NewFile(content []byte) *File {
	return &File{Index: lineindex.New(content)}
}

// EOLNear is the line ending of text inserted at line n of ix: the one
// line-ending policy (textedit.EOL) at that line's start.
func EOLNear(ix *lineindex.Index, n int) string {
	return textedit.EOL(ix.Content(), ix.Start(min(max(n, 1), ix.Count()+1)))
}

// Count is len(Split(text)) without building the lines: a new file's
// line count for its result, which a 60 MB create would otherwise pay for
// with a string header per line.
func Count(text string) int {
	if text == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
}

// Split splits text given for line operations into lines without
// their endings. A final line break ends the last line rather than
// starting an empty one: "" is no lines, "\n" is one empty line, "a\nb"
// and "a\nb\n" are both two lines.
func Split(text string) []string {
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
