package snippet

// What the rest of the file still needs (package doc, part 4, its last
// rule): lines that bind names at the top level (imports, declarations at
// the margin) lost together while the file still uses those names.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/graftdev/graft/internal/lineindex"
)

// marginAssignRE matches a declaration at the margin that binds one name:
// "const NAME =", "let", "var" (JavaScript, TypeScript, Go), "export"
// before them.
var marginAssignRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=[^=>]`)
})

// marginBareRE matches Python's module-level assignment "NAME = value"
// (an annotation allowed), at the margin.
var marginBareRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([A-Za-z_]\w*)\s*(?::[^=]*)?=[^=]`)
})

// dialect is what of a file's language the deletion rule reads lines by,
// from its name's extension (dialectOf): in Python a bare assignment at
// the margin binds a module's name; in Go a line holding only a quoted
// path (an alias before it allowed) is an import spec. Elsewhere such a
// line is a string (a list's last item, a continued literal), and binds
// nothing. In the languages of C's family (C, C++, Java, C#, JavaScript
// and their kin) and Rust, a function is declared by what it returns or
// by modifiers before its name (public int size() {, static foo() {,
// pub fn run() {), a definition to the deletion rule (methodName); in
// Ruby, Python or a shell, "puts format(x)" is a call.
type dialect struct {
	python, goImports, typed bool
}

// typedExts are the extensions of the languages whose functions are
// declared by what they return or by modifiers before their name.
var typedExts = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Fields(`c h cc cpp cxx c++ hpp hh hxx h++ ipp tpp inl cu cuh m mm java kt kts scala groovy
		cs swift dart php rs js mjs cjs jsx ts tsx mts cts`) {
		m[e] = true
	}
	return m
})

// dialectOf is the dialect of a file whose extension (lower case, no
// dot) is ext.
func dialectOf(ext string) dialect {
	return dialect{python: ext == "py" || ext == "pyi" || ext == "pyw", goImports: ext == "go", typed: typedExts()[ext]}
}

// importFormRE matches a line that imports names: Python's "import a.b
// as c, d" and "from m import a as b, c", JavaScript's "import d, {a as
// b} from", "import * as n from", and any "name = require(" (in a
// declaration or a list of them), Go's import spec ("alias "path"" or
// ""path"", alone on its line, or after "import"), read only in Go
// (dialect).
var importFormRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)\s*$` +
		`|^\s*from\s+\S+\s+import\s+\(?\s*([\w, ]+)` +
		`|^\s*import\s+(?:type\s+)?([\w$]+)?\s*,?\s*(?:\{([^}]*)\}|\*\s+as\s+([\w$]+))?\s*from\s` +
		`|(?:^|[\s,])([A-Za-z_$][\w$]*)\s*=\s*require\(` +
		`|^\s*(?:import\s+)?(?:([A-Za-z_]\w*)\s+)?"(?:[^"\n]*/)?([A-Za-z_][\w.-]*)"\s*$`)
})

// binds is the names line l binds at the top level: what it imports, or
// the name a declaration at the margin assigns (in Python, a bare
// assignment at the margin too). A name imported "as" another binds the
// other.
func binds(l string, d dialect) []string {
	out := importNames(l, d.goImports)
	if m := marginAssignRE().FindStringSubmatch(l); m != nil {
		out = append(out, m[1])
	} else if d.python {
		if m := marginBareRE().FindStringSubmatch(l); m != nil && len(m[1]) >= 2 {
			out = append(out, m[1])
		}
	}
	return out
}

// importNames is the names line l imports (importFormRE): a module's or
// package's (its first element: os of os.path, isatty of go-isatty), or
// the name it is imported as; of two characters or more. goImports reads
// Go's import specs too.
func importNames(l string, goImports bool) []string {
	if !strings.Contains(l, "import") && !strings.Contains(l, "require") && (!goImports || !strings.Contains(l, `"`)) {
		return nil
	}
	m := importFormRE().FindStringSubmatch(l)
	if m == nil {
		return nil
	}
	var out []string
	add := func(list string) {
		for _, part := range strings.Split(list, ",") {
			f := strings.Fields(part)
			switch {
			case len(f) == 3 && f[1] == "as":
				out = append(out, f[2])
			case len(f) == 1:
				n := strings.SplitN(f[0], ".", 2)[0]
				if i := strings.IndexByte(n, '-'); i >= 0 {
					n = n[i+1:] // a Go path's last element with a prefix (go-isatty)
				}
				if len(n) >= 2 {
					out = append(out, n)
				}
			}
		}
	}
	switch {
	case m[1] != "":
		add(m[1])
	case m[2] != "":
		add(m[2])
	case m[3] != "" || m[4] != "" || m[5] != "":
		add(m[3])
		add(m[4])
		add(m[5])
	case m[6] != "":
		add(m[6])
	case !goImports:
		// Only Go's import spec is left: a string elsewhere.
	case m[7] != "":
		add(m[7])
	default:
		add(m[8])
	}
	return out
}

// usesName reports whether code line l uses name: as a whole word, not a
// member (after "."), outside strings and comments.
func usesName(l, name string) bool {
	if isComment(l) || !strings.Contains(l, name) {
		return false
	}
	c := []byte(codeOf(l))
	return holdsWhole(c, name, func(s, e int) bool {
		return (s == 0 || !isNameByte(c[s-1]) && c[s-1] != '.') && (e == len(c) || !isNameByte(c[e]))
	})
}

// bindingsLost is that rule (package doc, part 4), over every placed region:
// a run of removed lines (file lines of one region that no new line
// keeps, between two kept ones) that holds two lines or more binding
// names the file still needs, with a blank line between code lines of the
// run, is refused. A name is needed where no kept or new line binds it
// and a kept or new line (not one binding it) uses it. It returns the
// run's first such line (0-based), the name, and a line that uses it (-1:
// a line a region writes). replaced tells the file lines a region
// replaces (0-based).
//
// Why two, and a blank line: one import dropped while the file still
// uses it is how a change in steps begins (its uses go in the next edit),
// and a list of imports shown with some missing is the model's own
// writing; two bindings the file needs gone together with the blank line
// that parted their groups (imports from module constants, one import
// group from the next) is a stretch of the file lost to a missing marker.
func bindingsLost(fl *lineindex.Index, out []placed, replaced func(int) bool, d dialect) (at int, name string, use int, ok bool) {
	// boundAgain reports whether a kept or new line binds name (read
	// only for names a removed line binds, and only in lines holding the
	// name, so that a file without such lines costs one pass at most).
	boundAgain := func(name string) bool {
		b := func(l string) bool { return strings.Contains(l, name) && slices.Contains(binds(l, d), name) }
		for i := 0; i < fl.Count(); i++ {
			if !replaced(i) && b(string(fl.Text(i+1))) {
				return true
			}
		}
		for _, r := range out {
			if slices.ContainsFunc(r.newLines, b) {
				return true
			}
		}
		return false
	}
	// neededBy is a line that still uses name: kept (its 0-based line),
	// or new (-1); ok false where none does.
	neededBy := func(name string) (int, bool) {
		uses := func(l string) bool { return usesName(l, name) && !slices.Contains(binds(l, d), name) }
		for i := 0; i < fl.Count(); i++ {
			if !replaced(i) && uses(string(fl.Text(i+1))) {
				return i, true
			}
		}
		for _, r := range out {
			for _, l := range r.newLines {
				if uses(l) {
					return -1, true
				}
			}
		}
		return 0, false
	}
	for _, r := range out {
		var bindings bool // whether a line the region replaces binds a name
		for i := r.from; i < r.to && i < fl.Count() && !bindings; i++ {
			bindings = len(binds(string(fl.Text(i+1)), d)) > 0
		}
		if !bindings {
			continue
		}
		var ok, nk []string
		for i := r.from; i < r.to && i < fl.Count(); i++ {
			ok = append(ok, strings.TrimSpace(string(fl.Text(i+1))))
		}
		for _, l := range r.newLines {
			nk = append(nk, strings.TrimSpace(l))
		}
		kept := make([]bool, len(ok))
		for _, p := range lcs(ok, nk) {
			kept[p[0]] = true
		}
		for a := 0; a < len(ok); {
			if kept[a] {
				a++
				continue
			}
			b := a
			for b < len(ok) && !kept[b] {
				b++
			}
			// The run [a, b): its needed bindings, and whether a blank
			// line parts its code.
			count, first, firstName, firstUse := 0, -1, "", 0
			code, parted := false, false
			for j := a; j < b; j++ {
				if ok[j] == "" {
					parted = parted || code
					continue
				}
				for _, n := range binds(string(fl.Text(r.from+j+1)), d) {
					if u, need := neededBy(n); need && !boundAgain(n) {
						if first < 0 {
							first, firstName, firstUse = r.from+j, n, u
						}
						count++
						break
					}
				}
				if code && parted && count >= 2 {
					return first, firstName, firstUse, true
				}
				code = true
			}
			a = b
		}
	}
	return 0, "", 0, false
}

// bindingReason words the refusal for bindingsLost's finding.
func bindingReason(fl *lineindex.Index, at int, name string, use int) string {
	where := "a line it writes"
	if use >= 0 {
		where = fmt.Sprintf("line %d (%q)", use+1, clip(string(fl.Text(use+1))))
	}
	return fmt.Sprintf("it removes line %d (%q), which binds %s, with other lines the file still needs, across a blank line, and %s still uses %s: a marker may be missing there; show those lines, or the lines that bind them now", at+1, clip(string(fl.Text(at+1))), name, where, name)
}
