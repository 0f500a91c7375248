package syntax

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// cFile is a clean C file with a table, an enum and a function that
// already hold preprocessor conditionals where a declaration or a
// statement may stand (the grammar reads those), and marks where the
// cases below insert their lines.
const cFile = `#include <stdio.h>

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

struct opt {
	const char *name;
	int value;
};

/* MARK-TOP */

static int run(int x) {
#ifdef DEBUG
	printf("%d\n", x);
#endif
	return x;
}
`

// TestConditionalsOnlyWarn: code that is valid once the preprocessor has
// taken out its directives (an #ifdef around a row of a table or an enum
// member, an #if whose branches each open the brace one "}" closes, an
// extern "C" guard, an X-macro #include, #embed) is reported and only
// warns; the same shapes with a real mistake in a branch, an #if left
// open or a malformed directive are refused. Each case is checked as an
// edit of cFile and as a new file.
func TestConditionalsOnlyWarn(t *testing.T) {
	cases := []struct {
		name, path, text string
		refuse           bool
	}{
		{"#ifdef around a table's row", "t.c", "static const struct opt opts[] = {\n\t{\"a\", 1},\n#ifdef HAVE_B\n\t{\"b\", 2},\n#endif\n\t{0, 0}\n};", false},
		{"#if around an enum member", "t.c", "enum e {\n\tE_A,\n#if defined(X)\n\tE_X,\n#endif\n\tE_N\n};", false},
		{"#ifdef around an else branch", "t.c", "int f(int x) {\n\tif (x) {\n\t\treturn 1;\n\t}\n#ifdef Y\n\telse if (x > 2) {\n\t\treturn 2;\n\t}\n#endif\n\treturn 0;\n}", false},
		{"two branches that each open a brace", "t.c", "int k(int x) {\n#if X\n\tif (x) {\n#else\n\tif (!x) {\n#endif\n\t\treturn 1;\n\t}\n\treturn 0;\n}", false},
		{"an X-macro include in an initializer", "t.c", "static const char *names[] = {\n#include \"names.def\"\n};", false},
		{"#embed", "t.c", "static const unsigned char data[] = {\n#embed \"file.bin\"\n};", false},
		{"#if 0 around text that is not code", "t.c", "int g(void) {\n#if 0\n\tthis is not code\n#endif\n\treturn 2;\n}", false},
		{"extern \"C\" guard", "t.h", "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint c(void);\n#ifdef __cplusplus\n}\n#endif", false},

		{"a branch missing its semicolon", "t.c", "int k(int x) {\n#if X\n\tif (x) {\n#else\n\tif (!x) {\n#endif\n\t\treturn 1;\n\t}\n\treturn 0\n}", true},
		{"a broken condition in one branch", "t.c", "int k(int x) {\n#if X\n\tif (x) {\n#else\n\tif (!x {\n#endif\n\t\treturn 1;\n\t}\n\treturn 0;\n}", true},
		{"a broken row under #ifdef", "t.c", "static const struct opt o2[] = {\n\t{\"a\", 1},\n#ifdef HAVE_B\n\t{\"b\" 2},\n#endif\n\t{0, 0}\n};", true},
		{"broken code under #ifdef, compiled when defined", "t.c", "int g(void) {\n#ifdef X\n\tthis is not code\n#endif\n\treturn 2;\n}", true},
		{"a broken #else branch", "t.c", "int g(void) {\n#if X\n\treturn 1;\n#else\n\treturn = 2;\n#endif\n}", true},
		{"a broken last of three branches", "t.c", "int g(void) {\n#if X\n\treturn 1;\n#elif Y\n\treturn 2;\n#else\n\treturn 3\n#endif\n}", true},
		{"an #ifdef left open", "t.c", "#ifdef X\nint q;", true},
		{"an #if without a condition", "t.c", "#if\nint q;\n#endif", true},
		{"an include left open", "t.c", "#include <foo.h", true},
		{"a guarded declaration missing its semicolon", "t.h", "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint c(void)\n#ifdef __cplusplus\n}\n#endif", true},
	}
	before := strings.Replace(cFile, "/* MARK-TOP */\n", "", 1)
	if r, err := Check("t.c", nil, []byte(before)); err != nil || !r.OK() {
		t.Fatalf("the file does not parse before the edit: %v\n%s", err, r)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			after := strings.Replace(cFile, "/* MARK-TOP */\n", c.text+"\n", 1)
			for _, b := range [][]byte{[]byte(before), nil} {
				a := after
				if b == nil {
					a = c.text + "\n"
				}
				r, err := Check(c.path, b, []byte(a))
				if err != nil {
					t.Fatal(err)
				}
				if !r.Checked {
					t.Skipf("unchecked in this build: %s", r.Skipped)
				}
				switch {
				case c.refuse && !r.Refuses():
					t.Errorf("new file %v: not refused: %s", b == nil, r)
				case !c.refuse && r.Refuses():
					t.Errorf("new file %v: refused:\n%s", b == nil, r)
				case !c.refuse && !r.OK() && (!r.Conditionals || !strings.Contains(r.String(), "only warns")):
					t.Errorf("new file %v: warns without saying why:\n%s", b == nil, r)
				}
			}
		})
	}
}

// TestReadings pins the readings: directive lines and branches not
// taken blanked, offsets kept; reading k takes each chain's k-th branch
// (its last when it has fewer); #if 0 is never read and #if 1's
// alternatives never are; a chain whose branch holds the edit takes that
// branch in every reading.
func TestReadings(t *testing.T) {
	src := "a\n#if X\nb\n#elif Y\nc\n#else\nd\n#endif\n#if 0\ne\n#else\nf\n#endif\n#if 1\ng\n#else\nh\n#endif\n#ifdef Z\ni\n#endif\n#pragma once\n"
	words := func(b []byte) string { return strings.Join(strings.Fields(string(b)), " ") }
	all := func(int, int) bool { return true }
	set, ok := newReadings([]byte(src), span{0, len(src)}, all, 0)
	if !ok {
		t.Fatal("not ok")
	}
	var got []string
	for k := 0; k < set.n; k++ {
		r := set.fill(k, nil)
		if len(r) != len(src) || strings.Count(string(r), "\n") != strings.Count(src, "\n") {
			t.Errorf("offsets moved")
		}
		got = append(got, words(r))
	}
	if want := []string{"a b f g i", "a c f g i", "a d f g i"}; !slices.Equal(got, want) {
		t.Errorf("readings %q, want %q", got, want)
	}
	never := set.never
	var skipped []string
	for _, n := range never {
		skipped = append(skipped, words([]byte(src[n.start:n.end])))
	}
	if want := []string{"e", "h"}; !slices.Equal(skipped, want) {
		t.Errorf("never %q, want %q", skipped, want)
	}
	// An edit inside the #elif branch: every reading takes it.
	at := strings.Index(src, "c\n")
	set, _ = newReadings([]byte(src), span{at, at + 1}, all, 0)
	if r := words(set.fill(0, nil)); set.n != 1 || r != "a c f g i" {
		t.Errorf("held: %d readings, first %q", set.n, r)
	}
	for _, bad := range []string{"#endif\n", "#if X\n", "#if X\n#else\n#elif Y\n#endif\n", "#else\n", "#ifdef\n#endif\n", "#ifdef A B\n#endif\n"} {
		if _, ok := newReadings([]byte(bad), span{0, len(bad)}, all, 0); ok {
			t.Errorf("%q: ok", bad)
		}
	}
}

// TestNestedBranchIsRead: an edit that writes a chain inside the #else of
// another is read inside that #else in every reading, so a mistake in the
// inner chain's first branch is refused; and a chain of more branches than
// readings leaves the ones past them unread, so the edit refuses.
func TestNestedBranchIsRead(t *testing.T) {
	before := "#ifdef A\nint f(void) { return 1; }\n#else\nint f(void) {\n\treturn 2;\n}\n#endif\n"
	insert := func(text string) string { return strings.Replace(before, "\treturn 2;\n", text, 1) }
	for _, c := range []struct {
		name, text string
		refuse     bool
	}{
		{"inner chain, valid", "#ifdef B\n\treturn 2;\n#else\n\treturn 3;\n#endif\n", false},
		{"inner chain, first branch broken", "#ifdef B\n\treturn 2\n#else\n\treturn 3;\n#endif\n", true},
		{"inner chain, last branch broken", "#ifdef B\n\treturn 2;\n#else\n\treturn 3\n#endif\n", true},
	} {
		r, err := Check("n.c", []byte(before), []byte(insert(c.text)))
		if err != nil {
			t.Fatal(err)
		}
		if !r.Checked {
			t.Skipf("unchecked in this build: %s", r.Skipped)
		}
		if r.Refuses() != c.refuse {
			t.Errorf("%s: refuses %v, want %v:\n%s", c.name, r.Refuses(), c.refuse, r)
		}
	}
}

// ifdefTables makes C source of n tables of 40 rows, every tenth row
// under an #ifdef of its own: code the grammar cannot read where its
// directives stand, about 690 bytes a table.
func ifdefTables(n int) []byte {
	var src bytes.Buffer
	for t := range n {
		fmt.Fprintf(&src, "static const struct opt opts%d[] = {\n", t)
		for r := range 40 {
			if r%10 == 5 {
				fmt.Fprintf(&src, "#ifdef HAVE_%d_%d\n\t{\"r%d\", %d},\n#endif\n", t, r, r, r)
				continue
			}
			fmt.Fprintf(&src, "\t{\"r%d\", %d},\n", r, r)
		}
		src.WriteString("\t{0, 0}\n};\n\n")
	}
	return src.Bytes()
}

// TestReadingsFirst: a file whose window around the edit does not parse
// before it (its #ifdef rows) is decided by its readings, window by
// window. Past MaxWholeFile such a file was left unchecked; below it, it
// was parsed whole, through error recovery, and a row added under #ifdef
// only warned. Now, at both sizes, a plain row and a row under #ifdef
// pass with no error, and a row missing its comma is refused.
func TestReadingsFirst(t *testing.T) {
	for _, tables := range []int{250, 2000} {
		before := ifdefTables(tables)
		if big := len(before) > MaxWholeFile; big != (tables == 2000) {
			t.Fatalf("%d bytes: past MaxWholeFile %v", len(before), big)
		}
		mid := fmt.Sprintf("opts%d[] = {\n", tables/2)
		for _, c := range []struct {
			name, row string
			refuse    bool
		}{
			{"plain row", "\t{\"new\", 1},\n", false},
			{"row under #ifdef", "#ifdef HAVE_NEW\n\t{\"new\", 1},\n#endif\n", false},
			{"row missing its comma", "\t{\"new\" 1},\n", true},
		} {
			after := bytes.Replace(before, []byte(mid), []byte(mid+c.row), 1)
			r, err := Check("t.c", before, after)
			if err != nil {
				t.Fatal(err)
			}
			if r.Skipped != "" && strings.Contains(r.Skipped, "build") {
				t.Skipf("unchecked in this build: %s", r.Skipped)
			}
			if !r.Checked || r.Refuses() != c.refuse || !c.refuse && !r.OK() || r.Unparsed || r.Conditionals {
				t.Errorf("%d KB, %s: checked %v, refuses %v, want %v:\n%s", len(before)>>10, c.name, r.Checked, r.Refuses(), c.refuse, r)
			}
		}
	}
}
