package syntax

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// langCase is one testdata/<language>.txtar: a valid file, a real broken
// variant of it, and two one-line edits described in the archive's comment:
//
//	want broken: 19-20        lines where broken's error may be reported
//	harmless: OLD => NEW      an edit that keeps the code valid
//	mistake: OLD => NEW       an edit that breaks it (elsewhere)
//	want mistake: 49-50, 60   lines where the mistake may be reported
//	whole misses: REASON      comparing whole files cannot see the mistake
//	                          in broken (the window can)
//	misses: REASON            the mistake in broken cannot be seen at all
//
// A directive followed by a checker's name in parentheses, as in
// "want broken (go/parser): 60", overrides the plain one for that checker.
// OLD must occur exactly once in both files.
type langCase struct {
	file              string
	lang              string
	path              string // valid file's name, for detection
	valid, broken     []byte
	harmless, mistake [2]string
	dirs              map[string]string
}

// dir returns directive key for checker, or "".
func (c langCase) dir(key, checker string) string {
	if v, ok := c.dirs[key+" ("+checker+")"]; ok {
		return v
	}
	return c.dirs[key]
}

func loadCases(t *testing.T) []langCase {
	t.Helper()
	names, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(names) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	var cases []langCase
	for _, name := range names {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		c := langCase{file: name, lang: strings.TrimSuffix(filepath.Base(name), ".txtar"), dirs: map[string]string{}}
		for _, f := range ar.Files {
			switch {
			case strings.HasPrefix(f.Name, "valid."):
				c.path, c.valid = f.Name, f.Data
			case strings.HasPrefix(f.Name, "broken."):
				c.broken = f.Data
			}
		}
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			if key, val, ok := strings.Cut(line, ": "); ok {
				c.dirs[key] = val
			}
		}
		for _, key := range []string{"harmless", "mistake"} {
			old, new, ok := strings.Cut(c.dirs[key], " => ")
			if !ok {
				t.Fatalf("%s: %s: want OLD => NEW", name, key)
			}
			if key == "harmless" {
				c.harmless = [2]string{old, new}
			} else {
				c.mistake = [2]string{old, new}
			}
		}
		if c.valid == nil || c.broken == nil || c.dirs["want broken"] == "" || c.dirs["want mistake"] == "" {
			t.Fatalf("%s: incomplete case", name)
		}
		cases = append(cases, c)
	}
	return cases
}

// lineRanges is a list of inclusive line ranges: "19-20, 38".
type lineRanges [][2]int

func (rs lineRanges) has(line int) bool {
	for _, r := range rs {
		if line >= r[0] && line <= r[1] {
			return true
		}
	}
	return false
}

func (rs lineRanges) overlaps(other lineRanges) bool {
	for _, r := range rs {
		for line := r[0]; line <= r[1]; line++ {
			if other.has(line) {
				return true
			}
		}
	}
	return false
}

func (rs lineRanges) String() string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, fmt.Sprintf("%d-%d", r[0], r[1]))
	}
	return strings.Join(parts, ", ")
}

func lineRange(t *testing.T, name, s string) lineRanges {
	var out lineRanges
	for _, part := range strings.Split(s, ",") {
		lo, hi, _ := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b, err2 := a, error(nil)
		if hi != "" {
			b, err2 = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: bad line range %q", name, s)
		}
		out = append(out, [2]int{a, b})
	}
	return out
}

// edit replaces the one occurrence of e[0] in src by e[1].
func edit(t *testing.T, src []byte, e [2]string) []byte {
	t.Helper()
	if n := bytes.Count(src, []byte(e[0])); n != 1 {
		t.Fatalf("edit %q occurs %d times, want once", e[0], n)
	}
	return bytes.Replace(src, []byte(e[0]), []byte(e[1]), 1)
}

// forcedWindow lets the window reach anywhere in the test files.
var forcedWindow = options{windowScan: 1 << 20}

// noWindow makes every check parse whole files.
var noWindow = options{windowScan: 0}

func TestLanguages(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.lang, func(t *testing.T) {
			if got := Detect(c.path, c.valid); got != c.lang {
				t.Fatalf("Detect(%q) = %q, want %q", c.path, got, c.lang)
			}
			l := detect(c.path, nil)
			if l.checker() == nil {
				t.Skipf("%s is unchecked in this build (cgo off)", c.lang)
			}
			modes := []struct {
				name string
				o    options
			}{{"whole", noWindow}, {"window", forcedWindow}}
			if l.pure != nil && l.pure != l.checker() {
				// Built with cgo: run the pure-Go fallback on the same case.
				modes = append(modes, struct {
					name string
					o    options
				}{"pure-whole", options{pure: true}}, struct {
					name string
					o    options
				}{"pure-window", options{windowScan: 1 << 20, pure: true}})
			}
			for _, opt := range modes {
				t.Run(opt.name, func(t *testing.T) {
					testCase(t, c, opt.o)
				})
			}
		})
	}
}

func testCase(t *testing.T, c langCase, opt options) {
	l := detect(c.path, nil)
	checker := l.checker().name
	if opt.pure {
		checker = l.pure.name
	}
	brokenLines := lineRange(t, c.file, c.dir("want broken", checker))
	mistakeLines := lineRange(t, c.file, c.dir("want mistake", checker))
	run := func(what string, before, after []byte) Report {
		t.Helper()
		r, err := check(c.path, before, after, opt)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if !r.Checked || r.Language != c.lang {
			t.Fatalf("%s: checked=%v language=%q (%s)", what, r.Checked, r.Language, r.Skipped)
		}
		return r
	}
	wantNone := func(what string, r Report) {
		t.Helper()
		if r.AddedCount != 0 {
			t.Errorf("%s: want no added error, got:\n%s", what, r)
		}
	}
	wantAt := func(what string, r Report, lines lineRanges) {
		t.Helper()
		if r.AddedCount == 0 {
			t.Errorf("%s: want an added error on lines %s, got none", what, lines)
			return
		}
		for _, d := range r.Added {
			if lines.has(d.Line) {
				if d.Snippet == "" || !strings.Contains(d.Snippet, "^") || d.Message == "" {
					t.Errorf("%s: diagnostic without message or snippet: %+v", what, d)
				}
				return
			}
		}
		t.Errorf("%s: want an added error on lines %s, got:\n%s", what, lines, r)
	}
	wantNotAt := func(what string, r Report, lines lineRanges) {
		t.Helper()
		for _, d := range r.Added {
			if lines.has(d.Line) {
				t.Errorf("%s: the old error on lines %s is reported as added:\n%s", what, lines, r)
			}
		}
	}

	validHarmless := edit(t, c.valid, c.harmless)
	validMistake := edit(t, c.valid, c.mistake)
	brokenHarmless := edit(t, c.broken, c.harmless)
	brokenMistake := edit(t, c.broken, c.mistake)

	wantNone("new valid file", run("new valid file", nil, c.valid))
	wantAt("new broken file", run("new broken file", nil, c.broken), brokenLines)
	wantNone("valid, harmless edit", run("valid, harmless edit", c.valid, validHarmless))
	wantAt("valid, mistake", run("valid, mistake", c.valid, validMistake), mistakeLines)
	wantAt("valid to broken", run("valid to broken", c.valid, c.broken), brokenLines)
	wantNone("broken to valid", run("broken to valid", c.broken, c.valid))
	// The two cases: an already-broken file edited without adding
	// an error is accepted; an edit that adds one is reported (and the old
	// error is not).
	wantNone("broken, harmless edit", run("broken, harmless edit", c.broken, brokenHarmless))
	r := run("broken, mistake", c.broken, brokenMistake)
	if why := c.dir("misses", checker); why != "" {
		t.Logf("broken, mistake: known miss: %s", why)
		return
	}
	if why := c.dir("whole misses", checker); why != "" && opt.windowScan == 0 {
		t.Logf("broken, mistake: known miss without a window: %s", why)
		return
	}
	wantAt("broken, mistake", r, mistakeLines)
	if !brokenLines.overlaps(mistakeLines) {
		wantNotAt("broken, mistake", r, brokenLines)
	}
}

// TestWindowAgrees checks the windowed fast path against whole-file parsing
// on every one-line deletion and duplication of every valid file: when the
// window says "no error added", whole-file parsing must say so too.
func TestWindowAgrees(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.lang, func(t *testing.T) {
			if detect(c.path, nil).checker() == nil {
				t.Skipf("%s is unchecked in this build (cgo off)", c.lang)
			}
			windowAgrees(t, c.path, c.valid)
		})
	}
}

// windowAgrees deletes and doubles each line of valid in turn and checks
// that the window and whole-file parsing agree on whether an error was
// added.
func windowAgrees(t *testing.T, path string, valid []byte) {
	t.Helper()
	lines := bytes.SplitAfter(valid, []byte("\n"))
	for i := range lines {
		del := bytes.Join(append(append([][]byte{}, lines[:i]...), lines[i+1:]...), nil)
		dup := bytes.Join(append(append([][]byte{}, lines[:i+1]...), lines[i:]...), nil)
		for _, after := range [][]byte{del, dup} {
			w, err := check(path, valid, after, forcedWindow)
			if err != nil {
				t.Fatal(err)
			}
			f, err := check(path, valid, after, noWindow)
			if err != nil {
				t.Fatal(err)
			}
			if (w.AddedCount == 0) != (f.AddedCount == 0) {
				t.Errorf("line %d %q: window says %d added, whole file %d:\n%s\n%s", i+1, lines[i], w.AddedCount, f.AddedCount, w, f)
			}
		}
	}
}

func TestUnknownAndUnchecked(t *testing.T) {
	r, err := Check("notes.txt", []byte("a"), []byte("b("))
	if err != nil || r.Checked || r.Language != "" || r.Skipped == "" || !r.OK() {
		t.Errorf("txt: %+v, %v", r, err)
	}
	big := bytes.Repeat([]byte("x = 1\n"), MaxSize/6+1)
	r, err = Check("big.toml", nil, big)
	if err != nil || r.Checked || r.Language != "toml" || !strings.Contains(r.Skipped, "larger") {
		t.Errorf("big: %+v, %v", r, err)
	}
	for _, l := range Languages() {
		if l.Checker == "" {
			r, err := Check("x"+l.Extensions[0], nil, []byte("}{"))
			if err != nil || r.Checked || r.Language != l.Name || !strings.Contains(r.Skipped, "cgo") {
				t.Errorf("%s: %+v, %v", l.Name, r, err)
			}
		}
	}
}

func TestIdenticalIsNotParsed(t *testing.T) {
	src := []byte("func (")
	r, err := Check("x.go", src, src)
	if err != nil || !r.Checked || !r.OK() {
		t.Errorf("%+v, %v", r, err)
	}
}

func TestBOM(t *testing.T) {
	r, err := Check("a.json", nil, []byte("\xef\xbb\xbf{\"a\": 1}\n"))
	if err != nil || !r.Checked || !r.OK() {
		t.Errorf("BOM: %s, %v", r, err)
	}
	r, err = Check("a.json", nil, []byte("\xef\xbb\xbf{\"a\": }\n"))
	if err != nil || r.OK() || r.Added[0].Line != 1 {
		t.Errorf("BOM broken: %s, %v", r, err)
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct{ path, content, want string }{
		{"a/b/main.go", "", "go"},
		{"x.PY", "", "python"},
		{"Gemfile", "", "ruby"},
		{"dir/Cargo.lock", "", "toml"},
		{"lib.h", "", "cpp"},
		{"comp.tsx", "", "tsx"},
		{"types.d.ts", "", "typescript"},
		{".github/workflows/ci.yml", "", "yaml"},
		{"bin/tool", "#!/usr/bin/env python3.12\nprint()\n", "python"},
		{"bin/run", "#!/bin/sh\necho\n", "bash"},
		{"bin/run", "#!/usr/bin/env -S node --experimental\n", "javascript"},
		{"bin/run", "#!/usr/bin/perl\n", ""},
		{"script.pl", "#!/bin/bash\n", ""},
		{"README", "hello\n", ""},
		{".zshrc", "", "zsh"},
	} {
		if got := Detect(tc.path, []byte(tc.content)); got != tc.want {
			t.Errorf("Detect(%q, %q) = %q, want %q", tc.path, tc.content, got, tc.want)
		}
	}
}

func TestLanguagesTable(t *testing.T) {
	seen := map[string]bool{}
	want := []string{"go", "python", "javascript", "typescript", "tsx", "rust", "java", "c", "cpp", "ruby", "bash", "json", "yaml", "toml"}
	for _, l := range Languages() {
		seen[l.Name] = true
		for _, e := range l.Extensions {
			if Detect("f"+e, nil) != l.Name {
				t.Errorf("%s: extension %s detects %q", l.Name, e, Detect("f"+e, nil))
			}
		}
		pure := map[string]bool{"go": true, "json": true, "yaml": true, "toml": true, "bash": true, "zsh": true}
		if pure[l.Name] && l.Checker == "" {
			t.Errorf("%s has a pure-Go checker but reports none", l.Name)
		}
	}
	for _, n := range want {
		if !seen[n] {
			t.Errorf("language %s missing", n)
		}
	}
}

func TestConcurrent(t *testing.T) {
	cases := loadCases(t)
	done := make(chan error)
	for i := 0; i < 8; i++ {
		go func(i int) {
			var err error
			for j := 0; j < 10 && err == nil; j++ {
				c := cases[(i+j)%len(cases)]
				var r Report
				r, err = Check(c.path, c.valid, c.broken)
				if err == nil && r.Checked && r.OK() {
					err = fmt.Errorf("%s: broken not reported", c.lang)
				}
			}
			done <- err
		}(i)
	}
	for i := 0; i < 8; i++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}

// TestLargeFilesDecidedByWindow checks that past MaxWholeFile the window
// alone decides: an error it shows appearing is reported, an edit it finds
// clean is accepted, and a file broken around the edit is reported
// unchecked instead of parsed whole.
func TestLargeFilesDecidedByWindow(t *testing.T) {
	if Detect("big.go", nil) == "" {
		t.Skip("no Go detection")
	}
	var b strings.Builder
	b.WriteString("package big\n\n")
	for i := 0; b.Len() <= MaxWholeFile; i++ {
		fmt.Fprintf(&b, "func f%d(x int) int {\n\treturn x + %d\n}\n\n", i, i)
	}
	before := []byte(b.String())
	breaking := bytes.Replace(before, []byte("return x + 500\n}"), []byte("return x + 500\n"), 1)
	rep, err := Check("big.go", before, breaking)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Checked || rep.OK() {
		t.Fatalf("breaking edit in a large file: %+v", rep)
	}
	fine := bytes.Replace(before, []byte("return x + 500\n"), []byte("return x + 501\n"), 1)
	if rep, err := Check("big.go", before, fine); err != nil || !rep.Checked || !rep.OK() {
		t.Fatalf("harmless edit in a large file: %+v, %v", rep, err)
	}
	broken := bytes.Replace(before, []byte("func f700(x int) int {"), []byte("func f700(x int) int {{"), 1)
	edit := bytes.Replace(broken, []byte("return x + 700\n"), []byte("return x + 7000\n"), 1)
	rep, err = Check("big.go", broken, edit)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Checked && !rep.OK() {
		t.Fatalf("an edit next to an old error was refused: %+v", rep)
	}
}

// A file the checker cannot parse cleanly before the edit (a C header full
// of calling-convention macros, a .js file that holds HTML): the errors it
// reports as added only warn. A clean file broken by the edit still refuses.
func TestUnparsedBeforeOnlyWarns(t *testing.T) {
	before := []byte(`typedef struct sqlite3_io_methods sqlite3_io_methods;
struct sqlite3_io_methods {
  int iVersion;
  int (SQLITE_CDECL *xClose)(sqlite3_file*);
  int (SQLITE_CDECL *xRead)(sqlite3_file*, void*, int iAmt, sqlite3_int64 iOfst);
  int (SQLITE_CDECL *xWrite)(sqlite3_file*, const void*, int iAmt, sqlite3_int64 iOfst);
};
int SQLITE_STDCALL sqlite3_open(const char *filename, sqlite3 **ppDb);
int SQLITE_STDCALL sqlite3_close(sqlite3*);
`)
	after := bytes.Replace(before, []byte("  int (SQLITE_CDECL *xWrite)"),
		[]byte("  int (SQLITE_CDECL *xTruncate)(sqlite3_file*, sqlite3_int64 size);\n  int (SQLITE_CDECL *xWrite)"), 1)
	after = bytes.Replace(after, []byte("int SQLITE_STDCALL sqlite3_close"),
		[]byte("int SQLITE_STDCALL sqlite3_open_v2(const char *filename, sqlite3 **ppDb, int flags);\nint SQLITE_STDCALL sqlite3_close"), 1)
	for _, name := range []string{"sqlite3.h", "sqlite3.c"} {
		r, err := Check(name, before, after)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Checked {
			t.Logf("%s is unchecked in this build: %s", name, r.Skipped)
			continue
		}
		if r.Refuses() {
			t.Errorf("%s: an edit to a file that did not parse before refuses:\n%s", name, r)
		}
		if r.AddedCount > 0 && (!r.Unparsed || !strings.Contains(r.String(), "did not parse before")) {
			t.Errorf("%s: added errors without saying the file did not parse before:\n%s", name, r)
		}
	}

	clean := []byte("package p\n\nfunc f() int {\n\treturn 1\n}\n\nfunc g() int {\n\treturn 2\n}\n")
	broken := bytes.Replace(clean, []byte("\treturn 1\n"), []byte("\tif x {\n\treturn 1\n"), 1)
	r, err := Check("p.go", clean, broken)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Refuses() || r.Unparsed {
		t.Fatalf("an unclosed brace in a clean file does not refuse: %+v", r)
	}
}

// TestLargePackedFilesDecidedByWindow checks the files that generators
// write: past MaxWholeFile, one top-level declaration after another with no
// blank line between them. A window starts and ends at a declaration line
// (language.decl), so a breaking edit is refused and a harmless one checked,
// instead of both landing unchecked.
func TestLargePackedFilesDecidedByWindow(t *testing.T) {
	cases := []struct {
		path, header, unit string
		old, good, bad     string // in the unit numbered 5000
	}{
		{"gen.go", "package gen\n", "var v%[1]d = []int{%[1]d, 1}\nfunc f%[1]d(x int) int {\n\treturn x + %[1]d\n}\n",
			"return x + 5000\n}", "return x + 5001\n}", "return x + 5000\n"},
		{"gen.py", "", "v%[1]d = [%[1]d, 1]\ndef f%[1]d(x):\n    return x + %[1]d\n",
			"return x + 5000\n", "return x + 5001\n", "return (x + 5000\n"},
		{"gen.js", "", "const v%[1]d = [%[1]d, 1];\nfunction f%[1]d(x) {\n  return x + %[1]d;\n}\n",
			"return x + 5000;\n}", "return x + 5001;\n}", "return x + 5000;\n"},
		{"gen.ts", "", "export const v%[1]d: number[] = [%[1]d, 1];\nfunction f%[1]d(x: number): number {\n  return x + %[1]d;\n}\n",
			"return x + 5000;\n}", "return x + 5001;\n}", "return x + 5000;\n"},
		{"gen.rs", "", "const V%[1]d: [i32; 2] = [%[1]d, 1];\nfn f%[1]d(x: i32) -> i32 {\n    x + %[1]d\n}\n",
			"x + 5000\n}", "x + 5001\n}", "x + 5000\n"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			if l := detect(c.path, nil); l == nil || l.checker() == nil {
				t.Skipf("%s is unchecked in this build", c.path)
			}
			var b strings.Builder
			b.WriteString(c.header)
			for i := 0; b.Len() <= MaxWholeFile; i++ {
				fmt.Fprintf(&b, c.unit, i)
			}
			before := []byte(b.String())
			if bytes.Count(before, []byte(c.old)) != 1 {
				t.Fatalf("%q stands %d times", c.old, bytes.Count(before, []byte(c.old)))
			}
			rep, err := Check(c.path, before, bytes.Replace(before, []byte(c.old), []byte(c.bad), 1))
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Checked || rep.OK() {
				t.Fatalf("breaking edit: %+v", rep)
			}
			rep, err = Check(c.path, before, bytes.Replace(before, []byte(c.old), []byte(c.good), 1))
			if err != nil || !rep.Checked || !rep.OK() {
				t.Fatalf("harmless edit: %+v, %v", rep, err)
			}
		})
	}
}

// TestPackedWindowAgrees is TestWindowAgrees on files that write one
// declaration after another with no blank line between (where windows are
// bounded by declaration lines alone): deleting or doubling any line, the
// window and the whole file agree on whether an error was added.
func TestPackedWindowAgrees(t *testing.T) {
	for _, c := range []struct{ path, header, unit string }{
		{"p.go", "package p\n", "var v%[1]d = []int{%[1]d, 1}\nfunc f%[1]d(x int) int {\n\tif x > %[1]d {\n\t\treturn x\n\t}\n\treturn %[1]d\n}\ntype T%[1]d struct {\n\tA int\n}\n"},
		{"p.py", "", "v%[1]d = [%[1]d, 1]\ndef f%[1]d(x):\n    if x > %[1]d:\n        return x\n    return %[1]d\nclass C%[1]d:\n    a = 1\n"},
		{"p.js", "", "const v%[1]d = [%[1]d, 1];\nfunction f%[1]d(x) {\n  if (x > %[1]d) {\n    return x;\n  }\n  return %[1]d;\n}\nexport class C%[1]d {\n  m() { return 1; }\n}\n"},
		{"p.ts", "", "let v%[1]d: number[] = [%[1]d, 1];\nfunction f%[1]d(x: number): number {\n  if (x > %[1]d) {\n    return x;\n  }\n  return %[1]d;\n}\ninterface I%[1]d {\n  a: number;\n}\n"},
		{"p.rs", "", "const V%[1]d: [i32; 2] = [%[1]d, 1];\nfn f%[1]d(x: i32) -> i32 {\n    if x > %[1]d {\n        return x;\n    }\n    %[1]d\n}\nstruct S%[1]d {\n    a: i32,\n}\n"},
	} {
		t.Run(c.path, func(t *testing.T) {
			if l := detect(c.path, nil); l == nil || l.checker() == nil {
				t.Skipf("%s is unchecked in this build", c.path)
			}
			var b strings.Builder
			b.WriteString(c.header)
			for i := 0; i < 4; i++ {
				fmt.Fprintf(&b, c.unit, i)
			}
			valid := []byte(b.String())
			if r, err := Check(c.path, nil, valid); err != nil || !r.OK() {
				t.Fatalf("the generated file does not parse: %v %s", err, r)
			}
			windowAgrees(t, c.path, valid)
		})
	}
}

// An error that the parser already reports elsewhere in before, with the
// same message (the same idiom it cannot read, here a calling-convention
// macro), only warns even when the window around the edit was clean; a
// different error in the same file still refuses.
func TestSameFailureElsewhereOnlyWarns(t *testing.T) {
	before := []byte(`#ifndef LIB_H
#define LIB_H

typedef int (SQLITE_CDECL *lib_callback)(void*, int);

int lib_open(const char *name);

int lib_close(void);

#endif
`)
	idiom := bytes.Replace(before, []byte("int lib_close(void);\n"), []byte("int lib_close(void);\ntypedef void (SQLITE_CDECL *lib_destructor)(void*);\n"), 1)
	broken := bytes.Replace(before, []byte("int lib_close(void);\n"), []byte("int lib_close(void;\n"), 1)
	for _, c := range []struct {
		name    string
		after   []byte
		refuses bool
	}{{"the same idiom", idiom, false}, {"a real mistake", broken, true}} {
		r, err := Check("lib.h", before, c.after)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Checked {
			t.Skipf("unchecked in this build: %s", r.Skipped)
		}
		if r.Refuses() != c.refuses {
			t.Errorf("%s: refuses %v, want %v:\n%s", c.name, r.Refuses(), c.refuses, r)
		}
	}
}

// A lone "&" in JSX text is text (TypeScript and Babel take it so), not an
// error; a real mistake in the same element still is.
func TestJSXAmpersand(t *testing.T) {
	before := []byte("export function A() {\n  return <div>hello</div>;\n}\n")
	for _, name := range []string{"a.tsx", "a.jsx"} {
		for _, c := range []struct {
			new     string
			refuses bool
		}{{"Tom & Jerry", false}, {"Tom &amp; Jerry", false}, {"<b>Tom & Jerry", true}} {
			after := bytes.Replace(before, []byte("hello"), []byte(c.new), 1)
			r, err := Check(name, before, after)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Checked {
				t.Skipf("unchecked in this build: %s", r.Skipped)
			}
			if r.Refuses() != c.refuses {
				t.Errorf("%s %q: refuses %v, want %v:\n%s", name, c.new, r.Refuses(), c.refuses, r)
			}
		}
	}
}

// TestPythonEmptyBlock: a block header left without a body (the body
// deleted, or only comments left in it) is an error CPython reports and
// tree-sitter's grammar does not; the check adds it. Valid headers, one
// line bodies and colons that end no header (a slice, a dict over lines, a
// docstring's "Args:") are not errors.
func TestPythonEmptyBlock(t *testing.T) {
	if detect("a.py", nil).checker() == nil {
		t.Skip("no python parser in this build")
	}
	before := "def f(q):\n    while True:\n        try:\n            m = q.get()\n        except Exception:\n            if not c:\n                raise\n            continue\n\n        if m is None:\n            break\n"
	for _, c := range []struct {
		name, after string
		refuse      bool
	}{
		{"body deleted", "def f(q):\n    while True:\n        try:\n            m = q.get()\n        except Exception:\n            if not c:\n\n        if m is None:\n            break\n", true},
		{"only a comment left", "def f(q):\n    while True:\n        try:\n            m = q.get()\n        except Exception:\n            if not c:\n                # raise\n            continue\n\n        if m is None:\n            break\n", true},
		{"header at the end", before + "    else:\n", true},
		{"one-line body", "def f(q):\n    while True:\n        try:\n            m = q.get()\n        except Exception:\n            if not c: raise\n            continue\n\n        if m is None:\n            break\n", false},
		{"colons that end no header", before + "\n\ndef g(a):\n    \"\"\"Args:\n    none\"\"\"\n    d = {\n        'k':\n        1}\n    return a[1:\n    ]\n", false},
	} {
		r, err := Check("a.py", []byte(before), []byte(c.after))
		if err != nil {
			t.Fatal(err)
		}
		if r.Refuses() != c.refuse {
			t.Errorf("%s: refuses %v, want %v: %s", c.name, r.Refuses(), c.refuse, r)
		}
	}
}
