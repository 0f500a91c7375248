package syntax

import (
	"strings"
	"testing"

	"github.com/graftdev/graft/internal/lineindex"
)

func TestSnippet(t *testing.T) {
	long := strings.Repeat("x", 200) + "(" + strings.Repeat("y", 200)
	for _, tc := range []struct {
		name, src string
		start     int // byte offset of the error
		want      string
		line, col int
	}{
		{
			name:  "tabs are kept in the caret line",
			src:   "func f() {\n\tif (x > 0 {\n\t\treturn\n\t}\n}\n",
			start: len("func f() {\n\tif (x > 0 "),
			line:  2, col: 12,
			want: "1 | func f() {\n2 | \tif (x > 0 {\n  | \t          ^",
		},
		{
			name:  "CRLF and characters, not bytes",
			src:   "a = «b»\r\nc = (\r\n",
			start: len("a = «b»\r\nc = "),
			line:  2, col: 5,
			want: "1 | a = «b»\n2 | c = (\n  |     ^",
		},
		{
			name:  "long line is cut around the caret",
			src:   "ok\n" + long + "\n",
			start: 3 + 200,
			line:  2, col: 201,
			want: "1 | ok\n2 | …" + strings.Repeat("x", 60) + "(" + strings.Repeat("y", 99) + "…\n  |  " + strings.Repeat(" ", 60) + "^",
		},
		{
			name:  "end of file after a final newline is the line after",
			src:   "x = (\n",
			start: len("x = (\n"),
			line:  2, col: 1,
			want: "1 | x = (\n2 | \n  | ^",
		},
		{
			name:  "end of file without newline",
			src:   "x = [1, 2",
			start: len("x = [1, 2"),
			line:  1, col: 10,
			want: "1 | x = [1, 2\n  |          ^",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := diagnostic(lineindex.New([]byte(tc.src)), diag{start: tc.start, end: tc.start, msg: "m"})
			if d.Line != tc.line || d.Column != tc.col {
				t.Errorf("at %d:%d, want %d:%d", d.Line, d.Column, tc.line, tc.col)
			}
			if d.Snippet != tc.want {
				t.Errorf("snippet:\n%s\nwant:\n%s", d.Snippet, tc.want)
			}
		})
	}
}

func TestAddedDiags(t *testing.T) {
	d := func(start, end int, key string) diag { return diag{start: start, end: end, key: key, msg: key} }
	// before: error at 10 (prefix) and at 100 (suffix); the edit replaces
	// [50,60) with 25 bytes: +15.
	ch := change{start: 50, beforeEnd: 60, afterEnd: 75}
	bd := []diag{d(10, 12, "error"), d(100, 101, `missing "}"`)}
	for _, tc := range []struct {
		name string
		ad   []diag
		want int // number added
	}{
		{"same errors carried through", []diag{d(10, 12, "error"), d(115, 116, `missing "}"`)}, 0},
		{"suffix error not shifted is new", []diag{d(10, 12, "error"), d(100, 101, `missing "}"`)}, 1},
		{"one more in the edit", []diag{d(10, 12, "error"), d(55, 56, "error"), d(115, 116, `missing "}"`)}, 1},
		{"old error grew over the edit", []diag{d(10, 90, "error"), d(115, 116, `missing "}"`)}, 1},
		{"fixed one", []diag{d(115, 116, `missing "}"`)}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := addedDiags(bd, tc.ad, ch); len(got) != tc.want {
				t.Errorf("added %v, want %d", got, tc.want)
			}
		})
	}
	// An error inside the changed span may move or change kind while the
	// span stays broken (passes 2 and 3), but two new ones against one old
	// one leave one added.
	inSpan := []diag{d(52, 53, "error")}
	if got := addedDiags(inSpan, []diag{d(70, 71, `missing ")"`)}, ch); len(got) != 0 {
		t.Errorf("rewritten broken span: added %v", got)
	}
	if got := addedDiags(inSpan, []diag{d(51, 52, "error"), d(70, 71, `missing ")"`)}, ch); len(got) != 1 {
		t.Errorf("broken span, one more error: added %v, want 1", got)
	}
}

func TestWindowBounds(t *testing.T) {
	src := []byte("package p\n\nfunc a() {\n\tx()\n}\n\nfunc b() {\n\ty()\n}\n\n}\n\nfunc c() {}\n")
	at := strings.Index(string(src), "y()")
	ws, ok := windowStart(src, at, 1<<20, bounds{})
	if !ok || !strings.HasPrefix(string(src[ws:]), "func b()") {
		t.Errorf("start %d %v: %q", ws, ok, src[ws:])
	}
	// The "}" line after the blank line is no boundary; "func c" is.
	we, ok := windowEnd(src, at+3, 1<<20, bounds{})
	if !ok || !strings.HasPrefix(string(src[we:]), "func c()") {
		t.Errorf("end %d %v: %q", we, ok, src[we:])
	}
	if _, ok := windowStart(src, at, 5, bounds{}); ok {
		t.Error("scan budget ignored")
	}
}
