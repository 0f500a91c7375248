package patch

import (
	"strings"
)

// Parse detects the format of text and parses it: a *** Begin Patch
// envelope, SEARCH/REPLACE blocks, or a git or plain unified diff (in that
// order of precedence; each is recognised by markers at the start of a
// line, which the others cannot contain there). Markdown fences and prose
// around the patch are ignored.
//
// The error is a *textedit.Error matching ErrMalformed when the text is
// none of these, is cut short, or names no change.
func Parse(text string) (p *Patch, err error) {
	defer func() { err = exported(err) }()
	lines := splitLines(text)
	switch {
	case hasLine(lines, isCodexBegin):
		p, err = parseCodex(lines)
	case hasLine(lines, isSearchMarker):
		p, err = parseSearchReplace(lines)
	case hasLine(lines, isUnifiedMarker):
		p, err = parseUnified(lines)
	default:
		return nil, malformed(0, "no patch found: expected a unified diff (--- / +++ / @@), a *** Begin Patch envelope, or SEARCH/REPLACE blocks")
	}
	if err != nil {
		return nil, err
	}
	if len(p.Files) == 0 {
		return nil, malformed(0, "the patch names no file")
	}
	return p, nil
}

// rawLine is one line of the patch text: its content without the line
// ending, the ending, and its 1-based number.
type rawLine struct {
	text string
	eol  string
	num  int
}

func splitLines(text string) []rawLine {
	var out []rawLine
	for n := 1; text != ""; n++ {
		i := strings.IndexByte(text, '\n')
		var l rawLine
		if i < 0 {
			l = rawLine{text: text, num: n}
			text = ""
		} else {
			l = rawLine{text: text[:i], eol: "\n", num: n}
			text = text[i+1:]
		}
		if strings.HasSuffix(l.text, "\r") && l.eol != "" {
			l.text, l.eol = l.text[:len(l.text)-1], "\r\n"
		}
		out = append(out, l)
	}
	return out
}

func hasLine(lines []rawLine, f func(string) bool) bool {
	for _, l := range lines {
		if f(l.text) {
			return true
		}
	}
	return false
}

var fenceRE = lazyRegexp("^(`{3,}|~{3,})[\\w.+-]*\\s*$")

// isFence reports whether s is a markdown code fence line: three or more
// backticks or tildes, as CommonMark has it (Aider fences a file that
// holds ``` with four), and an optional language. The fence must start
// the line: " ```go" is a hunk's context line holding a fence (a Markdown
// file's), never the patch's own fence.
func isFence(s string) bool { return fenceRE().MatchString(s) }

func isUnifiedMarker(s string) bool {
	return strings.HasPrefix(s, "diff --git ") || strings.HasPrefix(s, "--- ") ||
		strings.HasPrefix(s, "+++ ") || strings.HasPrefix(s, "@@")
}
