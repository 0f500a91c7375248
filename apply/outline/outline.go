// Package outline lists the declarations of a source or configuration file
// as a tree of symbols, each with its name path, kind and span of whole
// lines, so that an edit can name a declaration instead of reproducing its
// text (graft's file_outline and edit_symbol tools).
//
// Go is read with go/parser in every build; the other languages graft
// knows (package apply/syntax) with their tree-sitter grammars, which need
// cgo. Name paths join scopes with dots: Go "Func" and "Type.Method",
// Python "Class.method", JSON, YAML and TOML keys by key path, with list
// items indexed ("jobs.test.steps[2]") and segments holding dots quoted
// (`dependencies."lodash.debounce"`).
package outline

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/graftdev/graft/apply/syntax"
	"github.com/graftdev/graft/internal/lineindex"
)

// Symbol is one declaration of a file.
type Symbol struct {
	// Segs is the name path, one scope per element ("Engine", "Begin");
	// a list item is "[2]".
	Segs []string
	// Name is how the outline shows the symbol under its parent: its last
	// segment, or the whole path for a top-level symbol whose name has
	// several (a Go method "Engine.Begin").
	Name string
	// Kind is "func", "method", "class", "type", "key", ...
	Kind string
	// Line and EndLine are the declaration's span: whole lines, 1-based,
	// inclusive, decorators and attributes included, the comment block
	// above excluded.
	Line, EndLine int
	// DeclLine is the line where the declaration proper starts, after
	// its decorators, attributes or annotations (Line when it has none).
	DeclLine int
	// CommentLine is the first line of the comment block directly above
	// the span (no blank line between), or 0.
	CommentLine int
	// Start and End are the declaration's own bytes (not whole lines).
	Start, End int
	// ValueStart and ValueEnd are the bytes of a configuration key's
	// value; both zero for source code.
	ValueStart, ValueEnd int
	// Body is set for a TOML table: its value is the lines under its
	// header, from ValueStart (0 when the table is empty).
	Body bool
	// Shared is set when the span's lines hold code of another
	// declaration or statement: a line edit of the span would touch it.
	Shared bool
	// Parent is the enclosing symbol, nil at the top.
	Parent   *Symbol
	Children []*Symbol

	// arrayKey is a TOML table's header key, tomlParent the array element
	// a sub-table belongs to (while the outline is built).
	arrayKey   []string
	tomlParent *Symbol
}

// Path is the symbol's name path as edit_symbol takes it.
func (s *Symbol) Path() string { return JoinPath(s.Segs) }

// Outline is the symbols of one file.
type Outline struct {
	// Language is the language's name as syntax.Detect gives it.
	Language string
	// Config is set for JSON, YAML and TOML: symbols are keys, and their
	// values are what a replacement replaces.
	Config bool
	// Symbols are the top-level symbols in file order.
	Symbols []*Symbol
	// Lines is the number of lines of the file.
	Lines int
	all   []*Symbol
}

// All returns every symbol, parents before their children, in file order.
func (o *Outline) All() []*Symbol { return o.all }

// ErrUnsupported is returned for a file whose language has no outline in
// this build.
var ErrUnsupported = errors.New("no outline for this language")

// Parse returns the outline of src, the content of the file at path (its
// name or #! line tells the language). A syntax error in the file does not
// prevent an outline: the declarations tree-sitter recovers are listed.
func Parse(path string, src []byte) (*Outline, error) {
	lang := syntax.Detect(path, src[:min(len(src), 512)])
	if lang == "" {
		return nil, fmt.Errorf("%w: graft does not know the language of %s", ErrUnsupported, path)
	}
	return ParseLanguage(lang, src)
}

// ParseLanguage is Parse for a language named as syntax.Detect names it.
func ParseLanguage(lang string, src []byte) (*Outline, error) {
	var o *Outline
	var err error
	switch {
	case lang == "go":
		o, err = parseGo(src)
	case configLangs[lang]:
		o, err = parseConfig(lang, src)
	default:
		o, err = parseTreeSitter(lang, src)
	}
	if err != nil {
		return nil, err
	}
	o.Language = lang
	o.Lines = bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		o.Lines++
	}
	o.finish()
	return o, nil
}

var configLangs = map[string]bool{"json": true, "yaml": true, "toml": true}

// Supported reports whether this build outlines the language.
func Supported(lang string) bool {
	return lang == "go" || treeSitterLangs(lang)
}

// finish links parents, fills the flat list and sorts children by line.
func (o *Outline) finish() {
	var walk func(list []*Symbol, parent *Symbol)
	walk = func(list []*Symbol, parent *Symbol) {
		sort.SliceStable(list, func(i, j int) bool { return list[i].Start < list[j].Start })
		for _, s := range list {
			s.Parent = parent
			if s.Name == "" {
				s.Name = displayName(s, parent)
			}
			o.all = append(o.all, s)
			walk(s.Children, s)
		}
	}
	walk(o.Symbols, nil)
}

func displayName(s *Symbol, parent *Symbol) string {
	if parent == nil {
		return JoinPath(s.Segs)
	}
	return JoinPath(s.Segs[len(parent.Segs):])
}

// Format writes the outline for a model: one line per symbol,
// "FIRST-LAST KIND NAME" (or "LINE KIND NAME" for one line), children
// indented by two spaces under their parent, down to depth levels (0: all).
func (o *Outline) Format(depth int) string {
	var b strings.Builder
	var walk func(list []*Symbol, d int)
	walk = func(list []*Symbol, d int) {
		for _, s := range list {
			for range d {
				b.WriteString("  ")
			}
			b.WriteString(strconv.Itoa(s.Line))
			if s.EndLine != s.Line {
				b.WriteByte('-')
				b.WriteString(strconv.Itoa(s.EndLine))
			}
			b.WriteByte(' ')
			b.WriteString(s.Kind)
			b.WriteByte(' ')
			b.WriteString(s.Name)
			b.WriteByte('\n')
			if depth == 0 || d+1 < depth {
				walk(s.Children, d+1)
			} else if n := len(s.Children); n > 0 {
				for range d + 1 {
					b.WriteString("  ")
				}
				fmt.Fprintf(&b, "… %d more\n", n)
			}
		}
	}
	walk(o.Symbols, 0)
	return b.String()
}

// Count is the number of symbols down to depth levels (0: all).
func (o *Outline) Count(depth int) int {
	n := 0
	for _, s := range o.all {
		if depth == 0 || len(ancestors(s)) < depth {
			n++
		}
	}
	return n
}

func ancestors(s *Symbol) []*Symbol {
	var out []*Symbol
	for p := s.Parent; p != nil; p = p.Parent {
		out = append(out, p)
	}
	return out
}

// Find returns the symbols whose name path is name, in file order. For
// source code the name is normalised the way models write it: "::" and
// "#" join scopes like ".", a Go receiver may be written "(*T).M" or
// "*T.M", and a trailing "()" is ignored.
func (o *Outline) Find(name string) ([]*Symbol, error) {
	// A path as the outline writes it is taken as it is (an operator
	// method "A.*", C++'s "operator()").
	var exact []*Symbol
	for _, s := range o.all {
		if s.Path() == name {
			exact = append(exact, s)
		}
	}
	if len(exact) > 0 {
		return exact, nil
	}
	segs, err := o.ParseName(name)
	if err != nil {
		return nil, err
	}
	var out []*Symbol
	for _, s := range o.all {
		if equalSegs(s.Segs, segs) {
			out = append(out, s)
		}
	}
	return out, nil
}

// ParseName splits a name path into its segments.
func (o *Outline) ParseName(name string) ([]string, error) {
	name = strings.TrimSpace(name)
	if !o.Config {
		name = normaliseSource(name)
	}
	segs, err := SplitPath(name)
	if err != nil {
		return nil, err
	}
	if len(segs) == 0 {
		return nil, errors.New("the symbol name is empty")
	}
	return segs, nil
}

func normaliseSource(name string) string {
	// Quoted segments (a computed name, "[Symbol.iterator]") are kept
	// as written.
	var b strings.Builder
	for len(name) > 0 {
		q := strings.IndexByte(name, '"')
		if q < 0 {
			b.WriteString(normaliseBare(name))
			break
		}
		b.WriteString(normaliseBare(name[:q]))
		end := q + 1
		for end < len(name) && name[end] != '"' {
			if name[end] == '\\' {
				end++
			}
			end++
		}
		end = min(end+1, len(name))
		b.WriteString(name[q:end])
		name = name[end:]
	}
	return b.String()
}

func normaliseBare(name string) string {
	name = strings.ReplaceAll(name, "::", ".")
	// Ruby's A#m; a JavaScript private name (#field) keeps its #.
	var b0 strings.Builder
	for i := 0; i < len(name); i++ {
		if name[i] == '#' && i > 0 && name[i-1] != '.' {
			b0.WriteByte('.')
			continue
		}
		b0.WriteByte(name[i])
	}
	name = strings.TrimSuffix(b0.String(), "()")
	// Go receivers: (*T).M, (T).M, *T.M, T[K].M
	name = strings.NewReplacer("(*", "", "(", "", ")", "", "*", "").Replace(name)
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '[' || r == '<':
			depth++
		case r == ']' || r == '>':
			depth = max(depth-1, 0)
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func equalSegs(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// SplitPath splits a key path: segments joined by dots, a segment holding
// dots (or brackets, quotes, spaces) written in double quotes with \" and
// \\ escapes, list items as [N] after their list.
func SplitPath(p string) ([]string, error) {
	var segs []string
	i := 0
	expectSeg := true
	for i < len(p) {
		switch c := p[i]; {
		case c == '[':
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("unclosed [ in %q", p)
			}
			idx := p[i+1 : i+j]
			if _, err := strconv.Atoi(idx); err != nil {
				return nil, fmt.Errorf("list index %q in %q is not a number", idx, p)
			}
			segs = append(segs, "["+idx+"]")
			i += j + 1
			expectSeg = false
		case c == '.':
			if expectSeg {
				return nil, fmt.Errorf("empty segment in %q", p)
			}
			i++
			expectSeg = true
			if i == len(p) {
				return nil, fmt.Errorf("%q ends with a dot", p)
			}
		case c == '"' && expectSeg:
			var b strings.Builder
			j := i + 1
			for ; j < len(p) && p[j] != '"'; j++ {
				if p[j] == '\\' && j+1 < len(p) {
					j++
				}
				b.WriteByte(p[j])
			}
			if j == len(p) {
				return nil, fmt.Errorf("unclosed quote in %q", p)
			}
			segs = append(segs, b.String())
			i = j + 1
			expectSeg = false
		default:
			if !expectSeg {
				return nil, fmt.Errorf("a dot must separate the segments of %q", p)
			}
			j := i
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			segs = append(segs, p[i:j])
			i = j
			expectSeg = false
		}
	}
	return segs, nil
}

// JoinPath is the inverse of SplitPath.
func JoinPath(segs []string) string {
	var b strings.Builder
	for i, s := range segs {
		if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") && isIndex(s[1:len(s)-1]) {
			b.WriteString(s)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		if s == "" || strings.ContainsAny(s, ".[]\"\\") || strings.IndexFunc(s, func(r rune) bool { return r <= ' ' }) >= 0 {
			b.WriteByte('"')
			b.WriteString(strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s))
			b.WriteByte('"')
		} else {
			b.WriteString(s)
		}
	}
	return b.String()
}

func isIndex(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// Near returns up to max name paths of the outline close to name: those
// ending with its last segment, then those within a small edit distance,
// best first.
func (o *Outline) Near(name string, limit int) []*Symbol {
	segs, err := o.ParseName(name)
	if err != nil || len(segs) == 0 {
		return nil
	}
	want := strings.ToLower(JoinPath(segs))
	last := strings.ToLower(segs[len(segs)-1])
	type scored struct {
		s     *Symbol
		score int
	}
	var cands []scored
	for _, s := range o.all {
		p := strings.ToLower(s.Path())
		sl := strings.ToLower(s.Segs[len(s.Segs)-1])
		score := -1
		switch {
		case p == want:
			score = 0 // differs in case only
		case sl == last:
			score = 1
		default:
			if d := distance(p, want); d <= max(1, len(want)/3) {
				score = 2 + d
			} else if d := distance(sl, last); d <= len(last)/3 {
				score = 3 + d
			}
		}
		if score >= 0 {
			cands = append(cands, scored{s, score})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score < cands[j].score })
	var out []*Symbol
	for _, c := range cands {
		if len(out) == limit {
			break
		}
		out = append(out, c.s)
	}
	return out
}

// distance is the Levenshtein distance of a and b, bytewise.
func distance(a, b string) int {
	if len(a) > 200 || len(b) > 200 {
		return max(len(a), len(b))
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// lastLine is the line of the last non-blank byte of [start, end), or
// start's line when there is none.
func lastLine(l *lineindex.Index, start, end int) int {
	src := l.Content()
	end = min(end, len(src))
	for end > start && isSpace(src[end-1]) {
		end--
	}
	if end == start {
		return l.LineAt(start)
	}
	return l.LineAt(end - 1)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// indent is the leading white space of line n.
func indent(l *lineindex.Index, n int) string {
	t := l.Text(n)
	return string(t[:len(t)-len(bytes.TrimLeft(t, " \t"))])
}

// fillSpan fills a symbol's lines from the bytes of its declaration (from
// start, decorators included, to end), with the comment block above it
// told by the language's comment markers, and marks it Shared when other
// code stands on its first or last line.
func fillSpan(l *lineindex.Index, s *Symbol, start, end int, comments commentStyle) {
	s.Line = l.LineAt(start)
	s.EndLine = lastLine(l, start, end)
	if s.EndLine < s.Line {
		s.EndLine = s.Line
	}
	first := l.Text(s.Line)
	lead := start - l.Start(s.Line)
	if lead > len(first) || len(bytes.TrimSpace(first[:min(lead, len(first))])) > 0 {
		s.Shared = true
	}
	lastStart := l.Start(s.EndLine)
	lastText := l.Text(s.EndLine)
	if tail := end - lastStart; tail >= 0 && tail < len(lastText) {
		rest := bytes.TrimSpace(lastText[tail:])
		rest = bytes.TrimLeft(rest, ";,")
		rest = bytes.TrimSpace(rest)
		if len(rest) > 0 && !comments.isComment(rest) {
			s.Shared = true
		}
	}
	s.CommentLine = commentAbove(l, s.Line, comments)
	s.DeclLine = s.Line
}

// pastDecorators returns the first line from first (up to last) that is
// not a decorator, attribute or annotation line ("@name(...)", "#[...]"),
// following a decorator's brackets onto the lines they span and passing
// comments between decorators.
func pastDecorators(l *lineindex.Index, first, last int, c commentStyle) int {
	n := first
	for n < last {
		t := bytes.TrimSpace(l.Text(n))
		if n > first && c.isComment(t) && !bytes.HasPrefix(t, []byte("#[")) {
			n++ // a comment between decorators
			continue
		}
		if !bytes.HasPrefix(t, []byte("@")) && !bytes.HasPrefix(t, []byte("#[")) {
			return n
		}
		depth := 0
		for {
			for _, c := range l.Text(n) {
				switch c {
				case '(', '[', '{':
					depth++
				case ')', ']', '}':
					depth--
				}
			}
			if depth <= 0 || n >= last {
				break
			}
			n++
		}
		n++
	}
	return min(n, last)
}

// commentAbove returns the first line of the comment block ending on the
// line above line n at n's indentation, or 0.
func commentAbove(l *lineindex.Index, n int, c commentStyle) int {
	ind := indent(l, n)
	top := 0
	for k := n - 1; k >= 1; k-- {
		t := l.Text(k)
		trim := bytes.TrimSpace(t)
		if len(trim) == 0 {
			break
		}
		if c.block != "" && bytes.HasSuffix(trim, []byte(c.blockEnd)) && !bytes.HasPrefix(trim, []byte(c.line)) {
			// A block comment: walk up to its opening line.
			j := k
			for j >= 1 && !bytes.HasPrefix(bytes.TrimSpace(l.Text(j)), []byte(c.block)) {
				if j < k && bytes.Contains(l.Text(j), []byte(c.blockEnd)) {
					j = 0
					break
				}
				j--
			}
			if j <= 1 || indent(l, j) != ind {
				// j == 1: a comment opening the file is its header.
				break
			}
			top, k = j, j
			continue
		}
		if c.line == "" || !bytes.HasPrefix(trim, []byte(c.line)) || indent(l, k) != ind {
			break
		}
		if k == 1 {
			// A run of comments from the file's first line is its
			// header; a #! line is not a comment.
			if bytes.HasPrefix(t, []byte("#!")) {
				break
			}
			return 0
		}
		top = k
	}
	return top
}

// commentStyle is a language's comment markers.
type commentStyle struct {
	line            string
	block, blockEnd string
}

func (c commentStyle) isComment(text []byte) bool {
	return c.line != "" && bytes.HasPrefix(text, []byte(c.line)) || c.block != "" && bytes.HasPrefix(text, []byte(c.block))
}

var (
	slashComments = commentStyle{line: "//", block: "/*", blockEnd: "*/"}
	hashComments  = commentStyle{line: "#"}
)

// Comments returns the comment style of a language: its line comment
// marker and block comment delimiters ("" when it has none).
func Comments(lang string) (line, block, blockEnd string) {
	c := commentsOf(lang)
	return c.line, c.block, c.blockEnd
}

func commentsOf(lang string) commentStyle {
	switch lang {
	case "python", "ruby", "bash", "zsh", "yaml", "toml":
		return hashComments
	}
	return slashComments
}
