package lineedit

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/graftdev/graft/internal/indent"
)

// Indentation of new lines in line edits (edit_lines, replace_in_file's
// lines and insert types): indent_level forces the base indentation;
// otherwise new content whose base indentation is plainly off
// for where it lands is re-indented in the file's own style.
//
// "Plainly off" is decided from the context lines: the previous non-blank
// line P, the next non-blank line N after the edited range, and for a
// replacement the first replaced non-blank line R. The indentations a new
// block may plausibly start at are:
//
//	upper = indent(P), one level deeper if P opens a block (ends in ':' in
//	        Python/YAML, in '{', '(' or '[' in the languages with braces)
//	lower = upper if P opens a block; else indent(N), one level deeper if N
//	        closes one ('}', ')', ']', end, else, elif, except, finally);
//	        else 0
//
// plus indent(R) for a replacement (where a flush-left block replacing
// indented lines counts as pasted unindented, not as an outdent). A block
// starting at one of those is left alone — a deliberate outdent to an
// enclosing level is one of them.
// A block starting elsewhere (pasted unindented into a body, or nested too
// deep) is moved to indent(R), or else to the nearest plausible level,
// keeping its lines' relative indentation. A block written with spaces
// where the context uses tabs (or the reverse) is converted. Files whose
// language graft does not know (prose, Markdown, unknown extensions) are
// never re-indented automatically.

// indentLang says how a language opens and closes blocks.
type indentLang struct {
	colon  bool // a trailing ':' opens a block (Python, YAML)
	braces bool // trailing '{', '(' or '[' open one
	words  bool // end/else/elif/... close one
}

var indentLangs = map[string]indentLang{
	".py": {colon: true, braces: true, words: true}, ".pyi": {colon: true, braces: true, words: true},
	".yaml": {colon: true}, ".yml": {colon: true},
	".go": {braces: true}, ".c": {braces: true}, ".h": {braces: true}, ".cc": {braces: true},
	".cpp": {braces: true}, ".hpp": {braces: true}, ".java": {braces: true}, ".js": {braces: true},
	".mjs": {braces: true}, ".cjs": {braces: true}, ".jsx": {braces: true}, ".ts": {braces: true},
	".tsx": {braces: true}, ".rs": {braces: true}, ".cs": {braces: true}, ".kt": {braces: true},
	".swift": {braces: true}, ".php": {braces: true}, ".json": {braces: true}, ".css": {braces: true},
	".scss": {braces: true}, ".rb": {braces: true, words: true}, ".sh": {braces: true, words: true},
	".bash": {braces: true, words: true}, ".lua": {braces: true, words: true}, ".toml": {braces: true},
}

// Plan decides the indentation of new lines at one place.
type Plan struct {
	Forced *int // indent_level
	// tabs, when set, is the place's indentation style, known to the
	// caller (a symbol edit reads it from the symbol's own lines).
	Tabs *bool
	// keepUnit keeps a space-indented block's own step between levels
	// instead of the file's (content copied from the file has the file's
	// step already, whatever the file's most common step is).
	KeepUnit bool
}

// reindent returns lines re-indented for a line edit replacing lines
// first..last of ix (first = last+1 for an insertion before line first),
// and a note saying what it did ("" when it left them alone).
func (p Plan) Reindent(lines []string, file string, ix *File, first, last int) ([]string, string) {
	base, ok := BaseIndent(lines)
	if !ok {
		return lines, ""
	}
	lang, known := indentLangs[strings.ToLower(path.Ext(file))]
	if p.Forced == nil && !known {
		return lines, ""
	}
	st := StyleOf(ix)
	prev, next, repl := contextLine(ix, first-1, -1, 1), contextLine(ix, last+1, 1, ix.Count()), 0
	if last >= first {
		repl = contextLine(ix, first, 1, last)
	}
	// The context's own style: the replaced line's, else its neighbours'.
	useTabs := st.Tabs
	for _, n := range []int{repl, prev, next} {
		if n > 0 {
			if ind := Leading(string(ix.Text(n))); ind != "" {
				useTabs = strings.HasPrefix(ind, "\t")
				break
			}
		}
	}
	if p.Tabs != nil {
		useTabs = *p.Tabs
	}
	unit := st.unit
	if useTabs {
		unit = st.tabWidth()
	}
	col := func(n int) int { return st.Columns(Leading(string(ix.Text(n)))) }
	baseCol := st.Columns(base)
	target := baseCol
	var why string
	if p.Forced != nil {
		// indent_level counts spaces (as the line-editing tool it comes
		// from defines it), or tabs in a tab-indented
		// context.
		target, why = *p.Forced, "indent_level"
		if useTabs {
			target *= unit
		}
	} else {
		upper, lower := 0, 0
		if prev > 0 {
			upper = col(prev)
			if lang.opens(string(ix.Text(prev))) {
				upper += unit
			}
		}
		switch {
		case prev > 0 && lang.opens(string(ix.Text(prev))):
			lower = upper
		case next > 0:
			lower = col(next)
			if lang.closes(string(ix.Text(next))) {
				lower += unit
			}
		}
		lower = min(lower, upper)
		plausible := baseCol >= lower && baseCol <= upper
		if repl > 0 {
			// A replacement keeps the replaced lines' indentation, or moves
			// to another plausible level — but a flush-left block replacing
			// indented lines was pasted unindented, not outdented.
			r := col(repl)
			plausible = baseCol == r || plausible && !(baseCol == 0 && r > 0)
		}
		if !plausible {
			switch {
			case repl > 0:
				target = col(repl)
			case baseCol < lower:
				target = lower
			default:
				target = upper
			}
			why = "context"
		}
	}
	styleOff := blockUsesTabs(lines) != useTabs && anyIndented(lines)
	if target == baseCol && !styleOff {
		return lines, ""
	}
	if why == "" {
		why = "style"
	}
	out := make([]string, len(lines))
	cu := blockUnit(lines, base)
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			out[i] = ""
			continue
		}
		ind := Leading(l)
		rel := st.columnsWith(ind, cu) - st.columnsWith(base, cu)
		// Relative indentation is kept in levels of the block's own unit,
		// re-expressed in the context's unit.
		levels, rest := rel/cu.width, rel%cu.width
		step := unit
		if p.KeepUnit && !useTabs {
			step = cu.width
		}
		out[i] = indentString(target, useTabs, unit) + indentString(levels*step, useTabs, unit) + strings.Repeat(" ", rest) + l[len(ind):]
	}
	style := "spaces"
	if useTabs {
		style = "tabs"
	}
	return out, fmt.Sprintf("re-indented (%s): base indentation %d → %d columns, %s", why, baseCol, target, style)
}

func (l indentLang) opens(line string) bool {
	t := strings.TrimRight(line, " \t")
	if i := strings.Index(t, " #"); l.colon && i >= 0 { // a trailing comment
		t = strings.TrimRight(t[:i], " \t")
	}
	switch {
	case t == "":
		return false
	case l.colon && strings.HasSuffix(t, ":"):
		return true
	case l.braces && strings.ContainsAny(t[len(t)-1:], "{(["):
		return true
	case l.words && (strings.HasSuffix(t, " do") || strings.HasSuffix(t, " then")):
		return true
	}
	return false
}

func (l indentLang) closes(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return false
	}
	if l.braces && strings.ContainsAny(t[:1], "})]") {
		return true
	}
	if l.words {
		for _, w := range []string{"end", "else", "elif", "except", "finally", "fi", "done", "esac"} {
			if t == w || strings.HasPrefix(t, w+" ") || strings.HasPrefix(t, w+":") {
				return true
			}
		}
	}
	return false
}

// contextLine returns the first non-blank line from n stepping by step up
// to stop (inclusive), or 0.
func contextLine(ix *File, n, step, stop int) int {
	for ; n >= 1 && n <= ix.Count() && (step > 0 && n <= stop || step < 0 && n >= stop); n += step {
		if strings.TrimSpace(string(ix.Text(n))) != "" {
			return n
		}
	}
	return 0
}

func Leading(l string) string { return l[:len(l)-len(strings.TrimLeft(l, " \t"))] }

// BaseIndent is the least indentation (in columns, as written) among the
// block's non-blank lines.
func BaseIndent(lines []string) (string, bool) {
	best, found := "", false
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := Leading(l)
		if !found || len(strings.ReplaceAll(ind, "\t", "    ")) < len(strings.ReplaceAll(best, "\t", "    ")) {
			best, found = ind, true
		}
	}
	return best, found
}

func blockUsesTabs(lines []string) bool {
	for _, l := range lines {
		if ind := Leading(l); ind != "" && strings.TrimSpace(l) != "" {
			return strings.HasPrefix(ind, "\t")
		}
	}
	return false
}

func anyIndented(lines []string) bool {
	for _, l := range lines {
		if Leading(l) != "" && strings.TrimSpace(l) != "" {
			return true
		}
	}
	return false
}

// Style is a file's indentation: tabs or spaces, and the width of
// one level of spaces.
type Style struct {
	Tabs bool
	unit int
}

func (s Style) tabWidth() int { return s.unit }

// columns measures an indentation, a tab counting one level.
func (s Style) Columns(ind string) int {
	return s.columnsWith(ind, blockIndent{width: s.unit})
}

func (s Style) columnsWith(ind string, u blockIndent) int {
	n := 0
	for _, c := range ind {
		if c == '\t' {
			n += u.width
		} else {
			n++
		}
	}
	return n
}

// blockIndent is the indentation unit a block of new lines uses itself.
type blockIndent struct{ width int }

// blockUnit finds the block's own level width: the smallest positive step
// of its space indentation relative to its base (tabs count 4).
func blockUnit(lines []string, base string) blockIndent {
	b := len(strings.ReplaceAll(base, "\t", "    "))
	step := 0
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if strings.Contains(Leading(l), "\t") {
			return blockIndent{width: 4}
		}
		if d := len(Leading(l)) - b; d > 0 && (step == 0 || d < step) {
			step = d
		}
	}
	if step == 0 || step > 8 {
		step = 4
	}
	return blockIndent{width: step}
}

func indentString(cols int, tabs bool, unit int) string {
	if cols <= 0 {
		return ""
	}
	if tabs {
		return strings.Repeat("\t", cols/unit) + strings.Repeat(" ", cols%unit)
	}
	return strings.Repeat(" ", cols)
}

// StyleOf reads a file's indentation: tabs if more lines start
// with a tab than with a space, and the most common step between the
// indentations of consecutive lines (4 when unknown).
// It is computed once per index: every line operation of a call asks.
func StyleOf(ix *File) Style {
	if ix.style == nil {
		st := scanIndentStyle(ix)
		ix.style = &st
	}
	return *ix.style
}

func scanIndentStyle(ix *File) Style {
	tabs, spaces := 0, 0
	for n := 1; n <= ix.Count() && n <= indent.MaxLines; n++ {
		switch l := ix.Text(n); {
		case len(bytes.TrimSpace(l)) == 0:
		case l[0] == '\t':
			tabs++
		case l[0] == ' ':
			spaces++
		}
	}
	// The unit is read as the matcher reads it (internal/indent); a file
	// that shows none is taken as four spaces a level.
	unit := indent.Unit(ix.Count(), func(i int) []byte { return bytes.TrimRight(ix.Text(i+1), "\r\n") })
	if unit == 0 {
		unit = 4
	}
	return Style{Tabs: tabs > spaces, unit: unit}
}
