package syntax

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
)

// Language describes one language graft knows, and how this build checks it.
type Language struct {
	// Name is the language's short name, as Report.Language gives it.
	Name string `json:"name"`
	// Extensions are the file name endings (with the dot, lower case) that
	// select it.
	Extensions []string `json:"extensions"`
	// Filenames are whole base names that select it (Gemfile, Cargo.lock).
	Filenames []string `json:"filenames,omitempty"`
	// Interpreters are the #! interpreters that select it for a file whose
	// name says nothing.
	Interpreters []string `json:"interpreters,omitempty"`
	// Checker is the parser this build uses ("tree-sitter", "go/parser",
	// ...), or "" when the language is detected but unchecked in this build.
	Checker string `json:"checker"`
}

// language is the internal row behind a Language.
type language struct {
	name         string
	exts         []string
	names        []string
	interpreters []string
	// unit, when set, must also accept a line for a window to start or end
	// there (see boundaryAt): TOML keys belong to the table header above
	// them, so a TOML window starts only at a header.
	unit func(line []byte) bool
	// decl, when set, accepts a line that starts a top-level declaration
	// by its first words (in column 0): a window may start or end there
	// even without a blank line before it, as in generated files that
	// write one declaration after another. Text inside a multi-line string
	// that looks alike is what the window's parse of before guards against.
	decl func(line []byte) bool
	// words, when set, are the words at an added error that the checker
	// may not read where the compiler does (see unknownWords).
	words *wordRule
	// pure is the pure-Go checker, used when tree-sitter has no grammar for
	// the language in this build (always, when cgo is off).
	pure *checker
}

// checker returns the checker this build uses for l, or nil.
func (l *language) checker() *checker {
	if c := treeSitterChecker(l.name); c != nil {
		return c
	}
	return l.pure
}

// languages is the table, in the order Languages reports it.
var languages = []*language{
	{name: "go", exts: []string{".go"}, pure: goChecker, decl: startsWith("func ", "type ", "var ", "const ", "import ")},
	{name: "python", exts: []string{".py", ".pyi", ".pyw"}, interpreters: []string{"python", "python2", "python3", "pypy", "pypy3"},
		decl: startsWith("def ", "class ", "async def ")},
	{name: "javascript", exts: []string{".js", ".mjs", ".cjs", ".jsx"}, interpreters: []string{"node", "nodejs"}, decl: jsDecl},
	{name: "typescript", exts: []string{".ts", ".mts", ".cts"}, interpreters: []string{"ts-node", "tsx"}, decl: tsDecl, words: tsWords},
	{name: "tsx", exts: []string{".tsx"}, decl: tsDecl, words: tsWords},
	{name: "rust", exts: []string{".rs"}, decl: startsWith("fn ", "pub ", "impl ", "impl<", "struct ", "enum ", "mod ", "use ",
		"trait ", "const ", "static ", "type ", "unsafe ", "extern ", "macro_rules! "), words: rustWords},
	{name: "java", exts: []string{".java"}},
	{name: "c", exts: []string{".c"}, words: cWords},
	// .h goes to C++: its grammar accepts C headers, while the C grammar
	// rejects the C++ headers that many projects also name .h.
	{name: "cpp", exts: []string{".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".tpp", ".inl"}, words: cWords},
	{name: "ruby", exts: []string{".rb", ".rake", ".gemspec", ".ru"},
		names:        []string{"Gemfile", "Rakefile", "Guardfile", "Vagrantfile", "Podfile", "Brewfile", "Fastfile"},
		interpreters: []string{"ruby"}},
	{name: "bash", exts: []string{".sh", ".bash"},
		names:        []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile", "PKGBUILD"},
		interpreters: []string{"bash", "sh", "dash", "ash"}, pure: bashChecker},
	{name: "zsh", exts: []string{".zsh"}, names: []string{".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout"},
		interpreters: []string{"zsh"}, pure: zshChecker},
	{name: "json", exts: []string{".json", ".jsonc", ".geojson", ".webmanifest", ".code-workspace"},
		names: []string{".babelrc", ".eslintrc", "composer.lock", "flake.lock"}, pure: jsonChecker},
	{name: "yaml", exts: []string{".yaml", ".yml"}, names: []string{".clang-format", ".clang-tidy"}, pure: yamlChecker},
	{name: "toml", exts: []string{".toml"}, names: []string{"Cargo.lock", "Pipfile", "poetry.lock", "uv.lock", "Gopkg.lock"}, pure: tomlChecker,
		unit: func(line []byte) bool { return bytes.HasPrefix(line, []byte("[")) }},
}

// startsWith returns a decl test accepting a line that starts with one of
// the prefixes.
func startsWith(prefixes ...string) func([]byte) bool {
	return func(line []byte) bool {
		for _, p := range prefixes {
			if bytes.HasPrefix(line, []byte(p)) {
				return true
			}
		}
		return false
	}
}

// jsDeclWords start a JavaScript declaration; TypeScript adds its own.
var jsDeclWords = []string{"function ", "async function ", "export ", "class ", "import ", "const ", "let ", "var "}

var (
	jsDecl = startsWith(jsDeclWords...)
	tsDecl = startsWith(append(slices.Clip(jsDeclWords), "interface ", "type ", "enum ", "declare ", "namespace ", "abstract class ")...)
)

// Languages lists the languages graft detects, with the checker this build
// uses for each (Checker "" for those it leaves unchecked, e.g. Python when
// built without cgo).
func Languages() []Language {
	out := make([]Language, 0, len(languages))
	for _, l := range languages {
		name := ""
		if c := l.checker(); c != nil {
			name = c.name
		}
		out = append(out, Language{
			Name:         l.name,
			Extensions:   append([]string(nil), l.exts...),
			Filenames:    append([]string(nil), l.names...),
			Interpreters: append([]string(nil), l.interpreters...),
			Checker:      name,
		})
	}
	return out
}

// Detect returns the name of the language of the file at path, or "" when
// graft knows none. It looks at the base name, then the extension, then (for
// a file whose name says nothing) the #! line at the start of content.
func Detect(path string, content []byte) string {
	if l := detect(path, content); l != nil {
		return l.name
	}
	return ""
}

func detect(path string, content []byte) *language {
	base := filepath.Base(path)
	for _, l := range languages {
		for _, n := range l.names {
			if base == n {
				return l
			}
		}
	}
	if ext := strings.ToLower(filepath.Ext(base)); ext != "" {
		for _, l := range languages {
			for _, e := range l.exts {
				if ext == e {
					return l
				}
			}
		}
		// A file with an extension graft does not know is not guessed at
		// from its #! line: "run.pl" is Perl whatever it starts with.
		return nil
	}
	interp := shebang(content)
	if interp == "" {
		return nil
	}
	for _, l := range languages {
		for _, i := range l.interpreters {
			if interp == i {
				return l
			}
		}
	}
	return nil
}

// shebang returns the interpreter named by a #! first line, without its
// directory or version suffix ("python3.12" gives "python3"), skipping env
// and its options. It returns "" when there is no #! line.
func shebang(content []byte) string {
	if !bytes.HasPrefix(content, []byte("#!")) {
		return ""
	}
	line := content[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	if len(line) > 256 {
		return ""
	}
	fields := strings.Fields(string(line))
	for len(fields) > 0 {
		f := fields[0]
		name := f[strings.LastIndexByte(f, '/')+1:]
		fields = fields[1:]
		if name == "env" {
			// Skip env's options and VAR=value assignments.
			for len(fields) > 0 && (strings.HasPrefix(fields[0], "-") || strings.Contains(fields[0], "=")) {
				fields = fields[1:]
			}
			continue
		}
		// python3.12 -> python3
		if i := strings.IndexByte(name, '.'); i > 0 {
			name = name[:i]
		}
		return name
	}
	return ""
}
