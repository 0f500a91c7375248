package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/graftdev/graft/internal/textedit"

	"github.com/graftdev/graft/internal/lineindex"
	"github.com/graftdev/graft/matcher"
)

func TestApplyOverlapNamesBoth(t *testing.T) {
	_, err := textedit.Splice([]byte("abcdef"), []textedit.Change{
		{Start: 1, End: 3, New: "x", Edit: "ops[0]"},
		{Start: 2, End: 4, New: "y", Edit: "ops[1]"},
	})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeInvalid || err.Error() != "ops[0]: overlaps ops[1]" {
		t.Fatalf("got %v", err)
	}
	// With what each targets, each label once (not "ops[0]: ops[0] (...)").
	_, err = textedit.Splice([]byte("abcdef"), []textedit.Change{
		{Start: 1, End: 3, New: "x", Edit: "ops[0]", Desc: "lines 5-7"},
		{Start: 2, End: 4, New: "y", Edit: "ops[1]", Desc: "line 6"},
	})
	if err == nil || err.Error() != "ops[0]: lines 5-7 and ops[1] (line 6) overlap" {
		t.Fatalf("got %v", err)
	}
	_, err = textedit.Splice([]byte("abcdef"), []textedit.Change{{Start: 1, End: 3, Desc: "line 1"}, {Start: 2, End: 4, Desc: "line 2"}})
	if err == nil || err.Error() != "line 1 and line 2 overlap" {
		t.Fatalf("got %v", err)
	}
}

func TestApplyInsertionsKeepOrderAndTouchRanges(t *testing.T) {
	got, err := textedit.Splice([]byte("abc"), []textedit.Change{
		{Start: 1, End: 2, New: "B"},
		{Start: 1, End: 1, New: "1"},
		{Start: 2, End: 2, New: "2"},
		{Start: 1, End: 1, New: "one"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "a1oneB2c" {
		t.Fatalf("got %q", got)
	}
}

func TestApplyBounds(t *testing.T) {
	if _, err := textedit.Splice([]byte("abc"), []textedit.Change{{Start: 2, End: 5}}); CodeOf(err) != CodeInvalid {
		t.Fatalf("got %v", err)
	}
}

func TestDiffRoundTrip(t *testing.T) {
	cases := [][2]string{
		{"", ""},
		{"", "a\n"},
		{"a\n", ""},
		{"a\nb\nc\n", "a\nB\nc\n"},
		{"a\nb", "a\nb\n"},
		{"a\r\nb\r\n", "a\nb\n"},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n", "0\n1\n2\n4\n5\n6\nx\n8\n9\n10\n"},
	}
	for _, c := range cases {
		a, b := []byte(c[0]), []byte(c[1])
		got, err := textedit.Splice(a, Diff(a, b))
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("textedit.Splice(%q, Diff) = %q, %v; want %q", a, got, err, b)
		}
	}
}

func TestUnifiedNoNewline(t *testing.T) {
	a, b := []byte("x\ny"), []byte("x\nz")
	ai, bi := lineindex.New(a), lineindex.New(b)
	got := unified("a/f", "b/f", ai, bi, diffLines(ai, 1, 3, bi, 1, 3))
	want := "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+z\n\\ No newline at end of file\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// FuzzApplyDiff checks textedit.Splice(a, Diff(a, b)) == b, and that the diff
// computed from hunks region by region describes the same change as the
// whole-file diff.
func FuzzApplyDiff(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), []byte("a\nc\nd\n"))
	f.Add([]byte("x\r\ny"), []byte("x\ny\n"))
	f.Add([]byte(""), []byte("\n\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		hunks := Diff(a, b)
		got, err := textedit.Splice(a, hunks)
		if err != nil {
			t.Fatalf("Apply: %v", err)
		}
		if !bytes.Equal(got, b) {
			t.Fatalf("textedit.Splice(a, Diff(a, b)) = %q, want %q", got, b)
		}
		ai, bi := lineindex.New(a), lineindex.New(b)
		regional := editsFromHunks(ai, bi, hunks)
		if got, _ := textedit.Splice(a, hunksOf(ai, bi, regional)); !bytes.Equal(got, b) {
			t.Fatalf("regional edits give %q, want %q", got, b)
		}
	})
}

// FuzzHunkRegions applies arbitrary byte-level hunks and checks that the
// line edits computed region by region reproduce the result exactly.
func FuzzHunkRegions(f *testing.F) {
	f.Add([]byte("one\ntwo\nthree\n"), uint16(4), uint16(3), "TWO\nX")
	f.Add([]byte("a\r\nb"), uint16(1), uint16(0), "\n")
	f.Fuzz(func(t *testing.T, a []byte, at, n uint16, text string) {
		start := int(at) % (len(a) + 1)
		end := min(len(a), start+int(n)%8)
		hunks := []textedit.Change{{Start: start, End: end, New: text}}
		b, err := textedit.Splice(a, hunks)
		if err != nil {
			t.Fatal(err)
		}
		ai, bi := lineindex.New(a), lineindex.New(b)
		edits := editsFromHunks(ai, bi, hunks)
		if got, _ := textedit.Splice(a, hunksOf(ai, bi, edits)); !bytes.Equal(got, b) {
			t.Fatalf("line edits give %q, want %q", got, b)
		}
	})
}

// FuzzDecode feeds arbitrary JSON to every tool's decoder: it must never
// panic, and a rejection is always a CodeInvalid error.
func FuzzDecode(f *testing.F) {
	f.Add("edit", `{"filePath":"a","oldString":"x","newString":"y"}`)
	f.Add("replace_in_file", `{"filePath":"a","replacements":[{"type":"lines","startLine":1}]}`)
	f.Add("edit_lines", `{"command":"insert","path":"a","insert_line":null}`)
	f.Add("multi_edit", `{"description":"d","edits":[{}],"atomic":"yes"}`)
	f.Add("file_read", `[1,2]`)
	f.Fuzz(func(t *testing.T, tool, args string) {
		tl := Lookup(tool)
		if tl == nil {
			return
		}
		var req map[string]any
		err := decodeStrict(tool, json.RawMessage(args), tl.InputSchema(), &req)
		if err != nil && CodeOf(err) != CodeInvalid {
			t.Fatalf("decode error with code %d: %v", CodeOf(err), err)
		}
	})
}

func TestExpandTemplate(t *testing.T) {
	cases := []struct{ pattern, src, tmpl, want string }{
		{`(a)(b)`, "ab", "$2$1", "ba"},
		{`(a)`, "a", "$1x", "ax"},
		{`(a)`, "a", "$2", "$2"},
		{`(a)`, "a", "$$1", "$1"},
		{`a`, "a", "[$&]", "[a]"},
		{`(?P<n>a)`, "a", "$<n>$<m>", "a$<m>"},
		{`(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)`, "abcdefghijk", "$11$10", "kj"},
		{`(a)`, "a", "$10", "a0"},
		{`a`, "a", "$", "$"},
	}
	for _, c := range cases {
		re := mustCompile(t, c.pattern)
		m := re.FindSubmatchIndex([]byte(c.src))
		if got := expandTemplate(re, c.tmpl, []byte(c.src), m); got != c.want {
			t.Errorf("expand(%q, %q) = %q, want %q", c.pattern, c.tmpl, got, c.want)
		}
	}
}

// FuzzEditContentLineEndings checks the edit path's line endings: a change
// to whole lines of a CRLF file, sent with LF breaks (as models write), or
// sent with CRLF to the LF version of the file, lands as the exact edit of
// the file in its own line endings: every line break the edit writes takes
// the file's form.
func FuzzEditContentLineEndings(f *testing.F) {
	f.Add("a\nb\nc\n", 1, 1, "x")
	f.Add("func f() {\n\treturn 1\n}\n", 1, 2, "\treturn 2\n\tdone()")
	f.Fuzz(func(t *testing.T, content string, from, n int, repl string) {
		if strings.ContainsAny(content+repl, "\r\x00") || !strings.HasSuffix(content, "\n") {
			return
		}
		lines := strings.SplitAfter(content, "\n")
		lines = lines[:len(lines)-1]
		if len(lines) == 0 {
			return
		}
		from = int(uint(from) % uint(len(lines)))
		to := from + 1 + int(uint(n)%3)
		if to > len(lines) {
			return
		}
		old := strings.Join(lines[from:to], "")
		nw := repl + "\n"
		if strings.Count(content, old) != 1 || old == nw || strings.TrimSpace(old) == "" {
			return
		}
		crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
		want := strings.Replace(content, old, nw, 1)
		for _, c := range []struct{ file, old, new, want string }{
			{crlf(content), old, nw, crlf(want)},
			{content, crlf(old), crlf(nw), want},
		} {
			got, _, err := EditContent([]byte(c.file), c.old, c.new, false, matcher.Options{NewText: c.new})
			if err != nil {
				continue
			}
			if string(got) != c.want {
				t.Fatalf("%q: %q -> %q gave\n%q\nwant\n%q", c.file, c.old, c.new, got, c.want)
			}
		}
	})
}
