package snippet

// What a line defines, for the deletion rule: a function, a class, a
// test a string names, a method declared by what it returns (in a
// language of dialect.typed), a macro with parameters. doc.go part 1
// says what a definition reads like and why.

import (
	"regexp"
	"strings"
	"sync"
)

// definitionRE matches a line that defines a function or a class, and
// the name it defines (none for an anonymous function): func, def, class
// and function forms, and JavaScript's functions given to a name (name:
// function (, const name = (...) =>, const name = function), a named
// function returned (return function name(: a factory's product, whose
// name only a stack trace shows, but its body is the function's and goes
// with it; an anonymous one returned is a closure, read as code), TypeScript's
// type parameters and return type included (const name = <T>(...): R =>):
// a return type added is a signature changed, not another definition.
var definitionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:func|def|class|function)\b\s*\*?\s*(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)?` +
		`|^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*:\s*(?:async\s+)?function\b` +
		`|^\s*return\s+(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(` +
		`|^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|(?:<[^<>=]*>\s*)?\([^()]*\)\s*(?::\s*[^=()]+?\s*)?=>|[A-Za-z_$][\w$]*\s*=>)`)
})

// methodRE matches a line that declares a function with what it returns
// before its name, as C, C++, Java, C# and their kin declare one
// (@Override public List<T> visit(Type t, Void p) {, void App::parse(int
// n) const {, static int count(char *s) {), or with Rust's fn (pub(crate)
// async fn run<T>(x: T) -> R {), and the name it declares (for C++, the
// part after the last "::"): a line that opens the function's body, or
// its head without it (the brace on the next line, or the parameters
// wrapped: "int size(const Buffer& b," ends in a comma). The words before
// the name are modifiers and the type; none of them may be a keyword that
// makes the line a statement or a label (methodName): "else if (x) {",
// "return f(x)", "case 1: f(a,". A declaration without its body (bool
// next();) is no definition: a prototype deleted from a header is what
// commits do (measured: docs/ACCURACY.md, twenty-fourth pass).
var methodRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:pub(?:\([\w ]*\))?\s+)?(?:(?:const|async|unsafe|extern\s+"\w+")\s+)*fn\s+([A-Za-z_]\w*)` +
		`|^\s*(?:@[\w.]+(?:\([^()]*\))?\s+)*((?:(?:[A-Za-z_][\w:.]*(?:<[^(){};=]*>)?|<[^(){};=]*>)(?:\[\])*[*&]*\s+[*&]*)+)` +
		`(~?[A-Za-z_][\w:]*)\s*\((?:[^;{}]*\)[^;{}=]*\{?|[^;{}]*[,(])\s*$`)
})

// afterParams is what follows the parameter list that s begins with
// (spaces, then "(" and its match), or "" where it does not close.
func afterParams(s string) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return s[i+1:]
			}
		}
	}
	return ""
}

// defineRE matches a C preprocessor line that defines a macro with
// parameters, and its name: such a macro is a definition of its name as a
// function is (a function made a macro of the same name is that function
// rewritten). A macro without them (#define LIMIT 8) is a row of a table.
var defineRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*#\s*define\s+([A-Za-z_]\w*)\(`)
})

// statementWords are the words that make a line that methodRE matches a
// statement or a control line, not a declaration, where they stand among
// its words before the name.
var statementWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`if else for foreach while switch case catch return new throw await yield delete typeof
		go defer do try synchronized using lock with sizeof elif unless until when puts print echo not and or in is
		assert raise del import from lambda include require extend goto co_return co_await co_yield default`) {
		m[w] = true
	}
	return m
})

// controlWords are the words that, where methodRE reads a name, make the
// line a control statement ("} else if (x) {" aside, which its first
// word already tells): a method may be named print, delete or with, but
// not if.
var controlWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`if for foreach while switch catch synchronized using lock return sizeof typeof elif unless until`) {
		m[w] = true
	}
	return m
})

// methodName is the name of the function that line l declares, as
// methodRE reads one (a return type or a modifier before the name, or
// Rust's fn), or of the macro it defines (defineRE); else "".
func methodName(l string) string {
	t := strings.TrimLeft(l, " \t")
	if t == "" {
		return ""
	}
	if t[0] == '#' {
		if m := defineRE().FindStringSubmatch(t); m != nil {
			return m[1]
		}
		return ""
	}
	// Without the regular expression: a line that does not begin with a
	// name or an annotation (a comment, a brace), has no parameters, ends
	// a statement, begins with a statement's word, or has one word only
	// before its first "(" (a call, foo(x) {) or an assignment or a
	// string.
	if c := t[0]; !(c == '_' || c == '@' || c == '<' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		return ""
	}
	p := strings.IndexByte(t, '(')
	if p < 0 || strings.HasSuffix(strings.TrimRight(t, " \t\r"), ";") {
		return ""
	}
	if w, _, _ := strings.Cut(t, " "); statementWords()[w] {
		return ""
	}
	if head := strings.TrimRight(t[:p], " \t"); t[0] != '@' && !strings.HasPrefix(t, "pub(") &&
		(!strings.ContainsAny(head, " \t") || strings.ContainsAny(head, "=\"'")) {
		return ""
	}
	ix := methodRE().FindStringSubmatchIndex(l)
	switch {
	case ix == nil:
		return ""
	case ix[2] >= 0:
		return l[ix[2]:ix[3]]
	case strings.Contains(afterParams(l[ix[7]:]), "="):
		return "" // a value assigned after the parentheses: x(a) = new Foo() {
	}
	name := l[ix[6]:ix[7]]
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	if controlWords()[name] {
		return ""
	}
	for _, w := range strings.FieldsFunc(l[ix[4]:ix[5]], func(r rune) bool { return r == ' ' || r == '\t' || r == '*' || r == '&' }) {
		if statementWords()[w] || strings.HasSuffix(w, ":") && !strings.HasSuffix(w, "::") {
			return "" // a statement's word, or a label's (case 1:, default:)
		}
	}
	return name
}

// memberFuncRE matches a line that gives a function to a member
// (this.x = function (, obj.x = (a) =>, X.prototype.y = function), and
// the member's name.
var memberFuncRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:[A-Za-z_$][\w$]*\.)+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)`)
})

// memberFunc is the name of the member line l gives a function to, or "".
// Such a line is no definition for the deletion rule (it is read like
// lines of its names, as any assignment), but it is not read like a line
// that calls that member: a call needs the function, so it rewrites
// nothing of it (a forgotten marker drops "this.dasherize = function"
// while a new line calls this.dasherize).
func memberFunc(l string) string {
	if !strings.Contains(l, "=") || !strings.Contains(l, "function") && !strings.Contains(l, "=>") {
		return ""
	}
	if m := memberFuncRE().FindStringSubmatch(l); m != nil {
		return m[1]
	}
	return ""
}

// namedBlockRE matches a line that opens a block named by a string: a
// call of a bare name at the line's start (not a method: app.on('error',
// ...) names an event, not a block) whose first argument, or second after
// a fixture's name, is a string literal, and whose line ends opening a
// block of code (do, a function or closure, the call's own braces; not
// an object literal passed as an argument): a test (it "parses" do,
// it('parses', () => {, TEST_CASE_METHOD(App, "parses", "[tag]") {,
// @test "parses" {), a group of them (describe, context), a route
// (get '/' do).
var namedBlockRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*@?([A-Za-z_]\w*)\s*\(?\s*(?:[A-Za-z_][\w:]*\s*,\s*)?(?:"([^"\\]+)"|'([^'\\]+)'|` + "`([^`\\\\$]+)`" + `)` +
		`.*(?:\bdo(?:\s*\|[^|]*\|)?|=>\s*\{|\bfunc(?:tion)?\b[^{]*\{|\)\s*\{|["']\s*\{)\s*$`)
})

// blockName is the name, quoted, of the block line l opens when a string
// names it (namedBlockRE): it is what tells the block apart from its
// siblings, as a function's name does, so a forgotten marker that drops
// one test for another of another name drops a definition. Control
// statements are no such block.
func blockName(l string) string {
	t := strings.TrimRight(l, " \t\r")
	if !strings.ContainsAny(l, "\"'`") || !strings.HasSuffix(t, "{") && !strings.HasSuffix(t, "do") && !strings.HasSuffix(t, "|") {
		return "" // no string, or no block opened: without the regular expression
	}
	m := namedBlockRE().FindStringSubmatch(l)
	if m == nil {
		return ""
	}
	switch m[1] {
	case "if", "elif", "elsif", "else", "unless", "while", "until", "for", "switch", "case", "when", "return", "catch", "with":
		return ""
	}
	for _, g := range m[2:] {
		if g != "" {
			return `"` + g + `"`
		}
	}
	return ""
}

// defName is what line l defines: "" when it defines nothing, "()" for
// an anonymous function, the quoted string of a block a string names
// (blockName), else the name. A definition is the same one
// only where the name stays (a signature changed); one of another name
// is another definition. In a language that declares a function by what
// it returns (dl.typed), a line that declares one so (methodName) is a
// definition too.
func defName(l string, dl dialect) string {
	if n := blockName(l); n != "" {
		return n
	}
	if strings.Contains(l, "func") || strings.Contains(l, "def") || strings.Contains(l, "class") || strings.Contains(l, "=>") {
		if m := definitionRE().FindStringSubmatch(l); m != nil {
			for _, g := range m[1:] {
				if g != "" {
					return g
				}
			}
			return "()"
		}
	}
	if dl.typed {
		return methodName(l)
	}
	return ""
}
