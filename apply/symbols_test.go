package apply_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/apply/outline"
	"github.com/graftdev/graft/apply/syntax"
)

const goSrc = `package x

// A does a.
func A() int {
	return 1
}

func B() {}

func init() {}

func init() { println() }

type T struct{}

// M is T's.
func (t *T) M() {
	println("m")
}
`

const pySrc = `import os


# The helper.
def helper():
    return 1


class C:
    @property
    def v(self):
        return 1

    @v.setter
    def v(self, x):
        pass

    def last(self):
        return 2


def tail():
    pass
`

const jsonSrc = `{
  "name": "app",
  "dependencies": {
    "react": "^17.0.0",
    "lodash.debounce": "^4.0.8"
  },
  "files": ["a", "b"]
}
`

type symbolCase struct {
	name, file, src string
	args            map[string]any
	want            string     // the file after the call
	code            apply.Code // or the refusal
	count           int        // CodeAmbiguous's count
}

var symbolCases = []symbolCase{
	{name: "go replace", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "B", "content": "func B() { println(2) }"},
		want: strings.Replace(goSrc, "func B() {}", "func B() { println(2) }", 1)},
	{name: "go replace lost tabs, no final newline", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "A", "content": "func A() int {\n    return 2\n}"},
		want: strings.Replace(goSrc, "\treturn 1", "\treturn 2", 1)},
	{name: "go replace indented content", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "(*T).M", "content": "    func (t *T) M() {\n        println(\"n\")\n    }\n"},
		want: strings.Replace(goSrc, `println("m")`, `println("n")`, 1)},
	{name: "go replace with comment replaces comment", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "T.M", "content": "// M is new.\nfunc (t *T) M() {\n\tprintln(\"m\")\n}\n"},
		want: strings.Replace(goSrc, "// M is T's.", "// M is new.", 1)},
	{name: "go insert after", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "A", "action": "insert_after", "content": "func A2() {}"},
		want: strings.Replace(goSrc, "\treturn 1\n}\n", "\treturn 1\n}\n\nfunc A2() {}\n", 1)},
	{name: "go insert before goes above the comment", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "A", "action": "insert_before", "content": "func Z() {}\n"},
		want: strings.Replace(goSrc, "// A does a.", "func Z() {}\n\n// A does a.", 1)},
	{name: "go delete with comment", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "A", "action": "delete"},
		want: strings.Replace(goSrc, "// A does a.\nfunc A() int {\n\treturn 1\n}\n\n", "", 1)},
	{name: "go delete last", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "T.M", "action": "delete"},
		want: strings.TrimSuffix(goSrc, "\n// M is T's.\nfunc (t *T) M() {\n\tprintln(\"m\")\n}\n")},
	{name: "go ambiguous init", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "init", "action": "delete"}, code: apply.CodeAmbiguous, count: 2},
	{name: "go init picked by line", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "init", "action": "delete", "line": 12},
		want: strings.Replace(goSrc, "func init() {}\n\nfunc init() { println() }\n", "func init() {}\n", 1)},
	{name: "go absent", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "Nope", "content": "func Nope() {}"}, code: apply.CodeTextNotFound},
	{name: "go method by its own name, content a function: absent", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "M", "content": "func M() {}"}, code: apply.CodeTextNotFound},
	{name: "go method by its own name", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "M", "content": "func (t *T) M() {\n\tprintln(\"n\")\n}"},
		want: strings.Replace(goSrc, `println("m")`, `println("n")`, 1)},
	{name: "go unknown action", file: "x.go", src: goSrc,
		args: map[string]any{"symbol": "A", "action": "rename"}, code: apply.CodeInvalid},

	{name: "py replace method", file: "m.py", src: pySrc,
		args: map[string]any{"symbol": "C.last", "content": "def last(self):\n    return 3\n"},
		want: strings.Replace(pySrc, "return 2", "return 3", 1)},
	{name: "py property and setter ambiguous", file: "m.py", src: pySrc,
		args: map[string]any{"symbol": "C.v", "content": "x"}, code: apply.CodeAmbiguous, count: 2},
	{name: "py setter by line", file: "m.py", src: pySrc,
		args: map[string]any{"symbol": "C.v", "line": 16, "content": "@v.setter\ndef v(self, x):\n    self.x = x"},
		want: strings.Replace(pySrc, "        pass\n\n    def last", "        self.x = x\n\n    def last", 1)},
	{name: "py insert after top-level keeps two blank lines", file: "m.py", src: pySrc,
		args: map[string]any{"symbol": "helper", "action": "insert_after", "content": "def helper2():\n    return 2\n"},
		want: strings.Replace(pySrc, "    return 1\n\n\nclass", "    return 1\n\n\ndef helper2():\n    return 2\n\n\nclass", 1)},
	{name: "py insert after method", file: "m.py", src: pySrc,
		args: map[string]any{"symbol": "C.last", "action": "insert_after", "content": "def more(self):\n    pass"},
		want: strings.Replace(pySrc, "        return 2\n", "        return 2\n\n    def more(self):\n        pass\n", 1)},
	{name: "py delete last method", file: "m.py", src: pySrc,
		args: map[string]any{"symbol": "C.last", "action": "delete"},
		want: strings.Replace(pySrc, "\n    def last(self):\n        return 2\n", "", 1)},
	{name: "py delete top-level with comment", file: "m.py", src: pySrc,
		args: map[string]any{"symbol": "helper", "action": "delete"},
		want: strings.Replace(pySrc, "# The helper.\ndef helper():\n    return 1\n\n\n", "", 1)},

	{name: "json replace value", file: "p.json", src: jsonSrc,
		args: map[string]any{"symbol": "dependencies.react", "content": `"^18.2.0"`},
		want: strings.Replace(jsonSrc, "^17.0.0", "^18.2.0", 1)},
	{name: "json replace whole pair", file: "p.json", src: jsonSrc,
		args: map[string]any{"symbol": "dependencies.react", "content": `"react": "^18.2.0",`},
		want: strings.Replace(jsonSrc, "^17.0.0", "^18.2.0", 1)},
	{name: "json quoted key insert after last", file: "p.json", src: jsonSrc,
		args: map[string]any{"symbol": `dependencies."lodash.debounce"`, "action": "insert_after", "content": `"zod": "^3.0.0"`},
		want: strings.Replace(jsonSrc, `"^4.0.8"`, "\"^4.0.8\",\n    \"zod\": \"^3.0.0\"", 1)},
	{name: "json delete last keeps commas valid", file: "p.json", src: jsonSrc,
		args: map[string]any{"symbol": `dependencies."lodash.debounce"`, "action": "delete"},
		want: strings.Replace(jsonSrc, "\"^17.0.0\",\n    \"lodash.debounce\": \"^4.0.8\"\n", "\"^17.0.0\"\n", 1)},
	{name: "json delete inline item", file: "p.json", src: jsonSrc,
		args: map[string]any{"symbol": "files[0]", "action": "delete"},
		want: strings.Replace(jsonSrc, `["a", "b"]`, `["b"]`, 1)},
	{name: "json insert inline item", file: "p.json", src: jsonSrc,
		args: map[string]any{"symbol": "files[1]", "action": "insert_after", "content": `"c"`},
		want: strings.Replace(jsonSrc, `["a", "b"]`, `["a", "b", "c"]`, 1)},
	{name: "json absent key", file: "p.json", src: jsonSrc,
		args: map[string]any{"symbol": "dependencies.vue", "content": `"1"`}, code: apply.CodeTextNotFound},
}

func TestEditSymbol(t *testing.T) {
	for _, c := range symbolCases {
		t.Run(c.name, func(t *testing.T) {
			dir := newRepo(t)
			writeFile(t, filepath.Join(dir, c.file), []byte(c.src))
			commitAll(t, dir)
			args := map[string]any{"path": c.file}
			for k, v := range c.args {
				args[k] = v
			}
			_, err := call(t, dir, "edit_symbol", args)
			got, _ := os.ReadFile(filepath.Join(dir, c.file))
			if lang := syntax.Detect(c.file, nil); !outline.Supported(lang) {
				// A build without cgo refuses what it cannot parse, clearly.
				if apply.CodeOf(err) != apply.CodeInvalid || !strings.Contains(err.Error(), "without cgo") {
					t.Fatalf("%s without tree-sitter: %v", lang, err)
				}
				return
			}
			if c.code != 0 {
				if apply.CodeOf(err) != c.code {
					t.Fatalf("error %v (code %d), want code %d", err, apply.CodeOf(err), c.code)
				}
				var e *apply.Error
				if c.count > 0 && (!errors.As(err, &e) || e.Count != c.count || len(e.Candidates) != c.count) {
					t.Errorf("refusal %+v, want count and candidates %d", e, c.count)
				}
				if string(got) != c.src {
					t.Errorf("a refused call changed the file")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("file:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// TestEditSymbolFinalNewline: content with or without a final line
// break, or with blank lines around it, gives the same file.
func TestEditSymbolFinalNewline(t *testing.T) {
	var results []string
	for _, content := range []string{"func B() { println(3) }", "func B() { println(3) }\n", "\nfunc B() { println(3) }\n\n"} {
		dir := newRepo(t)
		writeFile(t, filepath.Join(dir, "x.go"), []byte(goSrc))
		commitAll(t, dir)
		if _, err := call(t, dir, "edit_symbol", map[string]any{"path": "x.go", "symbol": "B", "content": content}); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "x.go"))
		results = append(results, string(b))
	}
	for _, r := range results[1:] {
		if r != results[0] {
			t.Errorf("results differ:\n%s\n---\n%s", results[0], r)
		}
	}
}

func TestFileOutlineCached(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "x.go"), []byte(goSrc))
	commitAll(t, dir)
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	first, err := e.Outline("x.go")
	if err != nil {
		t.Fatal(err)
	}
	again, err := e.Outline("x.go")
	if err != nil {
		t.Fatal(err)
	}
	if first != again {
		t.Error("the second outline of unchanged content was parsed again")
	}
	writeFile(t, filepath.Join(dir, "x.go"), []byte(goSrc+"\nfunc New() {}\n"))
	changed, err := e.Outline("x.go")
	if err != nil {
		t.Fatal(err)
	}
	if changed == first || len(changed.All()) != len(first.All())+1 {
		t.Errorf("changed content served from the cache")
	}
}

func TestEditSymbolUndo(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "x.go"), []byte(goSrc))
	commitAll(t, dir)
	if _, err := call(t, dir, "edit_symbol", map[string]any{"path": "x.go", "symbol": "A", "action": "delete"}); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, dir, "undo", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "x.go")); string(b) != goSrc {
		t.Errorf("undo left:\n%s", b)
	}
}

func TestMultiEditSymbols(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "x.go"), []byte(goSrc))
	writeFile(t, filepath.Join(dir, "p.json"), []byte(jsonSrc))
	commitAll(t, dir)
	_, err := call(t, dir, "multi_edit", map[string]any{"description": "symbols", "edits": []map[string]any{
		{"file_path": "x.go", "symbol": "A", "action": "delete"},
		{"file_path": "x.go", "symbol": "B", "content": "func B() { A2() }"},
		{"file_path": "x.go", "old_string": "type T struct{}", "new_string": "type T struct{ n int }"},
		{"file_path": "p.json", "symbol": "name", "content": `"app2"`},
	}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "x.go"))
	want := strings.NewReplacer("// A does a.\nfunc A() int {\n\treturn 1\n}\n\n", "", "func B() {}", "func B() { A2() }",
		"type T struct{}", "type T struct{ n int }").Replace(goSrc)
	if string(b) != want {
		t.Errorf("x.go:\n%s\nwant:\n%s", b, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "p.json")); !strings.Contains(string(b), `"app2"`) {
		t.Errorf("p.json:\n%s", b)
	}
	for _, bad := range []map[string]any{
		{"file_path": "x.go", "symbol": "A", "old_string": "x", "new_string": "y"},
		{"file_path": "x.go", "old_string": "x"},
		{"file_path": "x.go", "old_string": "B", "new_string": "C", "action": "delete"},
	} {
		_, err := call(t, dir, "multi_edit", map[string]any{"description": "bad", "edits": []map[string]any{bad}})
		if apply.CodeOf(err) != apply.CodeInvalid {
			t.Errorf("%v: %v, want an invalid request", bad, err)
		}
	}
}

func TestEditSymbolKeepsDecorators(t *testing.T) {
	src := "class C:\n    @property\n    @cached(\n        1,\n    )\n    def v(self):\n        return 1\n"
	for _, c := range []struct{ content, want string }{
		{"def v(self):\n    return 2", "class C:\n    @property\n    @cached(\n        1,\n    )\n    def v(self):\n        return 2\n"},
		{"@property\ndef v(self):\n    return 2", "class C:\n    @property\n    def v(self):\n        return 2\n"},
	} {
		out, err := apply.EditSymbolText("m.py", []byte(src), "C.v", "replace", &c.content, 0)
		if !outline.Supported("python") {
			return
		}
		if err != nil || string(out) != c.want {
			t.Errorf("content %q:\n%s\nwant:\n%s (%v)", c.content, out, c.want, err)
		}
	}
	// C's return type on its own line is no decorator.
	csrc := "static int\nadd(int a)\n{\n\treturn a;\n}\n"
	content := "static int\nadd(int a)\n{\n\treturn a + 1;\n}\n"
	out, err := apply.EditSymbolText("a.c", []byte(csrc), "add", "replace", &content, 0)
	if outline.Supported("c") && (err != nil || string(out) != content) {
		t.Errorf("C:\n%s (%v)", out, err)
	}
}

// TestEditSymbolLanguages covers the grammars beyond Go, Python and JSON
// through EditSymbolText (no repository).
func TestEditSymbolLanguages(t *testing.T) {
	type tc struct {
		file, src, symbol, action, content string
		line                               int
		want                               string
		code                               apply.Code
	}
	rs := "struct P;\n\nimpl P {\n    fn new() -> Self { P }\n}\n\nimpl P {\n    fn new() -> Self { P }\n}\n"
	java := "class A {\n    void f() {}\n\n    void f(int x) {}\n}\n"
	yaml := "name: ci\njobs:\n  test:\n    steps:\n      - run: a\n      - run: b\n"
	toml := "[package]\nname = \"x\"\n\n[deps]\na = \"1\"\n"
	for _, c := range []tc{
		{file: "p.rs", src: rs, symbol: "P.new", content: "fn new() -> Self { P }", code: apply.CodeAmbiguous},
		{file: "p.rs", src: rs, symbol: "P.new", action: "delete", line: 8, want: "struct P;\n\nimpl P {\n    fn new() -> Self { P }\n}\n\nimpl P {\n}\n"},
		{file: "A.java", src: java, symbol: "A.f", content: "void f() {}", code: apply.CodeAmbiguous},
		{file: "A.java", src: java, symbol: "A.f", line: 4, content: "void f(int x) { g(); }",
			want: "class A {\n    void f() {}\n\n    void f(int x) { g(); }\n}\n"},
		{file: "A.java", src: java, symbol: "A.f", line: 2, action: "insert_after", content: "void h() {}",
			want: "class A {\n    void f() {}\n\n    void h() {}\n\n    void f(int x) {}\n}\n"},
		{file: "a.rb", src: "class A\n  def m\n    1\n  end\nend\n", symbol: "A#m", content: "def m\n  2\nend",
			want: "class A\n  def m\n    2\n  end\nend\n"},
		{file: "a.sh", src: "f() {\n  echo a\n}\n\ng() {\n  echo b\n}\n", symbol: "f", action: "delete", want: "g() {\n  echo b\n}\n"},
		{file: "a.c", src: "int f(void)\n{\n\treturn 1;\n}\n", symbol: "f", action: "insert_before", content: "static int g(void);",
			want: "static int g(void);\n\nint f(void)\n{\n\treturn 1;\n}\n"},
		{file: "ci.yaml", src: yaml, symbol: "jobs.test.steps[1]", action: "insert_after", content: "- run: c",
			want: "name: ci\njobs:\n  test:\n    steps:\n      - run: a\n      - run: b\n      - run: c\n"},
		{file: "ci.yaml", src: yaml, symbol: "jobs.test.steps[0]", action: "delete",
			want: "name: ci\njobs:\n  test:\n    steps:\n      - run: b\n"},
		{file: "ci.yaml", src: yaml, symbol: "name", content: "build", want: strings.Replace(yaml, "name: ci", "name: build", 1)},
		{file: "ci.yaml", src: yaml, symbol: "jobs.test.steps", content: "- run: x\n- run: y",
			want: "name: ci\njobs:\n  test:\n    steps:\n      - run: x\n      - run: y\n"},
		{file: "ci.yaml", src: yaml, symbol: "jobs.test.steps[0].run", action: "delete", code: apply.CodeInvalid},
		{file: "c.toml", src: toml, symbol: "deps", content: "a = \"2\"\nb = \"3\"",
			want: "[package]\nname = \"x\"\n\n[deps]\na = \"2\"\nb = \"3\"\n"},
		{file: "c.toml", src: toml, symbol: "package.name", content: "\"y\"", want: strings.Replace(toml, "\"x\"", "\"y\"", 1)},
		{file: "c.toml", src: toml, symbol: "package", action: "delete", want: "[deps]\na = \"1\"\n"},
		{file: "c.toml", src: toml, symbol: "deps.b", content: "1", code: apply.CodeTextNotFound},
	} {
		lang := syntax.Detect(c.file, nil)
		if !outline.Supported(lang) {
			continue
		}
		var content *string
		if c.action != "delete" {
			content = &c.content
		}
		out, err := apply.EditSymbolText(c.file, []byte(c.src), c.symbol, c.action, content, c.line)
		switch {
		case c.code != 0 && apply.CodeOf(err) != c.code:
			t.Errorf("%s %s %s: %v (code %d), want code %d", c.file, c.action, c.symbol, err, apply.CodeOf(err), c.code)
		case c.code == 0 && err != nil:
			t.Errorf("%s %s %s: %v", c.file, c.action, c.symbol, err)
		case c.code == 0 && string(out) != c.want:
			t.Errorf("%s %s %s:\n%s\nwant:\n%s", c.file, c.action, c.symbol, out, c.want)
		}
	}
}

func TestEditSymbolKeepsExport(t *testing.T) {
	if !outline.Supported("typescript") {
		t.Skip("no tree-sitter")
	}
	src := "export default function f(a: number) {\n  return a;\n}\n\nexport const g = () => 1;\n"
	for _, c := range []struct{ symbol, content, want string }{
		{"f", "function f(a: number) {\n  return a + 1;\n}", "export default function f(a: number) {\n  return a + 1;\n}\n\nexport const g = () => 1;\n"},
		{"f", "export function f() {}", "export function f() {}\n\nexport const g = () => 1;\n"},
		{"g", "const g = () => 2;", "export default function f(a: number) {\n  return a;\n}\n\nexport const g = () => 2;\n"},
		{"g", "let g = () => 2;", "export default function f(a: number) {\n  return a;\n}\n\nlet g = () => 2;\n"},
	} {
		out, err := apply.EditSymbolText("m.ts", []byte(src), c.symbol, "replace", &c.content, 0)
		if err != nil || string(out) != c.want {
			t.Errorf("%s %q:\n%s\nwant:\n%s (%v)", c.symbol, c.content, out, c.want, err)
		}
	}
}

// Deleting the last declaration of a file without a final newline removes
// exactly its lines (and the blank line that separated it), as edit_lines
// deleting the same lines does: the line before keeps its own ending. The
// two paths once disagreed ("a\nb\n" against "a\nb").
func TestSymbolDeleteAgreesWithLineDelete(t *testing.T) {
	const src = "package p\n\nfunc A() {}\n\nfunc B() {}"
	const want = "package p\n\nfunc A() {}\n"
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"edit_symbol", map[string]any{"path": "a.go", "symbol": "B", "action": "delete"}},
		{"edit_lines", map[string]any{"path": "a.go", "command": "delete", "start_line": 4, "end_line": 5}},
	} {
		dir := newRepo(t)
		writeFile(t, filepath.Join(dir, "a.go"), []byte(src))
		commitAll(t, dir)
		if _, err := call(t, dir, tc.tool, tc.args); err != nil {
			t.Fatalf("%s: %v", tc.tool, err)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "a.go")); string(got) != want {
			t.Errorf("%s: file is %q, want %q", tc.tool, got, want)
		}
	}
}
