package outline

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden outlines in testdata")

// golden renders what the tests compare: the outline as a model sees it,
// then each symbol's path, span, comment block and sharing.
func golden(o *Outline) string {
	var b strings.Builder
	b.WriteString(o.Format(0))
	b.WriteString("--\n")
	for _, s := range o.All() {
		fmt.Fprintf(&b, "%s %s %d-%d", s.Kind, s.Path(), s.Line, s.EndLine)
		if s.CommentLine > 0 {
			fmt.Fprintf(&b, " comment %d", s.CommentLine)
		}
		if s.Shared {
			b.WriteString(" shared")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/sample.*")
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".outline") {
			continue
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			o, err := Parse(f, src)
			if err != nil {
				t.Skipf("%v", err) // no tree-sitter in this build
			}
			got := golden(o)
			if *update {
				if err := os.WriteFile(f+".outline", []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(f + ".outline")
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("outline of %s:\n%s\nwant:\n%s", f, got, want)
			}
		})
	}
	if n < 12 {
		t.Fatalf("only %d samples", n)
	}
}

func TestGoWithoutTreeSitter(t *testing.T) {
	// Go is read by go/parser in every build.
	o, err := Parse("x.go", []byte("package x\n\nfunc (r *R[K, V]) Get() {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := golden(o); got != "3 method R.Get\n--\nmethod R.Get 3-3\n" {
		t.Errorf("got %q", got)
	}
}

func TestSplitJoinPath(t *testing.T) {
	for _, c := range []struct {
		in   string
		segs []string
	}{
		{"a", []string{"a"}},
		{"Type.Method", []string{"Type", "Method"}},
		{`dependencies."lodash.debounce"`, []string{"dependencies", "lodash.debounce"}},
		{"jobs.test.steps[2]", []string{"jobs", "test", "steps", "[2]"}},
		{"steps[2].run", []string{"steps", "[2]", "run"}},
		{`a."q\"x"`, []string{"a", `q"x`}},
		{"[0][1]", []string{"[0]", "[1]"}},
	} {
		segs, err := SplitPath(c.in)
		if err != nil || !reflect.DeepEqual(segs, c.segs) {
			t.Errorf("SplitPath(%q) = %q, %v; want %q", c.in, segs, err, c.segs)
			continue
		}
		if back := JoinPath(segs); back != c.in {
			t.Errorf("JoinPath(%q) = %q, want %q", segs, back, c.in)
		}
	}
	for _, bad := range []string{"a..b", "a.", ".a", "a[x]", "a[1", `"a`} {
		if segs, err := SplitPath(bad); err == nil {
			t.Errorf("SplitPath(%q) = %q, want an error", bad, segs)
		}
	}
}

func TestFindNormalisesSourceNames(t *testing.T) {
	src := []byte("package x\n\ntype T struct{}\n\nfunc (t *T) M() {}\n\nfunc F() {}\n")
	o, err := Parse("x.go", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"T.M", "(*T).M", "*T.M", "T.M()", "T::M", "T#M"} {
		found, err := o.Find(name)
		if err != nil || len(found) != 1 || found[0].Path() != "T.M" {
			t.Errorf("Find(%q) = %v, %v", name, found, err)
		}
	}
	if found, _ := o.Find("M"); len(found) != 0 {
		t.Errorf("Find(M) found %d: a bare method name is not its path", len(found))
	}
	near := o.Near("t.m", 3)
	if len(near) == 0 || near[0].Path() != "T.M" {
		t.Errorf("Near(t.m) = %v", near)
	}
	near = o.Near("M", 3)
	if len(near) == 0 || near[0].Path() != "T.M" {
		t.Errorf("Near(M) = %v", near)
	}
}

func TestUnknownLanguage(t *testing.T) {
	if _, err := Parse("notes.txt", []byte("hello\n")); err == nil {
		t.Fatal("outline of a text file")
	}
}

// TestPureJSON: the scanner that builds without cgo use outlines JSON as
// tree-sitter does.
func TestPureJSON(t *testing.T) {
	for _, src := range []string{
		"", "{}", "[]", "{\"a\": 1}\n",
		"{\n  // a comment\n  \"name\": \"x\",\n  \"deps\": {\"a.b\": \"1\", \"c\": [1, {\"d\": null}]},\n  \"list\": [\n    true,\n    false\n  ]\n}\n",
	} {
		o, err := parseJSONPure([]byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		o.Language = "json"
		o.finish()
		if !Supported("yaml") {
			continue // no tree-sitter to compare with
		}
		ts, err := ParseLanguage("json", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := golden(o), golden(ts); got != want {
			t.Errorf("%q:\npure:\n%s\ntree-sitter:\n%s", src, got, want)
		}
	}
	if o, err := parseJSONPure([]byte("{\"a\": [1, 2,],}")); err != nil || len(o.Symbols) != 1 || len(o.Symbols[0].Children) != 2 {
		t.Errorf("trailing commas: %v", err)
	}
	for _, bad := range []string{"{", "{\"a\" 1}", "[1 2]", "{\"a\": tru}", "\"x\n\""} {
		if _, err := parseJSONPure([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
