package syntax

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// sqliteHeader is a clean header in SQLite's style: no macro in it yet,
// so the grammar parses it, and the edits below add the first ones.
const sqliteHeader = `#ifndef SQLITE3_H
#define SQLITE3_H
#include <stdarg.h>

typedef struct sqlite3 sqlite3;
typedef long long int sqlite3_int64;

struct sqlite3_config {
  int bMemstat;
  int szLookaside;
  /* MARK-STRUCT */
};

int sqlite3_open(const char *filename, sqlite3 **ppDb);

/* MARK-TOP */
int sqlite3_close(sqlite3*);

#endif
`

// cppHeader is a clean C++ header for the class-macro cases.
const cppHeader = `#pragma once
#include <string>

namespace app {

class Base {
public:
  virtual ~Base() = default;
};

/* MARK-TOP */
int version();

}  // namespace app
`

// insertAt puts text on its own line in place of the marker comment.
func insertAt(t *testing.T, src, marker, text string) string {
	t.Helper()
	m := "/* " + marker + " */\n"
	if strings.Count(src, m) != 1 {
		t.Fatalf("marker %q stands %d times", marker, strings.Count(src, m))
	}
	return strings.Replace(src, m, text+"\n", 1)
}

func clearMarks(src string) string {
	for _, m := range []string{"  /* MARK-STRUCT */\n", "/* MARK-TOP */\n"} {
		src = strings.Replace(src, m, "", 1)
	}
	return src
}

// TestMacrosOnlyWarn: an edit that adds a calling-convention, export or
// declaration macro where the grammar cannot read it (valid C and C++
// once the preprocessor has run) is reported as a warning naming the
// macro, never refused; and the same edit as a new file is not refused
// either.
func TestMacrosOnlyWarn(t *testing.T) {
	cases := []struct {
		name, path, file, marker, text string
		word                           string // a word UnknownWords must hold; "" when the grammar reads the edit
	}{
		{"SQLite callback in a struct", "sqlite3.h", sqliteHeader, "MARK-STRUCT", "  void (SQLITE_CDECL*xLog)(void*,int,const char*);", "SQLITE_CDECL"},
		{"SQLite callback in a C file", "sqlite3.c", sqliteHeader, "MARK-STRUCT", "  void (SQLITE_CDECL*xLog)(void*,int,const char*);", "SQLITE_CDECL"},
		{"SQLite API and calling convention", "sqlite3.h", sqliteHeader, "MARK-TOP", "SQLITE_API int SQLITE_STDCALL sqlite3_config(int, ...);", "SQLITE_STDCALL"},
		{"SQLite API in a C file", "sqlite3.c", sqliteHeader, "MARK-TOP", "SQLITE_API int SQLITE_STDCALL sqlite3_config(int, ...);", "SQLITE_STDCALL"},
		{"OpenGL APIENTRY", "gl.h", sqliteHeader, "MARK-TOP", "void APIENTRY glFlush(void);", "APIENTRY"},
		{"Windows WINAPI typedef", "win.h", sqliteHeader, "MARK-TOP", "typedef int (WINAPI *FARPROC)(void);", "WINAPI"},
		{"Windows API declaration", "win.c", sqliteHeader, "MARK-TOP", "WINBASEAPI BOOL WINAPI CloseHandle(HANDLE hObject);", "WINAPI"},
		{"GCC attribute macro after a declarator", "attr.c", sqliteHeader, "MARK-TOP", "void sqlite3_fatal(const char *msg) SQLITE_NORETURN;", "SQLITE_NORETURN"},
		{"unused-parameter macro", "param.c", sqliteHeader, "MARK-TOP", "int sqlite3_sleep(int ms UNUSED_PARAM);", "UNUSED_PARAM"},
		{"GObject type macro without a semicolon", "obj.c", sqliteHeader, "MARK-TOP", "G_DEFINE_TYPE(Foo, foo, G_TYPE_OBJECT)", "G_DEFINE_TYPE(...)"},
		{"__declspec, which the grammar reads", "dll.h", sqliteHeader, "MARK-TOP", "__declspec(dllexport) int sqlite3_dll(void);", ""},
		{"GCC __attribute__, which the grammar reads", "gcc.h", sqliteHeader, "MARK-TOP", "int sqlite3_log2(int) __attribute__((const));", ""},
		{"Qt export macro and Q_OBJECT", "widget.h", cppHeader, "MARK-TOP", "class Q_CORE_EXPORT Widget : public Base {\n  Q_OBJECT\npublic:\n  Widget();\n};", "Q_OBJECT"},
		{"MFC DECLARE_DYNAMIC in a class", "view.hpp", cppHeader, "MARK-TOP", "class View : public Base {\n  DECLARE_DYNAMIC(View)\npublic:\n  int x;\n};", "DECLARE_DYNAMIC(...)"},
		{"export macro on a class", "api.hpp", cppHeader, "MARK-TOP", "class APP_EXPORT Api : public Base {\npublic:\n  int y;\n};", "APP_EXPORT"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := clearMarks(c.file)
			after := clearMarks(insertAt(t, c.file, c.marker, c.text))
			if r, err := Check(c.path, nil, []byte(before)); err != nil || !r.OK() {
				t.Fatalf("the header does not parse before the edit: %v\n%s", err, r)
			}
			for _, b := range [][]byte{[]byte(before), nil} {
				r, err := Check(c.path, b, []byte(after))
				if err != nil {
					t.Fatal(err)
				}
				if !r.Checked {
					t.Skipf("unchecked in this build: %s", r.Skipped)
				}
				if r.Refuses() {
					t.Fatalf("new file %v: refused:\n%s", b == nil, r)
				}
				if c.word == "" {
					if !r.OK() {
						t.Errorf("new file %v: the grammar reads this, yet:\n%s", b == nil, r)
					}
					continue
				}
				if r.AddedCount == 0 {
					continue // the grammar reads it after all
				}
				if !slices.Contains(r.UnknownWords, c.word) || !strings.Contains(r.String(), "only warns") || r.Added[0].Snippet == "" {
					t.Errorf("new file %v: want a warning naming %s with the diagnostic, got %q:\n%s", b == nil, c.word, r.UnknownWords, r)
				}
			}
		})
	}
}

// TestNoMacroMendsThese: edits that no macro could make valid are still
// refused in C and C++: brackets, literals or comments left unbalanced, or
// errors that stay whatever words at their sites expand to nothing.
func TestNoMacroMendsThese(t *testing.T) {
	body := "static int helper(int n)\n{\n  int x = 0, y = 0;\n  /* MARK-BODY */\n  return x + y + n;\n}\n"
	file := sqliteHeader + "\n" + body
	for _, text := range []string{
		"  y = helper(x, n;",                   // unbalanced (
		"  if (x) { y = 1;",                    // unbalanced {
		"  y = (x + n));",                      // unbalanced )
		"  for (x = 0; x < n; x++ {",           // unbalanced (
		"  const char *s = \"unterminated;",    // literal cut by the line break
		"  char c = 'ab",                       // same, a character literal
		"  /* a comment left open",             // comment open to the end
		"  int a[3] = {1, 2 3};",               // two numbers side by side
		"  x = ;",                              // nothing to assign
		"  return 0\n}\nstatic int g(void)\n{", // a number before a brace
		"  x == 1 y = 2;",                      // same
	} {
		for _, path := range []string{"sqlite3.c", "sqlite3.h"} {
			after := clearMarks(insertAt(t, file, "MARK-BODY", text))
			r, err := Check(path, []byte(clearMarks(strings.Replace(file, "  /* MARK-BODY */\n", "", 1))), []byte(after))
			if err != nil {
				t.Fatal(err)
			}
			if !r.Checked {
				t.Skipf("unchecked in this build: %s", r.Skipped)
			}
			if !r.Refuses() {
				t.Errorf("%s: %q lands:\n%s", path, text, r)
			}
		}
	}
}

// TestGrammarLagOnlyWarns: TypeScript constructs tsc accepts that the
// grammar predates (a modifier word in a place it was added to later) only
// warn; a generator overload signature, which tsc itself rejects (TS1222),
// and misplaced old modifiers stay refused.
func TestGrammarLagOnlyWarns(t *testing.T) {
	file := "import { A, B } from \"./types\";\n\n/* MARK-TOP */\nexport function other(): number {\n  return 1;\n}\n"
	for _, c := range []struct {
		text    string
		refuses bool
	}{
		{`export type * from "./mod";`, false},
		{`export type * as ns from "./mod";`, false},
		{"export class C extends A {\n  override accessor x = 2;\n}", false},
		{"interface Box<in out T> {\n  f(x: T): T;\n}", false},
		{"export function* walk(a: A): Generator<B>;\nexport function* walk(a: A): Generator<B> {\n  yield* a.items;\n}", true},
		{"private x = 1;", true},
		{"async async function g() {}", true},
		{"const z = a b;", true},
		{"function f(a: number { return a; }", true},
	} {
		for _, path := range []string{"m.ts", "m.tsx"} {
			after := clearMarks(insertAt(t, file, "MARK-TOP", c.text))
			r, err := Check(path, []byte(clearMarks(file)), []byte(after))
			if err != nil {
				t.Fatal(err)
			}
			if !r.Checked {
				t.Skipf("unchecked in this build: %s", r.Skipped)
			}
			if r.Refuses() != c.refuses {
				t.Errorf("%s: %q: refuses %v, want %v:\n%s", path, c.text, r.Refuses(), c.refuses, r)
			}
		}
	}
}

// TestLexBalance: what the balance test counts and what it leaves out.
func TestLexBalance(t *testing.T) {
	for _, c := range []struct {
		src  string
		want balance
	}{
		{"int f(void) { return g(a[1]); }\n", balance{}},
		{"#ifdef __cplusplus\nextern \"C\" {\n#endif\nint x;\n#ifdef __cplusplus\n}\n#endif\n", balance{}},
		{"#if A\nif (a) {\n#elif B\nif (b) {\n#else\nif (c) {\n#endif\n  f();\n}\n", balance{}},
		{"#define BEGIN {\n#define END \\\n  }\nBEGIN int x; END\n", balance{}},
		{"char c = '{'; const char *s = \"({[\"; // {\n/* ( */ int n = 1'000'000;\n", balance{}},
		{"const char *r = R\"x(unbalanced ( \" quote)x\";\n", balance{}},
		{"int f(void {\n", balance{paren: 1, brace: 1}},
		{"const char *s = \"cut;\nint x;\n", balance{cutLiterals: 1}},
		{"int x; /* open\n", balance{openComment: true}},
	} {
		if got := lexBalance([]byte(c.src)); got != c.want {
			t.Errorf("%q: got %+v, want %+v", c.src, got, c.want)
		}
	}
}

// TestMacroInLargeFile: in a C file past MaxWholeFile (SQLite's
// amalgamation is 9 MB), where the window around the edit decides alone,
// a calling-convention macro added to a struct still only warns, and an
// unbalanced edit still refuses.
func TestMacroInLargeFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("struct sqlite3_config {\n  int bMemstat;\n  /* MARK-STRUCT */\n};\n\n")
	for i := 0; b.Len() <= MaxWholeFile; i++ {
		fmt.Fprintf(&b, "static int helper%d(int n)\n{\n  return n + %d;\n}\n\n", i, i)
	}
	file := b.String()
	before := []byte(strings.Replace(file, "  /* MARK-STRUCT */\n", "", 1))
	for _, c := range []struct {
		text    string
		refuses bool
	}{
		{"  void (SQLITE_CDECL*xLog)(void*,int,const char*);", false},
		{"  void (SQLITE_CDECL*xLog)(void*,int,const char*;", true},
	} {
		after := []byte(insertAt(t, file, "MARK-STRUCT", c.text))
		r, err := Check("sqlite3.c", before, after)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Checked {
			t.Skipf("unchecked in this build: %s", r.Skipped)
		}
		if r.Refuses() != c.refuses {
			t.Errorf("%q: refuses %v, want %v:\n%s", c.text, r.Refuses(), c.refuses, r)
		}
	}
}
