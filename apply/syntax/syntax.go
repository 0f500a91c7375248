package syntax

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/graftdev/graft/internal/lineindex"
)

// MaxSize is the largest content, in bytes, that Check parses. Larger files
// are reported unchecked (Checked false, with a reason) rather than parsed.
const MaxSize = 16 << 20

// MaxReported bounds Report.Added; Report.AddedCount still counts them all.
const MaxReported = 20

// Report is the outcome of one Check.
type Report struct {
	// Path is the path that was checked, as given to Check.
	Path string `json:"path"`
	// Language is the language detected for Path ("" when graft knows none).
	Language string `json:"language,omitempty"`
	// Checker names the parser used: "tree-sitter", "go/parser",
	// "encoding/json", "yaml", "toml", "mvdan.cc/sh". Empty when unchecked.
	Checker string `json:"checker,omitempty"`
	// Checked is true when the file was parsed. When false, Skipped says why
	// (no known language, no checker for it in this build, too large).
	Checked bool   `json:"checked"`
	Skipped string `json:"skipped,omitempty"`
	// Added holds the syntax errors that after has and before did not have,
	// in file order, at most MaxReported of them.
	Added []Diagnostic `json:"added,omitempty"`
	// AddedCount is the number of added errors, including those left out of
	// Added.
	AddedCount int `json:"added_count,omitempty"`
	// Unparsed is true when the checker could not parse the file cleanly
	// before the edit, neither whole nor in the top-level declarations
	// around the edit (a C header full of macros, a .js file that holds
	// HTML): its recovery moves errors around, so errors it reports as
	// added only warn and never refuse the edit.
	Unparsed bool `json:"did_not_parse_before,omitempty"`
	// UnknownWords, when set, are words at the added errors that the
	// checker cannot read where the language's compiler may: without them
	// the file parses. In C and C++ each may be a macro that expands to
	// nothing ("SQLITE_CDECL", "DECLARE_DYNAMIC(...)" for a macro called
	// with arguments); in TypeScript and Rust, a modifier newer than the
	// grammar ("accessor", "safe"). The errors are reported and only warn.
	// See "What a compiler may accept" in the package documentation.
	UnknownWords []string `json:"unknown_words,omitempty"`
	// Conditionals, when true, says that in C or C++ the added errors
	// (those UnknownWords leave) go once the preprocessor's directives are
	// taken out as it takes them: each #if chain reduced to its first
	// branch, then to its second, and so on, with the directive lines the
	// grammar cannot place where they stand (an #ifdef around one row of a
	// table). The check cannot tell which branch a build takes, so the
	// errors are reported and only warn. See "What a compiler may accept"
	// in the package documentation.
	Conditionals bool `json:"preprocessor_conditionals,omitempty"`
}

// Refuses reports whether the report is grounds to refuse the edit: it
// added syntax errors to a file that parsed cleanly before it (at least
// around the edit), and no word the checker cannot read accounts for them.
func (r Report) Refuses() bool {
	return r.AddedCount > 0 && !r.Unparsed && len(r.UnknownWords) == 0 && !r.Conditionals
}

// OK reports whether the edit added no syntax error (true also when the file
// was not checked: consult Checked to tell the two apart).
func (r Report) OK() bool { return r.AddedCount == 0 }

// String renders the report for a person or a model: one line per added
// error, each followed by its snippet. An OK report renders as a one-line
// summary.
func (r Report) String() string {
	var b strings.Builder
	switch {
	case !r.Checked:
		fmt.Fprintf(&b, "%s: not syntax-checked: %s", r.Path, r.Skipped)
		return b.String()
	case r.AddedCount == 0:
		fmt.Fprintf(&b, "%s: no syntax error added (%s, %s)", r.Path, r.Language, r.Checker)
		return b.String()
	}
	noun := "error"
	if r.AddedCount > 1 {
		noun = "errors"
	}
	fmt.Fprintf(&b, "%s: the edit adds %d syntax %s (%s, %s)", r.Path, r.AddedCount, noun, r.Language, r.Checker)
	switch {
	case r.Unparsed:
		b.WriteString("; the file did not parse before the edit either, so this only warns")
	case r.Conditionals:
		b.WriteString("; it parses once the preprocessor's directives are taken out, each #if chain reduced to one branch in turn")
		if len(r.UnknownWords) > 0 {
			fmt.Fprintf(&b, ", and %s expanding to nothing", strings.Join(r.UnknownWords, ", "))
		}
		b.WriteString(", which the check cannot tell without the preprocessor, so this only warns")
	case len(r.UnknownWords) > 0 && (r.Language == "c" || r.Language == "cpp"):
		verb := "is a macro that expands"
		if len(r.UnknownWords) > 1 {
			verb = "are macros that expand"
		}
		fmt.Fprintf(&b, "; it parses if %s %s to nothing, which the check cannot tell without the preprocessor, so this only warns",
			strings.Join(r.UnknownWords, ", "), verb)
	case len(r.UnknownWords) > 0:
		fmt.Fprintf(&b, "; it parses without %s, which the %s grammar may not know yet, so this only warns",
			strings.Join(r.UnknownWords, ", "), r.Language)
	}
	b.WriteByte(':')
	for _, d := range r.Added {
		fmt.Fprintf(&b, "\n%s:%d:%d: %s\n%s", r.Path, d.Line, d.Column, d.Message, d.Snippet)
	}
	if more := r.AddedCount - len(r.Added); more > 0 {
		fmt.Fprintf(&b, "\n(and %d more)", more)
	}
	return b.String()
}

// Diagnostic is one syntax error in the content after the edit.
type Diagnostic struct {
	// Line and Column locate the start of the error, both from 1. Column
	// counts characters (Unicode code points; a tab is one), not bytes.
	Line   int `json:"line"`
	Column int `json:"column"`
	// EndLine and EndColumn locate its end (exclusive), same units.
	EndLine   int `json:"end_line"`
	EndColumn int `json:"end_column"`
	// Message is short: `missing "}"`, `unexpected "else" in block`, or the
	// pure-Go parser's own words.
	Message string `json:"message"`
	// Snippet shows the offending line with a caret under Column, the line
	// before it for context, and up to two more lines when the error spans
	// several. Each line is prefixed with its number.
	Snippet string `json:"snippet"`
}

// String returns "line:column: message".
func (d Diagnostic) String() string {
	return fmt.Sprintf("%d:%d: %s", d.Line, d.Column, d.Message)
}

// Check parses before and after as the language of path and reports the
// syntax errors that after has and before did not have. before is nil for a
// file the edit creates: then every error in after counts as added.
//
// Check is pure and safe for concurrent use. It returns an error only when a
// parser fails outright (not for syntax errors, which go in the Report); an
// unknown language, a language without a checker in this build, or content
// over MaxSize give a Report with Checked false and the reason in Skipped.
//
// How errors of before are matched to errors of after is described in the
// package documentation.
func Check(path string, before, after []byte) (Report, error) {
	return check(path, before, after, defaultOptions)
}

// options tune the strategy; tests turn the window off to compare.
type options struct {
	// windowScan bounds how far (bytes) the search for window boundaries
	// goes on each side of the change; 0 turns windows off.
	windowScan int
	// pure picks the pure-Go checker even when tree-sitter has the
	// language, so tests run both in one build.
	pure bool
	// maxWhole is MaxWholeFile; 0 means no bound.
	maxWhole int
	// windowOnly: where the window was broken before the edit, compare
	// returns errUndecided instead of comparing whole files (C's and
	// C++'s readings are tried first; see check).
	windowOnly bool
	// wholeClean: where the edit broke the window, whole files confirm it
	// only when before parses whole; otherwise compare returns
	// errUndecided (a reading proves nothing where before does not parse).
	wholeClean bool
}

// pastWhole reports whether before or after is past maxWhole, where whole
// files are never compared.
func (o options) pastWhole(before, after []byte) bool {
	return o.maxWhole > 0 && (len(before) > o.maxWhole || len(after) > o.maxWhole)
}

var defaultOptions = options{windowScan: 256 << 10, maxWhole: MaxWholeFile}

// MaxWholeFile bounds the whole-file comparison, which costs a full parse
// of both versions (about 0.1 s per MiB with tree-sitter). Past it, the
// window around the edit decides alone: an error it shows appearing is
// reported, and when it cannot decide (no window, or the window already
// broken before the edit) the file is reported unchecked rather than
// parsed whole.
const MaxWholeFile = 1 << 20

// errUndecided: the window could not decide and the file is too large to
// compare whole.
var errUndecided = errors.New("too large to compare whole, and the edit's surroundings do not parse on their own")

// compare returns the errors after has and before had not. See the package
// documentation for the strategy: a window around the change first, whole
// files when the window cannot decide.
//
// clean reports whether before parsed cleanly where it matters: the window
// around the change, or else the whole file.
func compare(c *checker, b bounds, before, after []byte, opt options) (added []diag, clean bool, err error) {
	ch := changeOf(before, after)
	// local holds the window's errors when the window was clean before the
	// edit and is not after: they locate the damage better than a whole-file
	// comparison, whose error recovery may wander.
	var local []diag
	if w, ok := findWindow(c, b, before, ch, opt); ok {
		aw, err := c.diagnoseWindow(after, w.start, w.afterEnd)
		if err != nil {
			return nil, false, err
		}
		bclean, err := c.windowClean(before, w.start, w.beforeEnd)
		if err != nil {
			return nil, false, err
		}
		switch {
		case bclean && len(aw) == 0:
			return nil, true, nil
		case bclean:
			local = aw
		}
	}
	if opt.windowOnly && len(local) == 0 {
		return nil, false, errUndecided
	}
	if opt.pastWhole(before, after) {
		if len(local) > 0 {
			return reanchor(local, after, ch), true, nil
		}
		return nil, false, errUndecided
	}
	var bd, ad []diag
	if len(local) > 0 && c.pairFn == nil {
		// The window says the edit broke something. An error of after that
		// covers the edit confirms it without parsing before at all, unless
		// the parser already fails the same way elsewhere in before.
		if ad, err = c.diagnose(after); err != nil {
			return nil, false, err
		}
		if covers(ad, ch) {
			if bd, err = c.diagnose(before); err != nil {
				return nil, false, err
			}
			if opt.wholeClean && len(bd) > 0 {
				return nil, false, errUndecided
			}
			return reanchor(local, after, ch), !sameFailure(local, bd), nil
		}
		if len(ad) > 0 {
			if bd, err = c.diagnose(before); err != nil {
				return nil, false, err
			}
		}
	} else if bd, ad, err = c.pair(before, after, ch); err != nil {
		return nil, false, err
	}
	if opt.wholeClean && len(bd) > 0 {
		return nil, false, errUndecided
	}
	// The window was clean before, or else the whole file must have been.
	clean = len(local) > 0 || len(bd) == 0
	added = addedDiags(bd, ad, ch)
	if len(local) > 0 {
		// The window was clean and is not. Whole files confirm it when they
		// show an added error, or when an error of after covers the edit
		// (recovery swallowed it into an old error, which whole-file
		// matching cannot see), or when the parser stopped at an old error
		// before the edit and so never saw it. Otherwise the window misled: it was cut
		// inside a string or a nested block, and the edit is fine there.
		blind := c.firstOnly && len(ad) > 0 && ad[0].start < ch.start
		if len(added) > 0 || covers(ad, ch) || blind {
			added = local
			clean = !sameFailure(local, bd)
		}
	}
	return reanchor(added, after, ch), clean, nil
}

// sameFailure reports whether every error the window found in after is
// one the parser already reports in before, elsewhere in the file: the
// same message (the same unexpected token in the same construct). The
// window was clean, but the region is not one this parser reads: a C
// header's calling-convention macros (int (SQLITE_CDECL *xFoo)(...)), a
// preprocessor idiom, a dialect. The project's own code would be refused,
// so such errors only warn, as for a file that did not parse before.
func sameFailure(local, bd []diag) bool {
	if len(local) == 0 || len(bd) == 0 {
		return false
	}
	seen := make(map[string]bool, len(bd))
	for _, d := range bd {
		seen[d.msg] = true
	}
	for _, d := range local {
		if !seen[d.msg] {
			return false
		}
	}
	return true
}

// covers reports whether one of ds overlaps or touches the changed span of
// after.
func covers(ds []diag, ch change) bool {
	for _, d := range ds {
		if d.start <= ch.afterEnd && d.end >= ch.start {
			return true
		}
	}
	return false
}

// reanchor moves a tree-sitter ERROR that spans several lines to the edit.
// Error recovery often wraps a whole block, or everything since the last
// point the parser could resume from, and starts the ERROR there, lines away
// from the text the edit broke; the edit is the better place to look, and
// the message keeps the span.
func reanchor(ds []diag, after []byte, ch change) []diag {
	nl := []byte{'\n'}
	out := ds[:0]
	seen := map[int]bool{}
	for _, d := range ds {
		if d.key == "error" && bytes.Count(after[d.start:d.end], nl) >= 3 {
			first := bytes.Count(after[:d.start], nl) + 1
			last := first + bytes.Count(after[d.start:d.end], nl)
			d.msg = fmt.Sprintf("lines %d-%d no longer parse (%s at line %d)", first, last, d.msg, first)
			d.start, d.end = ch.start, ch.afterEnd
		}
		if !seen[d.start] {
			seen[d.start] = true
			out = append(out, d)
		}
	}
	return out
}

func check(path string, before, after []byte, opt options) (Report, error) {
	r := Report{Path: path}
	lang := detect(path, after)
	if lang == nil && before != nil {
		lang = detect(path, before)
	}
	if lang == nil {
		r.Skipped = "no syntax checker for this kind of file"
		return r, nil
	}
	r.Language = lang.name
	c := lang.checker()
	if opt.pure && lang.pure != nil {
		c = lang.pure
	}
	if c == nil {
		r.Skipped = fmt.Sprintf("no %s parser in this build (built without cgo)", lang.name)
		return r, nil
	}
	r.Checker = c.name
	if len(after) > MaxSize || len(before) > MaxSize {
		r.Skipped = fmt.Sprintf("larger than %d MiB", MaxSize>>20)
		return r, nil
	}
	r.Checked = true
	if before != nil && bytes.Equal(before, after) {
		return r, nil
	}
	after = blankBOM(after)
	bnd := bounds{unit: lang.unit, decl: lang.decl}
	// addedOf recomputes the added errors for variants of before and
	// after, whether before parsed clean where it matters, and how
	// many bytes it parsed.
	addedWith := func(opt options) func(before, a []byte) ([]diag, bool, int, error) {
		return func(before, a []byte) ([]diag, bool, int, error) {
			if before == nil {
				ds, err := c.diagnose(a)
				return ds, true, len(a), err
			}
			// Past MaxWholeFile the window decides alone; below it, whole
			// files are parsed whenever the window shows an error.
			cost := len(before) + len(a)
			if len(before) > opt.maxWhole || len(a) > opt.maxWhole {
				if w, ok := findWindow(c, bnd, before, changeOf(before, a), opt); ok {
					cost = w.beforeEnd - w.start + w.afterEnd - w.start
				}
			}
			ds, clean, err := compare(c, bnd, before, a, opt)
			return ds, clean, cost, err
		}
	}
	addedOf := addedWith(opt)
	var added []diag
	// read: the readings of test 3 decided already (a C or C++ file
	// whose window did not parse before the edit).
	read := false
	if before == nil {
		ds, err := c.diagnose(after)
		if err != nil {
			return r, fmt.Errorf("syntax: %s: %w", path, err)
		}
		added = ds
	} else {
		before = blankBOM(before)
		var err error
		var clean bool
		pp := lang.words != nil && lang.words.preprocessor
		first := opt
		// In C and C++ the window may not parse only because of its
		// directives, and whole files that do not parse cost error
		// recovery's time (a tenth of a second at 170 KB): where the
		// window was broken before the edit, its readings decide first,
		// window by window, and whole files are parsed only when they
		// cannot.
		if pp {
			// Only where there is a window: without one (a file the
			// window would span whole) the readings find none either,
			// and whole files decide at once.
			_, first.windowOnly = findWindow(c, bnd, before, changeOf(before, after), opt)
		}
		added, clean, err = compare(c, bnd, before, after, first)
		if errors.Is(err, errUndecided) && pp {
			// A reading proves something only where its before parses:
			// in the window, and whole where whole files must confirm an
			// error the window shows.
			reading := first
			reading.wholeClean = true
			// Test 2's trials on a reading whose error is confirmed
			// read its window only, as past MaxWholeFile.
			trial := reading
			trial.maxWhole = 1
			settled, broken, explained, words, rerr := readWithoutDirectives(c, lang.words, before, after, addedWith(reading), addedWith(trial))
			if rerr != nil && !errors.Is(rerr, errUndecided) {
				return r, fmt.Errorf("syntax: %s: %w", path, rerr)
			}
			switch {
			case settled && broken != nil:
				added, clean, read, err = broken, true, true, nil
			case settled:
				// What the readings add, test 2's words account for: it
				// is reported and only warns.
				added, clean, read, err = explained, true, true, nil
				r.Conditionals, r.UnknownWords = len(explained) > 0, words
			case !opt.pastWhole(before, after):
				added, clean, err = compare(c, bnd, before, after, opt)
			}
		}
		r.Unparsed = !clean && len(added) > 0
		if errors.Is(err, errUndecided) {
			r.Checked, r.Skipped = false, err.Error()
			return r, nil
		}
		if err != nil {
			return r, fmt.Errorf("syntax: %s: %w", path, err)
		}
	}
	if len(added) > 0 && lang.words != nil && !read {
		var words []string
		var err error
		if !r.Unparsed {
			words, err = unknownWords(lang.words, before, after, slices.Clone(after), added, func(a []byte) ([]diag, int, error) {
				ds, _, cost, err := addedOf(before, a)
				return ds, cost, err
			})
		}
		if err == nil && words == nil && lang.words.preprocessor {
			var settled bool
			var broken []diag
			settled, broken, _, words, err = readWithoutDirectives(c, lang.words, before, after, addedOf, addedOf)
			switch {
			case settled && broken == nil:
				r.Conditionals, r.Unparsed = true, false
			case settled && r.Unparsed:
				// before parses once its directives are taken out, and the
				// edit's errors stay: they are the edit's own.
				r.Unparsed, added = false, broken
			}
		}
		if err != nil && !errors.Is(err, errUndecided) {
			return r, fmt.Errorf("syntax: %s: %w", path, err)
		}
		r.UnknownWords = words
	}
	r.AddedCount = len(added)
	if len(added) > MaxReported {
		added = added[:MaxReported]
	}
	if len(added) > 0 {
		ix := lineindex.New(after)
		for _, d := range added {
			r.Added = append(r.Added, diagnostic(ix, d))
		}
	}
	return r, nil
}

// blankBOM returns src with a leading UTF-8 byte order mark replaced by three
// spaces (in a copy), so that parsers which reject a BOM do not, while every
// byte offset stays the same.
func blankBOM(src []byte) []byte {
	if !bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		return src
	}
	out := make([]byte, len(src))
	copy(out, "   ")
	copy(out[3:], src[3:])
	return out
}
