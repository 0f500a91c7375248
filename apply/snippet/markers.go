package snippet

// Markers: which lines of a snippet stand for the file's unchanged lines,
// and how a snippet splits into regions.

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// IsProse reports whether a file of this name is prose, by its extension:
// Markdown, reStructuredText, AsciiDoc, Org, plain text, or none at all
// (README, LICENSE; not a build file such as a Makefile or a Dockerfile,
// nor a dotfile).
func IsProse(name string) bool {
	base := name[strings.LastIndexAny(name, "/\\")+1:]
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 {
		// README, LICENSE; but a build file without an extension, or a
		// dotfile, is code.
		switch strings.ToLower(base) {
		case "makefile", "gnumakefile", "dockerfile", "containerfile", "jenkinsfile", "rakefile", "gemfile",
			"vagrantfile", "podfile", "brewfile", "justfile", "build", "workspace":
			return false
		}
		return dot < 0
	}
	switch strings.ToLower(base[dot+1:]) {
	case "txt", "text":
		return !strings.EqualFold(base, "CMakeLists.txt")
	case "md", "markdown", "mdx", "rst", "adoc", "asciidoc", "org":
		return true
	}
	return false
}

// commentRE takes one comment apart: its opening, text and closing.
var commentRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\{/\*|/\*+|<!--|//+|#+|--|;+|%+|\*)\s*(.*?)\s*(?:\*+/\}|\*+/|-->|//+)?$`)
})

// markerWordsRE is what a marker may say besides its ellipses.
var markerWordsRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(?:keep|keeping|the|rest|of|remaining|existing|unchanged|previous|other|omitted|same|more|original|all|any|your|as|before|here|is|are|stays|stay|remains|remain|untouched|code|lines?|content|contents|file|implementation|methods?|functions?|imports?|fields?|properties|props|cases?|tests?|logic|body|definitions?|declarations?|rules?|styles?|config|configuration|settings|entries|items|components?|classes|class|members|exports?|routes?|handlers?|types?|helpers?|and|etc|so|on|omitted|elided|for|brevity|snip|snipped|no|changes?|changed|unmodified|continues|continued|state|jsx|markup|html|below|above|intact|following|preceding|everything|else|switch|struct|structs|left|stays?)\s*)*$`)
})

// keepRE is what a marker without an ellipsis must say: that the code
// it stands for stays as it is.
var keepRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:existing|unchanged|untouched|unmodified|intact|omitted|elided|snipped|rest of|(?:remains?|stays?|is|are) the same|same as before|as before|no changes?)\b`)
})

// restRE is a marker that names what it keeps ("rest of parseArgs
// unchanged", "existing handleRequest code"): a name or two besides the
// marker words.
var restRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:rest of|existing)\b`)
})

// IsMarker reports whether a snippet line is a marker: a comment holding
// an ellipsis with words that say "existing code", or those words alone
// when they say the code stays ("// rest of the code unchanged", "#
// existing code"). ParseIn reads the second kind as code where the file
// holds that very comment line.
func IsMarker(line string) bool { return markerKind(line) != noMarker }

// Kinds of marker line.
const (
	noMarker = iota
	ellipsisMarker
	phraseMarker // words that say the code stays, without an ellipsis
)

func markerKind(line string) int {
	k, _ := readMarker(line)
	return k
}

// readMarker is markerKind, and what the marker says besides its
// ellipses and punctuation ("" for "// ...", " *     ...", "// (...)").
func readMarker(line string) (kind int, said string) {
	t := strings.TrimSpace(strings.TrimSuffix(line, "\r"))
	m := commentRE().FindStringSubmatch(t)
	if m == nil {
		return noMarker, ""
	}
	text := strings.TrimSpace(m[1])
	ellipsis := strings.Contains(text, "...") || strings.Contains(text, "…")
	words := strings.NewReplacer("...", " ", "…", " ", "(", " ", ")", " ", "[", " ", "]", " ", ",", " ", ".", " ", ":", " ", "-", " ", ";", " ").Replace(text)
	said = strings.ToLower(strings.Join(strings.Fields(words), " "))
	if said == "" && !ellipsis {
		return noMarker, ""
	}
	if !ellipsis && !keepRE().MatchString(said) {
		return noMarker, ""
	}
	if !markerWordsRE().MatchString(said) && !(ellipsis && namesWhatItKeeps(said)) {
		return noMarker, ""
	}
	if ellipsis {
		return ellipsisMarker, said
	}
	return phraseMarker, said
}

// namesWhatItKeeps reports whether a marker's words are marker words but
// for one or two names of the code kept ("... rest of parseArgs ...",
// "... existing __init__ body ..."), with "rest of" or "existing" saying
// it is kept. Only a marker with an ellipsis may name things: "//
// existing users" is a comment.
func namesWhatItKeeps(said string) bool {
	if !restRE().MatchString(said) {
		return false
	}
	other := 0
	for _, w := range strings.Fields(said) {
		if markerWordsRE().MatchString(w) {
			continue
		}
		if other++; other > 2 || !isName(w) {
			return false
		}
	}
	return true
}

// Parse splits a code_edit into its regions.
func Parse(code string) Snippet { return ParseIn(code, nil) }

// ParseIn splits a code_edit into its regions for the file content it
// merges into: a marker without an ellipsis ("// rest of the code
// unchanged") is read as code where content holds that comment as a line
// of its own (it may then anchor a region). Parse reads every such line
// as a marker.
func ParseIn(code string, content []byte) Snippet { return parse(code, content, false) }

// ParseFile is ParseIn for the file named name, and sets Prose by its
// name (IsProse): in prose a line such as "## Existing code" or "* No
// changes" is a heading or a list item, so only a marker with an
// ellipsis is one there.
func ParseFile(name, code string, content []byte) Snippet {
	prose := IsProse(name)
	s := parse(code, content, prose)
	s.Prose = prose
	if base := name[strings.LastIndexAny(name, "/\\")+1:]; strings.LastIndexByte(base, '.') > 0 {
		s.Ext = strings.ToLower(base[strings.LastIndexByte(base, '.')+1:])
	}
	if s.Marker == "" {
		s.Marker = MarkerFor(name)
	}
	return s
}

// MarkerFor is a marker in the comment syntax of the file named name, by
// its extension (as IsProse reads names): "# ... existing code ..." where
// comments begin with # (Python, shell, YAML, TOML, Ruby, Makefiles),
// "-- ..." for SQL and Lua, "<!-- ... -->" for Markdown, HTML and XML,
// "/* ... */" for CSS, and "// ... existing code ..." for the rest (C-like
// languages, and JSON, whose snippets models write with // markers). A
// refusal suggests it, and an agent writes what it is told.
func MarkerFor(name string) string {
	base := strings.ToLower(name[strings.LastIndexAny(name, "/\\")+1:])
	ext := base
	if dot := strings.LastIndexByte(base, '.'); dot >= 0 {
		ext = base[dot+1:]
	}
	switch ext {
	case "py", "pyi", "pyw", "rb", "sh", "bash", "zsh", "fish", "yaml", "yml", "toml", "r", "pl", "pm", "ex", "exs",
		"nim", "jl", "ps1", "tf", "cmake", "conf", "cfg", "makefile", "gnumakefile", "mk", "dockerfile", "containerfile",
		"gitignore", "dockerignore", "gemfile", "rakefile", "justfile", "build", "bzl", "star":
		return "# ... existing code ..."
	case "sql", "lua", "hs", "elm":
		return "-- ... existing code ..."
	case "md", "markdown", "mdx", "html", "htm", "xml", "svg", "xhtml":
		return "<!-- ... existing code ... -->"
	case "css":
		return "/* ... existing code ... */"
	}
	if base == "cmakelists.txt" {
		return "# ... existing code ..."
	}
	return defaultMarker
}

// defaultMarker is the marker suggested where nothing says another.
const defaultMarker = "// ... existing code ..."

func parse(code string, content []byte, prose bool) Snippet {
	var s Snippet
	lines := splitKeep(code)
	var cur *Region
	flush := func(last bool) {
		if cur == nil {
			return
		}
		// Blank lines at a region's ends belong to the code around it,
		// but where the snippet begins (ends) without a marker, at the
		// file's start (end): there they are the region's own.
		keepLead := len(s.Regions) == 0 && s.Markers == 0
		a, b := 0, len(cur.Lines)
		for a < b && !keepLead && strings.TrimSpace(cur.Lines[a]) == "" {
			a++
		}
		for b > a && !last && strings.TrimSpace(cur.Lines[b-1]) == "" {
			b--
		}
		if b > a && strings.TrimSpace(cur.Lines[b-1]) == "" && strings.TrimSpace(strings.Join(cur.Lines[a:b], "")) == "" {
			b = a
		}
		if a < b {
			s.Regions = append(s.Regions, Region{Lines: cur.Lines[a:b], Line: cur.Line + a})
		}
		cur = nil
	}
	// In prose, a fenced code block holds code of its own language: a
	// comment there in another syntax than the snippet's markers outside
	// such blocks is that code's ("// ..." in a JavaScript example of a
	// Markdown file whose snippet marks with "<!-- ... -->"), not a marker.
	var fenced []bool
	if prose {
		fenced = make([]bool, len(lines))
		outside := map[string]bool{}
		in := false
		for i, l := range lines {
			if isFence(l) {
				// A fence with an info string ("```js") opens a block; a
				// bare one closes the open block, or opens one (a
				// snippet may begin inside a block it then closes, and
				// the next fence with an info string reads right again).
				in = !in || fenceInfo(l)
				continue
			}
			fenced[i] = in
			if !in && markerKind(l) == ellipsisMarker {
				outside[markerOpener(l)] = true
			}
		}
		for i, l := range lines {
			fenced[i] = fenced[i] && len(outside) > 0 && !outside[markerOpener(l)]
		}
	}
	seenCode := false
	for i, l := range lines {
		if k, said := readMarker(l); (k == ellipsisMarker && !(said == "" && standsAsIndentedLine(content, l)) || k == phraseMarker && !prose && !standsAsLine(content, l)) && (fenced == nil || !fenced[i]) {
			flush(false)
			if s.Markers == 0 {
				s.Marker = strings.TrimSpace(l)
			}
			s.Markers++
			if k == phraseMarker {
				s.Phrases++
			}
			if !seenCode {
				s.Lead = true
			}
			s.Trail = true
			continue
		}
		if strings.TrimSpace(l) != "" {
			seenCode = true
			s.Trail = false
		}
		if cur == nil {
			cur = &Region{Line: i + 1}
		}
		cur.Lines = append(cur.Lines, l)
	}
	flush(true)
	return s
}

// isFence reports whether l opens or closes a fenced code block of
// Markdown: three backticks or tildes, indented at most three spaces.
func isFence(l string) bool {
	t := strings.TrimLeft(l, " ")
	return len(l)-len(t) <= 3 && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"))
}

// fenceInfo reports whether fence line l names a language ("```js").
func fenceInfo(l string) bool {
	return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "`~")) != ""
}

// markerOpener is the comment opener a marker line begins with ("//",
// "#", "<!--", "/*", "{/*").
func markerOpener(l string) string {
	t := strings.TrimSpace(l)
	n := strings.IndexFunc(t, func(r rune) bool {
		return r == ' ' || r == '.' || r == '…' || unicode.IsLetter(r) || unicode.IsDigit(r)
	})
	if n < 0 {
		return t
	}
	return t[:n]
}

// standsAsLine reports whether content has a line that is l, white space
// at its ends aside.
func standsAsLine(content []byte, l string) bool {
	return holdsWhole(content, strings.TrimSpace(l), func(s, e int) bool {
		for s > 0 && (content[s-1] == ' ' || content[s-1] == '\t') {
			s--
		}
		for e < len(content) && (content[e] == ' ' || content[e] == '\t' || content[e] == '\r') {
			e++
		}
		return (s == 0 || content[s-1] == '\n') && (e == len(content) || content[e] == '\n')
	})
}

// standsAsIndentedLine reports whether content has a line that is l, its
// indentation included (a line ending aside).
func standsAsIndentedLine(content []byte, l string) bool {
	l = strings.TrimRight(l, "\r\n")
	return l != "" && holdsWhole(content, l, func(s, e int) bool {
		if e < len(content) && content[e] == '\r' {
			e++
		}
		return (s == 0 || content[s-1] == '\n') && (e == len(content) || content[e] == '\n')
	})
}
