package snippet

// How the rules read one line: its words and names, brackets, comments,
// and the line diff they pair lines by.

import (
	"bytes"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/graftdev/graft/gitstore/textdiff"
)

// stringsRE matches string literals of the usual forms.
var stringsRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`")
})

// isName reports whether w reads as an identifier (letters, digits, _
// and $, not starting with a digit).
func isName(w string) bool {
	for i, r := range w {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return w != ""
}

// holdsWhole reports whether content holds text at some place [s, e)
// that whole accepts (a whole line, a whole word).
func holdsWhole(content []byte, text string, whole func(s, e int) bool) bool {
	for off := 0; off < len(content); {
		i := bytes.Index(content[off:], []byte(text))
		if i < 0 {
			return false
		}
		at := off + i
		if whole(at, at+len(text)) {
			return true
		}
		off = at + 1
	}
	return false
}

func indentWidth(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }

// opens reports whether a line opens a block: it ends in "{" or ":"
// (strings and a trailing comment aside).
func opens(l string) bool {
	l = withoutTrailingComment(codeOf(l))
	return strings.HasSuffix(l, "{") || strings.HasSuffix(l, ":")
}

// codeOf is a line without its string literals' text and without a
// comment at its end ("//", or " #"), trimmed. A URL's "//" after its
// scheme (https://, in prose, a YAML value or a comment's text) begins no
// comment: a line with a link does not end at "https:" and so open a
// block.
func codeOf(l string) string {
	l = stringsRE().ReplaceAllString(l, `""`)
	if i := commentStart(l); i >= 0 {
		l = l[:i]
	}
	if i := strings.Index(l, " #"); i >= 0 {
		l = l[:i]
	}
	return strings.TrimSpace(l)
}

// commentStart is where a "//" comment begins in l (-1 for none): the
// first "//" that is not a URL's, right after a scheme (letters, then
// ":") and followed by more than white space.
func commentStart(l string) int {
	for off := 0; ; {
		i := strings.Index(l[off:], "//")
		if i < 0 {
			return -1
		}
		i += off
		if !afterScheme(l, i) || i+2 == len(l) || l[i+2] == ' ' || l[i+2] == '\t' {
			return i
		}
		off = i + 2
	}
}

// afterScheme reports whether l[:i] ends in a URL's scheme: a letter, then
// letters, digits, "+", "-" or ".", then ":".
func afterScheme(l string, i int) bool {
	if i < 2 || l[i-1] != ':' {
		return false
	}
	j := i - 1
	for j > 0 && (isLetter(l[j-1]) || l[j-1] >= '0' && l[j-1] <= '9' || l[j-1] == '+' || l[j-1] == '-' || l[j-1] == '.') {
		j--
	}
	return j < i-1 && isLetter(l[j]) && (j == 0 || !isNameByte(l[j-1]))
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// withoutTrailingComment is code (codeOf) without a block comment after
// white space that ends the line or goes on to the next (C's "else {  /*
// why */").
func withoutTrailingComment(code string) string {
	if i := strings.LastIndex(code, "/*"); i > 0 && (code[i-1] == ' ' || code[i-1] == '\t') && (strings.HasSuffix(code, "*/") || !strings.Contains(code[i:], "*/")) {
		return strings.TrimSpace(code[:i])
	}
	return code
}

// isComment reports whether a line is a comment line.
func isComment(l string) bool {
	t := strings.TrimSpace(l)
	if strings.HasPrefix(t, "#") && directive(t) {
		return false // C's preprocessor: code
	}
	for _, p := range []string{"//", "#", "/*", "*", "<!--", "--"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// brackets is how many more brackets ls opens than it closes, outside
// strings and comments.
func brackets(ls []string) int {
	n := 0
	for _, l := range ls {
		if isComment(l) {
			continue
		}
		for _, r := range codeOf(l) {
			switch r {
			case '{', '(', '[':
				n++
			case '}', ')', ']':
				n--
			}
		}
	}
	return n
}

// directive reports whether l is a C preprocessor directive (#define,
// #if, ...): code, though it begins as a comment does in Python or shell
// (a macro's brackets pair with its continuation lines').
func directive(l string) bool {
	return directiveRE().MatchString(l)
}

var directiveRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*#(?:define|undef|if|ifdef|ifndef|elif|else|endif|include|pragma|error|line)\b`)
})

// containsWord reports whether content holds name as a whole word.
func containsWord(content []byte, name string) bool {
	return holdsWhole(content, name, func(s, e int) bool {
		return (s == 0 || !isNameByte(content[s-1])) && (e == len(content) || !isNameByte(content[e]))
	})
}

// isNameByte reports whether c may stand in a name (a byte of a UTF-8
// letter included).
func isNameByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// lineNames is what the deletion rule asks of a snippet line, read once.
type lineNames struct {
	names           []string
	def             string // what the line defines (defName)
	comment, report bool
	data            []string // a data row's literals (literalList), nil for any other line
	member          string   // the member the line gives a function to (memberFunc)
}

// poolNames reads the lines of pool once for the deletion rule.
func poolNames(pool []string, dl dialect) []lineNames {
	out := make([]lineNames, len(pool))
	for j, l := range pool {
		out[j] = lineNames{names: names(l), def: defName(l, dl), comment: isComment(l), report: reportLine(l), member: memberFunc(l)}
		if dataRow(l) {
			out[j].data = literalList(l)
		}
	}
	return out
}

// overlap is nameOverlap of lines already read into names.
func overlap(na, nb []string) float64 {
	if len(na) == 0 {
		return 0
	}
	count := map[string]int{}
	for _, w := range nb {
		count[w]++
	}
	common := 0
	for _, w := range na {
		if count[w] > 0 {
			count[w]--
			common++
		}
	}
	return float64(common) / float64(len(na))
}

// sharesLong is sharesLongName of lines already read into names.
func sharesLong(na, nb []string) bool {
	for _, w := range na {
		if len(w) > 1 && slices.Contains(nb, w) {
			return true
		}
	}
	return false
}

// sharesLongName reports whether a and b have a name of two characters
// or more in common (one letter, like "i" or "b", is everywhere).
func sharesLongName(a, b string) bool { return sharesLong(names(a), names(b)) }

// nameOverlap is the share of a's names (counted with multiplicity) that
// b has too.
func nameOverlap(a, b string) float64 { return overlap(names(a), names(b)) }

// keywords are words of the languages graft knows that name nothing of
// a program's own: a line of only these says nothing about what it is.
var keywords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`if else for range func return var const type struct interface map chan go defer
		select case switch default break continue nil true false err def elif while in not and or is None True False self
		pass raise try except finally with as import from class lambda yield function let new this typeof instanceof of
		null undefined await async throw catch do end then fn pub mut impl use package public private static void int export
		string bool error len make append`) {
		m[w] = true
	}
	return m
})

// names are a line's words that are not keywords or numbers, outside
// its string literals (prose in a message is not what code is about).
// A line whose names all stand in strings (a JSON key and value) keeps
// them.
func names(s string) []string {
	pick := func(s string) []string {
		var out []string
		for _, w := range words(s) {
			if !keywords()[w] && !unicode.IsDigit(rune(w[0])) {
				out = append(out, w)
			}
		}
		return out
	}
	if out := pick(stringsRE().ReplaceAllString(s, `""`)); len(out) > 0 {
		return out
	}
	return pick(s)
}

func named(s string) bool { return len(names(s)) > 0 }

// counts reports whether removed line s counts among the lines a region
// may drop with nothing like them (package doc, part 3): a line with a
// name, or a case label, whose value (case 0x01:, case "get":) is what
// it is about as a name is: a switch's labels dropped are a table's rows
// gone; so does a row of data (dataRow), for the same reason. In prose
// every word counts, a version number too (a changelog's "0.5.0
// (2017-02-06)" is its section's name), and so does a code fence without
// a language: a fenced example dropped goes with its fences, and a
// rewrite of the prose around an example keeps them. A comment line is
// prose in code, and reads as prose does ("@return false" names nothing
// the program declares, and is a third of a doc comment).
func counts(s string, prose bool) bool {
	if named(s) || (prose || isComment(s)) && (len(words(s)) > 0 || fenceLine(s)) || !prose && dataRow(s) {
		return true
	}
	t := strings.TrimSpace(codeOf(s))
	f := strings.Fields(t)
	return len(f) >= 2 && f[0] == "case" && strings.HasSuffix(t, ":")
}

// wordOverlap is the share of the words (runs of letters, digits and _)
// of a that b has too, counted with multiplicity; lines without words
// compare their punctuation as one word.
func wordOverlap(a, b string) float64 {
	wa := words(a)
	if len(wa) == 0 {
		if strings.TrimSpace(a) == strings.TrimSpace(b) {
			return 1
		}
		return 0
	}
	return overlap(wa, words(b))
}

func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
	})
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// lcs pairs equal elements of a and b (single lines, without line
// breaks) in order, by graft's one line diff: the lines it leaves
// unchanged.
func lcs(a, b []string) [][2]int {
	join := func(ls []string) []byte {
		var buf []byte
		for _, l := range ls {
			buf = append(append(buf, l...), '\n')
		}
		return buf
	}
	var out [][2]int
	i, j := 0, 0
	for _, e := range textdiff.Lines(join(a), join(b)) {
		for ; i < e.A0; i, j = i+1, j+1 {
			out = append(out, [2]int{i, j})
		}
		i, j = e.A1, e.B1
	}
	for ; i < len(a) && j < len(b); i, j = i+1, j+1 {
		out = append(out, [2]int{i, j})
	}
	return out
}

// splitKeep splits text after each line break, keeping it.
func splitKeep(text string) []string {
	ls := strings.SplitAfter(text, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// numberRE matches a number literal.
var numberRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b\d[\w.]*`)
})

// literalWords are the keywords that are values: they may stand in a
// data row, but do not make one.
var literalWords = map[string]bool{"true": true, "false": true, "True": true, "False": true, "None": true, "null": true, "nil": true, "undefined": true, "NULL": true}

// dataRow reports whether s is a row of data: literals and punctuation
// only, with a string that holds a letter or digit, or a number, among
// them (- "3.9", (100, "1,000"), 0x1f,); true, null and their kin may
// stand beside them (": null", a ternary's last line, is no row).
func dataRow(s string) bool {
	if isComment(s) {
		return false
	}
	lit := false
	for _, q := range stringsRE().FindAllString(s, -1) {
		lit = lit || strings.IndexFunc(q, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
	}
	c := withoutTrailingComment(codeOf(s))
	if n := numberRE().ReplaceAllString(c, " "); n != c {
		lit, c = true, n
	}
	for _, w := range words(c) {
		if !literalWords[w] {
			return false
		}
	}
	return lit
}

// literalList is the literals of line s, in order: what a data row
// holds whatever its punctuation.
func literalList(s string) []string { return literalRE().FindAllString(s, -1) }

// literalRE matches a literal: a string (stringsRE), a number
// (numberRE) or one of literalWords.
var literalRE = sync.OnceValue(func() *regexp.Regexp {
	words := slices.Sorted(maps.Keys(literalWords))
	return regexp.MustCompile(stringsRE().String() + "|" + numberRE().String() + `|\b(?:` + strings.Join(words, "|") + `)\b`)
})
