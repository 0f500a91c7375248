package symbol

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/graftdev/graft/apply/lineedit"
	"github.com/graftdev/graft/apply/outline"
	"github.com/graftdev/graft/apply/syntax"
	"github.com/graftdev/graft/internal/textedit"
	"github.com/graftdev/graft/matcher"
)

// Parse parses content of language lang (the file rel) into an
// outline, or says why it cannot.
func Parse(rel, lang string, content []byte, edit string) (*outline.Outline, error) {
	if lang == "" {
		return nil, invalidf(rel, edit, "graft has no outline for this file: its language is unknown (symbols are read in %s)", Languages)
	}
	o, err := outline.ParseLanguage(lang, content)
	if errors.Is(err, outline.ErrUnsupported) {
		return nil, invalidf(rel, edit, "no symbol tools for this file: %s; use edit or edit_lines", strings.TrimPrefix(err.Error(), outline.ErrUnsupported.Error()+": "))
	}
	if err != nil {
		return nil, &textedit.Error{Code: textedit.CodeInternal, Path: rel, Edit: edit, Msg: "outline: " + err.Error(), Err: err}
	}
	return o, nil
}

const Languages = "Go, Python, JavaScript, TypeScript, Rust, Java, C, C++, Ruby, Bash, JSON, YAML and TOML"

// Edit is one edit by symbol: the declaration, what to do, and the
// new text.
type Edit struct {
	Symbol  string
	Action  string
	Content *string
	Line    int
}

// Actions are the actions of edit_symbol, the first the default.
var Actions = []string{"replace", "insert_before", "insert_after", "delete"}

// Resolve finds the one declaration named name (line picking among
// several), or refuses: CodeAmbiguous listing the candidates, or
// CodeTextNotFound listing near names.
func Resolve(o *outline.Outline, ix *lineedit.File, name string, line int, edit string) (*outline.Symbol, error) {
	if strings.TrimSpace(name) == "" {
		return nil, invalidf("", edit, "symbol is required: a name path from file_outline, such as Type.Method or dependencies.react")
	}
	found, err := o.Find(name)
	if err != nil {
		return nil, invalidf("", edit, "symbol %q: %v", name, err)
	}
	if len(found) == 0 {
		found = byLastSegment(o, name)
	}
	if line > 0 && len(found) > 0 {
		var at []*outline.Symbol
		for _, s := range found {
			if top := TopLine(s); line >= top && line <= s.EndLine {
				at = append(at, s)
			}
		}
		if len(at) == 0 {
			e := textedit.Errorf(textedit.CodeTextNotFound, "", edit, "no symbol %q spans line %d; it is at %s", name, line, symbolLines(found))
			e.Candidates = symbolCandidates(ix, found, 1)
			return nil, e
		}
		found = at
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		near := o.Near(name, 5)
		msg := fmt.Sprintf("symbol %q not found", name)
		if len(near) > 0 {
			var names []string
			for _, s := range near {
				if !slices.Contains(names, s.Path()) {
					names = append(names, s.Path())
				}
			}
			msg += "; near names: " + strings.Join(names, ", ")
		} else {
			msg += " (file_outline lists the names)"
		}
		e := textedit.Errorf(textedit.CodeTextNotFound, "", edit, "%s", msg)
		e.Candidates = symbolCandidates(ix, near, 0.5)
		return nil, e
	}
	e := textedit.Errorf(textedit.CodeAmbiguous, "", edit, "symbol %q names %d declarations, at %s: pass line to pick one", name, len(found), symbolLines(found))
	e.Count = len(found)
	e.Candidates = symbolCandidates(ix, found, 1)
	return nil, e
}

// byLastSegment finds the nested declarations whose own name is name, a
// name without a scope that no top-level declaration has: "pop_source"
// for the method shlex.pop_source, the way a caller names a method it has
// just read. One is taken (its result names the full path); several are
// refused by Resolve as ambiguous, listing each path. A scope is never
// guessed for a config key: "version" under two tables is two settings.
func byLastSegment(o *outline.Outline, name string) []*outline.Symbol {
	if o.Config {
		return nil
	}
	segs, err := o.ParseName(name)
	if err != nil || len(segs) != 1 {
		return nil
	}
	var out []*outline.Symbol
	for _, s := range o.All() {
		if len(s.Segs) > 1 && s.Segs[len(s.Segs)-1] == segs[0] {
			out = append(out, s)
		}
	}
	return out
}

// scopeLeftOut reports whether name found s by its own name alone
// (byLastSegment).
func scopeLeftOut(o *outline.Outline, name string, s *outline.Symbol) bool {
	segs, err := o.ParseName(name)
	return err == nil && len(segs) == 1 && len(s.Segs) > 1
}

// declaresLike reports whether the replacement lines declare name the
// way the declaration line decl does: the first line naming it reads, up
// to the name, as decl does (white space aside). A declaration named
// without its scope is taken only for content that declares it: "func
// M() {}" does not replace the method "func (t T) M()", "def m(self):"
// does replace "def m(self):" under its class.
func declaresLike(lines []string, decl, name string) bool {
	head := func(l string) (string, bool) {
		i := wordIndex(l, name)
		if i < 0 {
			return "", false
		}
		return strings.Join(strings.Fields(l[:i]), " "), true
	}
	want, ok := head(decl)
	if !ok {
		return false
	}
	for _, l := range lines {
		if got, ok := head(l); ok {
			return got == want
		}
	}
	return false
}

// wordIndex is where name first stands in l as a whole word, or -1.
func wordIndex(l, name string) int {
	word := func(b byte) bool {
		return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
	}
	for off := 0; ; {
		i := strings.Index(l[off:], name)
		if i < 0 {
			return -1
		}
		i += off
		if (i == 0 || !word(l[i-1])) && (i+len(name) == len(l) || !word(l[i+len(name)])) {
			return i
		}
		off = i + 1
	}
}

// TopLine is the first line a declaration's edit takes: its comment's, or
// its own.
func TopLine(s *outline.Symbol) int {
	if s.CommentLine > 0 {
		return s.CommentLine
	}
	return s.Line
}

func symbolLines(list []*outline.Symbol) string {
	var parts []string
	for _, s := range list {
		parts = append(parts, fmt.Sprintf("%s %s (%s)", s.Kind, s.Path(), lineedit.Desc(s.Line, s.EndLine)))
	}
	return strings.Join(parts, "; ")
}

// symbolCandidates lists symbols as a refusal's candidates: the text is
// the declaration's line (past its decorators).
func symbolCandidates(ix *lineedit.File, list []*outline.Symbol, sim float64) []matcher.Candidate {
	var out []matcher.Candidate
	for _, s := range list {
		text := ""
		if s.DeclLine >= 1 && s.DeclLine <= ix.Count() {
			text = strings.TrimSpace(string(ix.Text(s.DeclLine)))
		}
		out = append(out, matcher.Candidate{Line: s.Line, EndLine: s.EndLine, Similarity: sim, Text: text,
			Reason: s.Kind + " " + s.Path()})
	}
	return out
}

// Changes turns one edit of the declaration s (found by Resolve) of the
// text indexed by ix, the text of the file named file, into located
// changes: the first carries the edit's Location (method "symbol").
func Changes(o *outline.Outline, ix *lineedit.File, file string, s *outline.Symbol, ed Edit, edit string) ([]textedit.Change, error) {
	cs, loc, err := changes(o, ix, file, s, ed, edit)
	if err != nil {
		return nil, err
	}
	return textedit.Locate(cs, loc), nil
}

// changes turns one edit of the declaration s of the content indexed
// by ix into hunks.
func changes(o *outline.Outline, ix *lineedit.File, file string, s *outline.Symbol, ed Edit, edit string) ([]textedit.Change, textedit.Location, error) {
	loc := textedit.Location{Edit: edit, Line: s.Line, EndLine: s.EndLine, Method: "symbol", Similarity: 1}
	if ed.Symbol != "" && ed.Symbol != s.Path() {
		// Named without its scope (byLastSegment): say which one.
		loc.Symbol = s.Path()
	}
	action := ed.Action
	if action == "" {
		action = "replace"
	}
	content := ""
	switch action {
	case "replace", "insert_before", "insert_after":
		if ed.Content == nil {
			return nil, loc, invalidf("", edit, "content is required for %s", action)
		}
		content = *ed.Content
		if action != "replace" && strings.TrimSpace(content) == "" {
			return nil, loc, invalidf("", edit, "nothing to insert: content is empty")
		}
	case "delete":
		if ed.Content != nil && strings.TrimSpace(*ed.Content) != "" {
			return nil, loc, invalidf("", edit, "delete takes no content")
		}
	default:
		return nil, loc, invalidf("", edit, "unknown action %q (%s)", action, strings.Join(Actions, ", "))
	}
	if o.Config {
		return configHunks(o, ix, file, s, action, content, edit, loc)
	}
	if s.Shared {
		return nil, loc, invalidf("", edit, "%s %s shares line %d with other code: edit it with edit or edit_lines", s.Kind, s.Path(), s.Line)
	}
	lines := trimBlankLines(lineedit.Split(content))
	if action == "replace" && len(lines) == 0 {
		return nil, loc, invalidf("", edit, "content is empty: use action delete to remove %s", s.Path())
	}
	if action == "replace" && scopeLeftOut(o, ed.Symbol, s) && !declaresLike(lines, string(ix.Text(s.DeclLine)), s.Segs[len(s.Segs)-1]) {
		e := textedit.Errorf(textedit.CodeTextNotFound, "", edit, "symbol %q not found: %s %s has that name, but the content does not declare it as it is declared (%q); name it %s to replace it",
			ed.Symbol, s.Kind, s.Path(), strings.TrimSpace(string(ix.Text(s.DeclLine))), s.Path())
		e.Candidates = symbolCandidates(ix, []*outline.Symbol{s}, 0.5)
		return nil, loc, e
	}
	cs := commentStyleOf(o.Language)
	switch action {
	case "replace":
		first := s.Line
		switch {
		case s.DeclLine > s.Line && !startsDecorated(lines, cs):
			// Content without the decorators (attributes, annotations)
			// the symbol has replaces the declaration under them.
			first = s.DeclLine
		case s.CommentLine > 0 && cs.starts(lines):
			first = s.CommentLine
		}
		lines = keepExport(o.Language, string(ix.Text(s.DeclLine)), lines)
		lines, loc.Reindented = reindentTo(lines, file, o.Language, ix, first, s.EndLine, s)
		loc.Line = first
		return []textedit.Change{lineedit.Range(ix, first, s.EndLine, lines, edit)}, loc, nil
	case "insert_before", "insert_after":
		sep := separation(o, ix, s, lines, action == "insert_before")
		top := TopLine(s)
		lines, loc.Reindented = reindentTo(lines, file, o.Language, ix, top, top-1, s)
		blank := make([]string, sep)
		if action == "insert_before" {
			loc.Line, loc.EndLine = top, top
			return []textedit.Change{lineedit.InsertAfter(ix, top-1, append(lines, blank...), edit)}, loc, nil
		}
		loc.Line, loc.EndLine = s.EndLine, s.EndLine
		return []textedit.Change{lineedit.InsertAfter(ix, s.EndLine, append(blank, lines...), edit)}, loc, nil
	}
	first, last := deletedLines(o, ix, s)
	loc.Line, loc.EndLine = first, last
	return []textedit.Change{lineedit.Range(ix, first, last, nil, edit)}, loc, nil
}

// commentStyle is a language's comment markers.
type commentStyle struct{ line, block, blockEnd string }

// starts reports whether lines begin with a comment.
func (c commentStyle) starts(lines []string) bool {
	if len(lines) == 0 {
		return false
	}
	t := strings.TrimSpace(lines[0])
	return c.line != "" && strings.HasPrefix(t, c.line) || c.block != "" && strings.HasPrefix(t, c.block)
}

// keepExport gives content sent without the "export" (or "export
// default", "export declare") that the symbol's declaration line starts
// with in JavaScript and TypeScript that prefix back, when the content's
// declaration starts with the same word the declaration does after it.
func keepExport(lang, declLine string, lines []string) []string {
	if lang != "javascript" && lang != "typescript" && lang != "tsx" {
		return lines
	}
	decl := strings.TrimSpace(declLine)
	prefix := ""
	for _, w := range []string{"export ", "default ", "declare "} {
		if strings.HasPrefix(decl[len(prefix):], w) {
			prefix += w
		}
	}
	if prefix == "" {
		return lines
	}
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if commentOnly(t) || strings.HasPrefix(t, "@") {
			continue
		}
		if strings.HasPrefix(t, "export ") || firstWord(t) != firstWord(decl[len(prefix):]) {
			return lines
		}
		out := append([]string(nil), lines...)
		ind := lineedit.Leading(l)
		out[i] = ind + prefix + l[len(ind):]
		return out
	}
	return lines
}

// commentOnly reports whether a trimmed JavaScript line holds a comment
// and no code ("/*x*/ function f" holds code).
func commentOnly(t string) bool {
	switch {
	case strings.HasPrefix(t, "//"), strings.HasPrefix(t, "*"):
		return true
	case strings.HasPrefix(t, "/*"):
		end := strings.Index(t, "*/")
		return end < 0 || strings.TrimSpace(t[end+2:]) == ""
	}
	return false
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " \t(<{=:"); i >= 0 {
		return s[:i]
	}
	return s
}

// startsDecorated reports whether lines, past a lineedit.Leading comment, start
// with a decorator, attribute or annotation ("@", "#[").
func startsDecorated(lines []string, cs commentStyle) bool {
	for i, l := range lines {
		if cs.starts(lines[i:]) {
			continue
		}
		t := strings.TrimSpace(l)
		return strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#[")
	}
	return false
}

func trimBlankLines(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// reindentTo moves lines to the indentation of line at (the symbol's
// first line) when their first line is indented otherwise, keeping their
// relative indentation: edit_lines' re-indentation with the level forced
// to the symbol's, and the style (tabs or spaces) to that of the symbol's
// own lines. Lines whose first line already stands at the symbol's
// indentation are left alone (a string literal inside may sit lower).
// For an insertion, last is at-1.
func reindentTo(lines []string, file, lang string, ix *lineedit.File, at, last int, s *outline.Symbol) ([]string, string) {
	if len(lines) == 0 || at < 1 || at > ix.Count() {
		return lines, ""
	}
	want := lineedit.Leading(string(ix.Text(at)))
	st := lineedit.StyleOf(ix)
	tabs := spanTabs(ix, TopLine(s), s.EndLine, st, lang)
	if want != "" {
		tabs = strings.HasPrefix(want, "\t")
	}
	// Lines inside a multi-line string (a Go raw string, a template
	// literal, a Python docstring) are text: they move with the block but
	// keep their tabs or spaces, and they do not tell the block's style.
	inString := stringLines(lines, lang)
	ct, known := linesStyle(unstrung(lines, inString))
	convert := known && ct != tabs
	if lineedit.Leading(lines[0]) == want && !convert {
		return lines, ""
	}
	level := st.Columns(want)
	if tabs {
		level = strings.Count(want, "\t")
	}
	from := lineedit.Leading(lines[0])
	plan := lineedit.Plan{Forced: &level, Tabs: &tabs, KeepUnit: true}
	// The lines that move with the first: those indented at least as it
	// is (a line further left, a closing line the model outdented or a
	// string literal's, stays as it is), and when the style changes only
	// code lines; string lines then just move with the first line.
	var idx []int
	var code []string
	for i, l := range lines {
		if strings.HasPrefix(l, from) && !(convert && inString[i]) {
			idx = append(idx, i)
			code = append(code, l)
		}
	}
	moved, note := plan.Reindent(code, file, ix, at, last)
	note = strings.Replace(note, "(indent_level)", "(symbol)", 1)
	out := append([]string(nil), lines...)
	for k, i := range idx {
		out[i] = moved[k]
	}
	if convert {
		for i, l := range lines {
			if inString[i] && strings.HasPrefix(l, from) {
				out[i] = want + l[len(from):]
			}
		}
	}
	if lineedit.Leading(out[0]) != want {
		out = shiftLines(lines, from, want)
		note = fmt.Sprintf("re-indented (symbol): first line moved to %q", want)
	}
	return out, note
}

// unstrung is lines without those inside a multi-line string.
func unstrung(lines []string, inString []bool) []string {
	var out []string
	for i, l := range lines {
		if !inString[i] {
			out = append(out, l)
		}
	}
	return out
}

// stringLines marks the lines that start inside a multi-line string
// literal: a raw string in Go, a template literal in JavaScript and
// TypeScript, a triple-quoted string in Python. It reads quotes, escapes
// and line comments, no more.
func stringLines(lines []string, lang string) []bool {
	out := make([]bool, len(lines))
	var raw, triple string // the open multi-line literal's delimiter
	lineComment := "//"
	if lang == "python" {
		lineComment = "#"
	}
	for i, l := range lines {
		out[i] = raw != "" || triple != ""
		for j := 0; j < len(l); j++ {
			switch {
			case raw != "":
				if l[j] == '\\' && lang != "go" {
					j++
				} else if strings.HasPrefix(l[j:], raw) {
					raw = ""
				}
			case triple != "":
				if l[j] == '\\' {
					j++
				} else if strings.HasPrefix(l[j:], triple) {
					triple, j = "", j+2
				}
			case strings.HasPrefix(l[j:], lineComment):
				j = len(l)
			case l[j] == '`' && lang != "python":
				raw = "`"
			case lang == "python" && (strings.HasPrefix(l[j:], `"""`) || strings.HasPrefix(l[j:], "'''")):
				triple, j = l[j:j+3], j+2
			case l[j] == '"' || l[j] == '\'':
				q := l[j]
				for j++; j < len(l) && l[j] != q; j++ {
					if l[j] == '\\' {
						j++
					}
				}
			}
		}
	}
	return out
}

// spanTabs reports whether the lines first..last (or, when they do not
// tell, the file; for Go, tabs) indent with tabs; lines inside
// multi-line strings do not count.
func spanTabs(ix *lineedit.File, first, last int, st lineedit.Style, lang string) bool {
	lines := make([]string, 0, max(last-first+1, 0))
	for n := first; n <= last; n++ {
		lines = append(lines, string(ix.Text(n)))
	}
	if tabs, known := linesStyle(unstrung(lines, stringLines(lines, lang))); known {
		return tabs
	}
	// Go code is indented with tabs (gofmt), whatever the file's other
	// lines say: a raw string's text indented with spaces is not its code.
	return st.Tabs || lang == "go"
}

// linesStyle tells whether lines indent with tabs or spaces, from the
// first that says: a tab in the indentation, or two spaces or more. A
// one-space lead (" * " in a doc comment) says nothing.
func linesStyle(lines []string) (tabs, known bool) {
	for _, l := range lines {
		ind := lineedit.Leading(l)
		switch {
		case strings.TrimSpace(l) == "":
		case strings.Contains(ind, "\t"):
			return true, true
		case len(ind) >= 2:
			return false, true
		}
	}
	return false, false
}

// shiftLines replaces the prefix from of every line that has it with to,
// and prefixes to to the lines that do not.
func shiftLines(lines []string, from, to string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		switch {
		case strings.TrimSpace(l) == "":
			out[i] = ""
		case strings.HasPrefix(l, from):
			out[i] = to + l[len(from):]
		default:
			out[i] = to + strings.TrimLeft(l, " \t")
		}
	}
	return out
}

// siblings returns the symbols beside s: its parent's children, or the
// top-level symbols.
func siblings(o *outline.Outline, s *outline.Symbol) []*outline.Symbol {
	if s.Parent != nil {
		return s.Parent.Children
	}
	return o.Symbols
}

// neighbours returns the declarations just before and after s in its
// scope, at its indentation (a definition in another branch of an if is
// not its neighbour).
func neighbours(o *outline.Outline, ix *lineedit.File, s *outline.Symbol) (prev, next *outline.Symbol) {
	ind := lineedit.Leading(string(ix.Text(s.Line)))
	for _, x := range siblings(o, s) {
		if x == s || lineedit.Leading(string(ix.Text(x.Line))) != ind {
			continue
		}
		if x.EndLine < TopLine(s) {
			prev = x
		}
		if TopLine(x) > s.EndLine && next == nil {
			next = x
		}
	}
	return prev, next
}

// blankBetween is the number of lines between lines a and b (exclusive)
// when all of them are blank, else -1.
func blankBetween(ix *lineedit.File, a, b int) int {
	for n := a + 1; n < b; n++ {
		if len(bytes.TrimSpace(ix.Text(n))) != 0 {
			return -1
		}
	}
	return max(b-a-1, 0)
}

// separation is how many blank lines go between s and the declaration
// lines inserted beside it (before s when before is set): as the file
// separates a pair like them, in s's scope at s's indentation, a pair's
// shape being whether both declarations are one line long or one spans
// several:
//
//  1. as s is from a neighbour (the next declaration, else the previous
//     one) making a pair of that shape with it: a function inserted
//     before the first of a run of flush constants is not set flush
//     against it because the constants sit flush against each other;
//  2. else as every pair of that shape in the scope is, when they all
//     agree;
//  3. else, for a new declaration of several lines, as s is from the
//     neighbour on the side the new one goes when that one is declared
//     with the same word (func beside func): a multi-line method inserted
//     in a flush run of one-line methods joins the run;
//  4. else as most pairs of that shape in the scope are (on a tie, the
//     language's habit if it is among them, else the fewer blank lines);
//  5. else two one-line declarations as s is from a neighbour, and
//     otherwise the language's habit: two blank lines between Python's
//     top-level definitions, none between keys, one elsewhere.
//
// lines are the inserted lines; config keys (lines nil) take the
// neighbour's separation whatever their shape.
func separation(o *outline.Outline, ix *lineedit.File, s *outline.Symbol, lines []string, before bool) int {
	habit := 1
	switch {
	case o.Config:
		habit = 0
	case o.Language == "python" && s.Parent == nil:
		habit = 2
	}
	prev, next := neighbours(o, ix, s)
	type side struct {
		x   *outline.Symbol
		gap int
	}
	var sides []side
	if next != nil {
		if n := blankBetween(ix, s.EndLine, TopLine(next)); n >= 0 {
			sides = append(sides, side{next, min(n, 2)})
		}
	}
	if prev != nil {
		if n := blankBetween(ix, prev.EndLine, TopLine(s)); n >= 0 {
			sides = append(sides, side{prev, min(n, 2)})
		}
	}
	if lines == nil {
		if len(sides) > 0 {
			return sides[0].gap
		}
		return habit
	}
	cs := commentStyleOf(o.Language)
	// The new declaration's span is its lines past its comment block,
	// decorators included (as a symbol's); its word is past decorators.
	long := s.EndLine > s.Line || len(lines)-declStart(lines, cs, false) > 1
	multi := func(x *outline.Symbol) bool { return x.EndLine > x.Line }
	for _, sd := range sides {
		if (multi(s) || multi(sd.x)) == long {
			return sd.gap
		}
	}
	count := scopeSeparations(o, ix, s, long)
	agreed, kinds := 0, 0
	for gap, n := range count {
		if n > 0 {
			agreed, kinds = gap, kinds+1
		}
	}
	if kinds == 1 {
		return agreed
	}
	if decl := declStart(lines, cs, true); long && decl < len(lines) {
		word := declWord(lines[decl])
		for _, sd := range sides {
			onSide := sd.x == prev && before || sd.x == next && !before
			if onSide && word != "" && declWord(string(ix.Text(sd.x.DeclLine))) == word {
				return sd.gap
			}
		}
	}
	if kinds > 0 {
		best := -1
		for gap, n := range count {
			if n > 0 && (best < 0 || n > count[best] || n == count[best] && gap == habit) {
				best = gap
			}
		}
		return best
	}
	if !long && len(sides) > 0 {
		return sides[0].gap
	}
	return habit
}

// scopeSeparations counts the pairs of neighbouring declarations in s's
// scope at s's indentation, shaped long (one of them spanning several
// lines) or not, with only blank lines between them, by how many blank
// lines separate them (two or more counted as two).
func scopeSeparations(o *outline.Outline, ix *lineedit.File, s *outline.Symbol, long bool) [3]int {
	ind := lineedit.Leading(string(ix.Text(s.Line)))
	var count [3]int
	var last *outline.Symbol
	for _, x := range siblings(o, s) {
		if lineedit.Leading(string(ix.Text(x.Line))) != ind {
			continue
		}
		if last != nil && last.EndLine < TopLine(x) && (last.EndLine > last.Line || x.EndLine > x.Line) == long {
			if n := blankBetween(ix, last.EndLine, TopLine(x)); n >= 0 {
				count[min(n, 2)]++
			}
		}
		last = x
	}
	return count
}

// declStart is the index of the first of lines past their leading
// comment block, and past their decorators too when decorators is set
// (a one-line declaration under its doc comment is one line long, as a
// symbol's span leaves its comment block out).
func declStart(lines []string, cs commentStyle, decorators bool) int {
	i := 0
	for i < len(lines) {
		t := strings.TrimSpace(lines[i])
		switch {
		case t == "", cs.line != "" && strings.HasPrefix(t, cs.line):
			i++
			continue
		case cs.block != "" && strings.HasPrefix(t, cs.block):
			for i < len(lines) && !strings.Contains(lines[i], cs.blockEnd) {
				i++
			}
			i++
			continue
		case decorators && (strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#[")):
			i++
			continue
		}
		break
	}
	return min(i, len(lines))
}

// modifiers are the words before a declaration's own keyword or name.
var modifiers = map[string]bool{"export": true, "default": true, "declare": true, "public": true, "private": true,
	"protected": true, "static": true, "readonly": true, "async": true, "abstract": true, "override": true,
	"pub": true, "final": true, "unsafe": true}

// declWord is the word a declaration line declares with, past its
// modifiers: "func", "const", "class", or the name itself ("find" in
// "async find(id) {").
func declWord(line string) string {
	for f := strings.Fields(line); len(f) > 0; f = f[1:] {
		w := firstWord(f[0])
		if !modifiers[w] {
			return w
		}
	}
	return ""
}

// commentStyleOf is the comment style of a language.
func commentStyleOf(lang string) commentStyle {
	line, block, blockEnd := outline.Comments(lang)
	return commentStyle{line, block, blockEnd}
}

// deletedLines is the range a delete removes: the comment block, the
// span, and the blank lines on one side, so that the file keeps its
// separation. Before the next declaration, the blank lines on the side
// with fewer go (those below on a tie, and always when the line above is
// the scope's opening line or the file's start): what stood around the
// declaration stays as far apart as the farther of the two was, so the
// last of a run of flush declarations goes without joining the run to
// what follows. The last declaration takes the blank lines above it.
func deletedLines(o *outline.Outline, ix *lineedit.File, s *outline.Symbol) (int, int) {
	first, last := TopLine(s), s.EndLine
	after := last
	for after+1 <= ix.Count() && len(bytes.TrimSpace(ix.Text(after+1))) == 0 {
		after++
	}
	before := first
	for before-1 >= 1 && len(bytes.TrimSpace(ix.Text(before-1))) == 0 {
		before--
	}
	_, next := neighbours(o, ix, s)
	if next != nil && TopLine(next) == after+1 {
		ind := lineedit.Leading(string(ix.Text(s.Line)))
		if after-last > first-before && before > 1 && strings.HasPrefix(string(ix.Text(before-1)), ind) {
			return before, last
		}
		return first, after
	}
	if before < first {
		return before, last
	}
	if after == ix.Count() {
		return first, after
	}
	return first, last
}

// Language is the language of the file rel with content, as the
// syntax check tells it.
func Language(rel string, content []byte) string {
	return syntax.Detect(rel, content[:min(len(content), 512)])
}

// invalidf makes an invalid-request error (textedit.Error).
func invalidf(path, edit, format string, args ...any) *textedit.Error {
	return textedit.Errorf(textedit.CodeInvalid, path, edit, format, args...)
}
