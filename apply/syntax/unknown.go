package syntax

import (
	"bytes"
	"slices"
	"strings"
	"sync"
)

// The rule for words the checker cannot read: see "What a compiler may
// accept" in the package documentation.

// wordRule is a language's set of words that the checker may not be able
// to read where its compiler can: droppable words.
type wordRule struct {
	// preprocessor: every identifier that is not a keyword may be a macro
	// (C, C++); a macro called with arguments may be dropped with them.
	preprocessor bool
	// words are the modifier words that this language added after its
	// first grammar (TypeScript's accessor, Rust's safe).
	words map[string]bool
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// cKeywords are C's and C++'s reserved words, which no macro replaces in
// code a project compiles; the set is made at first use, not at every
// process's start.
var cKeywords = sync.OnceValue(func() map[string]bool {
	return wordSet(`auto break case char const continue default do double else enum extern float for goto if inline int
long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while
_Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn _Static_assert _Thread_local
bool true false nullptr alignas alignof static_assert thread_local typeof typeof_unqual constexpr
class namespace template typename public private protected virtual friend operator new delete this throw try catch
using explicit mutable override final noexcept decltype concept requires co_await co_return co_yield consteval
constinit export import module dynamic_cast static_cast reinterpret_cast const_cast typeid wchar_t char8_t
char16_t char32_t and or not xor bitand bitor compl and_eq or_eq not_eq xor_eq asm defined`)
})

var (
	cWords = &wordRule{preprocessor: true}
	// tsWords are the modifier words TypeScript has allowed in new places
	// since 4.3 (override; in and out on type parameters, 4.7; accessor,
	// 4.9; type in export type *, 5.0): the
	// places a grammar written earlier may not know. The older modifiers
	// (public, static, readonly, async, ...) stand where the grammar reads
	// them, so an error at one is a mistake, not a lag.
	tsWords = &wordRule{words: wordSet(`override in out accessor type`)}
	// rustWords are Rust's weak keywords that qualify an item (safe in
	// edition 2024's unsafe extern blocks).
	rustWords = &wordRule{words: wordSet(`safe`)}
)

// Bounds of the search for droppable words, so that a file the checker
// cannot read costs a bounded number of parses: at most maxTrials, and at
// most maxTrialBytes of content parsed in all (as addedOf reports it: the
// window around the edit, or both whole contents). Past them the errors
// refuse.
const (
	maxTrials     = 32
	maxTrialBytes = 16 << 20
	// siteLines is how many lines around an error's own lines its site
	// takes in: recovery reports an error at the token after the one the
	// parser could not place, often on the next line.
	siteLines = 1
	// maxCallArgs bounds how far a macro call's argument list is looked for.
	maxCallArgs = 4 << 10
)

// span is a byte range [start, end) of the content.
type span struct{ start, end int }

// unknownWords looks for words of after that, blanked out, leave no added
// error: a witness that the language's compiler may read after where the
// checker cannot (a macro that expands to nothing, a modifier newer than
// the grammar). added are the errors Check found; addedOf recomputes them
// for a variant of after and says how many bytes it parsed. It returns the words dropped, in file order, or
// nil when the errors stay however it drops words at their sites, or when
// the edit changed the balance of brackets, quotes or comments, which no
// macro can restore. cur is a copy of after to work in (its words are
// blanked in place), left with the words dropped blanked.
func unknownWords(rule *wordRule, before, after, cur []byte, added []diag, addedOf func([]byte) ([]diag, int, error)) ([]string, error) {
	if rule == nil || len(added) == 0 {
		return nil, nil
	}
	if rule.preprocessor && lexBalance(before) != lexBalance(after) {
		return nil, nil
	}
	// Each trial blanks a span of cur in place and puts it back unless it
	// is kept: one copy of the file, not one a trial.
	var dropped []span
	var saved []byte
	trials, work := 0, 0
	for len(added) > 0 {
		d := added[0]
		progress := false
		for _, s := range candidates(rule, cur, d) {
			if trials >= maxTrials || work > maxTrialBytes {
				return nil, nil
			}
			trials++
			saved = append(saved[:0], cur[s.start:s.end]...)
			blankSpan(cur, s.start, s.end)
			got, cost, err := addedOf(cur)
			if err != nil {
				return nil, err
			}
			work += cost
			if better(got, added) {
				added, progress = got, true
				dropped = append(dropped, s)
				break
			}
			copy(cur[s.start:s.end], saved)
		}
		if !progress {
			return nil, nil
		}
	}
	slices.SortFunc(dropped, func(a, b span) int { return a.start - b.start })
	var words []string
	for _, s := range dropped {
		w := string(after[s.start:s.end])
		if i := strings.IndexAny(w, "( \t\r\n"); i >= 0 && rule.preprocessor {
			w = w[:i] + "(...)"
		}
		if !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	return words, nil
}

// better reports whether got is progress over was: fewer added errors, or
// as many with the first one further on (the parser got past the word).
func better(got, was []diag) bool {
	if len(got) != len(was) {
		return len(got) < len(was)
	}
	return got[0].start > was[0].start
}

// candidates lists the spans that may be dropped at d's site, the error's
// own lines and siteLines lines on each side: droppable words (and, for a
// preprocessor's macro called with arguments, the call), nearest to the
// error first.
func candidates(rule *wordRule, src []byte, d diag) []span {
	from := bytes.LastIndexByte(src[:min(d.start, len(src))], '\n') + 1
	for i := 0; i < siteLines && from > 0; i++ {
		from = bytes.LastIndexByte(src[:from-1], '\n') + 1
	}
	to := len(src)
	if nl := bytes.IndexByte(src[min(max(d.end, d.start), len(src)):], '\n'); nl >= 0 {
		to = max(d.end, d.start) + nl
		for i := 0; i < siteLines && to < len(src); i++ {
			if nl := bytes.IndexByte(src[to+1:], '\n'); nl >= 0 {
				to = to + 1 + nl
			} else {
				to = len(src)
			}
		}
	}
	var out []span
	for _, w := range words(src, from, to) {
		word := src[w.start:w.end]
		switch {
		case rule.preprocessor && !cKeywords()[string(word)]:
			out = append(out, w)
			if end, ok := callEnd(src, w.end); ok {
				out = append(out, span{w.start, end})
			}
		case rule.words[string(word)]:
			out = append(out, w)
		}
	}
	// Nearest first; in C and C++ names written as macros are by
	// convention (upper case, or reserved with a leading "__") before the
	// rest, so that the words reported are the likely macros.
	rank := func(s span) int {
		r := s.start - d.start
		if r < 0 {
			r = -r
		}
		if rule.preprocessor && !macroShaped(src[s.start:s.end]) {
			r += len(src) + 1
		}
		return r
	}
	slices.SortStableFunc(out, func(a, b span) int { return rank(a) - rank(b) })
	return out
}

// macroShaped reports whether w (a word, or a word and its arguments) is
// named the way macros are: no lower-case letter in its name, or a leading
// "__".
func macroShaped(w []byte) bool {
	if bytes.HasPrefix(w, []byte("__")) {
		return true
	}
	for _, c := range w {
		switch {
		case c >= 'a' && c <= 'z':
			return false
		case !isIdentByte(c):
			return true
		}
	}
	return true
}

// words returns the identifier-shaped tokens of src[from:to], outside
// comments, string and character literals and preprocessor lines (as far as
// a scan starting at from can tell).
func words(src []byte, from, to int) []span {
	var out []span
	lineStart := true
	for i := from; i < to; {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '#' && lineStart:
			i = lineEnd(src, i)
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = lineEnd(src, i)
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			if e := bytes.Index(src[i+2:], []byte("*/")); e >= 0 {
				i += e + 4
			} else {
				i = len(src)
			}
		case c == '"' || c == '\'' || c == '`':
			e, ok := literalEnd(src, i)
			if !ok && c == '\'' {
				e = i + 1 // a Rust lifetime, or a stray quote
			}
			i = e
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			out = append(out, span{i, j})
			i = j
		case c >= '0' && c <= '9':
			i = numberEnd(src, i)
		default:
			i++
		}
		lineStart = false
	}
	return out
}

// callEnd returns the end of the parenthesised argument list that follows
// offset i (after spaces), when there is one and it closes within
// maxCallArgs bytes.
func callEnd(src []byte, i int) (int, bool) {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i >= len(src) || src[i] != '(' {
		return 0, false
	}
	depth := 0
	for j := i; j < len(src) && j-i < maxCallArgs; {
		switch src[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j + 1, true
			}
		case '"', '\'':
			j, _ = literalEnd(src, j)
			continue
		}
		j++
	}
	return 0, false
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// lineEnd returns the offset of the line break ending the logical line at
// i, following backslash continuations.
func lineEnd(src []byte, i int) int {
	for {
		nl := bytes.IndexByte(src[i:], '\n')
		if nl < 0 {
			return len(src)
		}
		e := i + nl
		if e > 0 && (src[e-1] == '\\' || src[e-1] == '\r' && e > 1 && src[e-2] == '\\') {
			i = e + 1
			continue
		}
		return e
	}
}

// literalEnd returns the offset after the string or character literal
// opening at i, and false when the line ends before it closes (a template
// literal, opened by a backquote, may span lines).
func literalEnd(src []byte, i int) (int, bool) {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1, true
		case '\n':
			if q != '`' {
				return j, false
			}
		}
	}
	return len(src), false
}

// numberEnd returns the end of the number starting at i; C++14 digit
// separators (1'000) and suffixes are part of it.
func numberEnd(src []byte, i int) int {
	for i < len(src) && (isIdentByte(src[i]) || src[i] == '.' || src[i] == '\'' && i+1 < len(src) && isIdentByte(src[i+1])) {
		i++
	}
	return i
}

// balance counts what no macro can change in C and C++: the brackets
// outside comments, literals and preprocessor lines (only the first branch
// of an #if chain counts, as branches often open a brace each), literals
// that a line break cuts, and a comment left open at the end.
type balance struct {
	paren, bracket, brace int
	cutLiterals           int
	openComment           bool
}

// lexBalance scans C or C++ source for its balance.
func lexBalance(src []byte) balance {
	var b balance
	// skip holds, for each #if level, whether its current branch is one
	// that is not counted.
	var skip []bool
	skipping := func() bool { return len(skip) > 0 && skip[len(skip)-1] }
	scanC(src, func(t cToken) {
		switch t.kind {
		case cDirective:
			switch directive(src[t.at+1 : t.end]) {
			case "if", "ifdef", "ifndef":
				skip = append(skip, skipping())
			case "else", "elif", "elifdef", "elifndef":
				if len(skip) > 0 {
					skip[len(skip)-1] = true
				}
			case "endif":
				if len(skip) > 0 {
					skip = skip[:len(skip)-1]
				}
			}
		case cOpenComment:
			b.openComment = !skipping()
		case cCutLiteral:
			if !skipping() {
				b.cutLiterals++
			}
		case cPunct:
			if !skipping() {
				switch src[t.at] {
				case '(':
					b.paren++
				case ')':
					b.paren--
				case '[':
					b.bracket++
				case ']':
					b.bracket--
				case '{':
					b.brace++
				case '}':
					b.brace--
				}
			}
		}
	})
	return b
}

// cToken is what scanC reports: a directive line (# at at, the logical
// line ending at end), a comment left open at the end, a literal a line
// break cuts, or one character of punctuation at at.
type cToken struct {
	kind    int
	at, end int
}

const (
	cDirective = iota
	cOpenComment
	cCutLiteral
	cPunct
)

// scanC walks C or C++ source as its lexer does, past comments, string,
// character and raw string literals, names and numbers, and reports to
// visit what lexBalance and directiveLines read.
func scanC(src []byte, visit func(cToken)) {
	lineStart := true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '#' && lineStart:
			e := lineEnd(src, i)
			visit(cToken{kind: cDirective, at: i, end: e})
			i = e
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = lineEnd(src, i)
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			e := bytes.Index(src[i+2:], []byte("*/"))
			if e < 0 {
				visit(cToken{kind: cOpenComment, at: i, end: len(src)})
				return
			}
			i += e + 4
		case c == 'R' && i+1 < len(src) && src[i+1] == '"' && (i == 0 || !isIdentByte(src[i-1])):
			i = rawStringEnd(src, i+1)
		case c == '"' || c == '\'':
			e, ok := literalEnd(src, i)
			if !ok {
				visit(cToken{kind: cCutLiteral, at: i, end: e})
			}
			i = e
		case isIdentByte(c):
			if c >= '0' && c <= '9' {
				i = numberEnd(src, i)
			} else {
				for i < len(src) && isIdentByte(src[i]) {
					i++
				}
			}
		default:
			visit(cToken{kind: cPunct, at: i, end: i + 1})
			i++
		}
		lineStart = false
	}
}

// directive returns the name of the preprocessor directive whose text
// (after the #) is line.
func directive(line []byte) string {
	line = bytes.TrimLeft(line, " \t")
	n := 0
	for n < len(line) && isIdentByte(line[n]) {
		n++
	}
	return string(line[:n])
}

// rawStringEnd returns the end of a C++ raw string literal whose opening
// quote is at i: R"delim( ... )delim".
func rawStringEnd(src []byte, i int) int {
	open := bytes.IndexByte(src[i+1:], '(')
	if open < 0 || open > 16 {
		e, _ := literalEnd(src, i)
		return e
	}
	delim := src[i+1 : i+1+open]
	closing := append(append([]byte(")"), delim...), '"')
	if e := bytes.Index(src[i+2+open:], closing); e >= 0 {
		return i + 2 + open + e + len(closing)
	}
	return len(src)
}
