package symbol

import (
	"strings"
	"testing"

	"github.com/graftdev/graft/apply/lineedit"
	"github.com/graftdev/graft/apply/outline"
	"github.com/graftdev/graft/internal/textedit"
)

// run applies one symbol edit to src (the file name tells the language)
// and returns the file it gives, or the error.
func run(t *testing.T, file, src, name, action, content string) (string, error) {
	t.Helper()
	o, err := Parse(file, Language(file, []byte(src)), []byte(src), "")
	if err != nil {
		return "", err
	}
	ix := lineedit.NewFile([]byte(src))
	s, err := Resolve(o, ix, name, 0, "")
	if err != nil {
		return "", err
	}
	var c *string
	if action != "delete" {
		c = &content
	}
	cs, err := Changes(o, ix, file, s, Edit{Symbol: name, Action: action, Content: c}, "")
	if err != nil {
		return "", err
	}
	out, err := textedit.Splice([]byte(src), cs)
	return string(out), err
}

func needTreeSitter(t *testing.T, lang string) {
	if !outline.Supported(lang) {
		t.Skipf("no %s outline in this build", lang)
	}
}

const storeGo = `package store

import (
	"errors"
	"sync"
)

// ErrClosed is returned by every call after Close.
var ErrClosed = errors.New("store: closed")
var errShort = errors.New("store: short read")

// Store keeps records in memory.
type Store struct {
	mu   sync.Mutex
	recs map[string][]byte
}

const defaultSize = 64
const maxSize = 1 << 20
`

const usersTS = `import { Injectable } from "@nestjs/common";
import type { User, UserRepository } from "./types";

/**
 * Loads users, keeping the ones it has seen.
 */
@Injectable()
export class UserService {
  private readonly cache = new Map<string, User>();
  private hits = 0;

  constructor(private readonly repo: UserRepository) {
    this.cache.clear();
  }

  /** Finds one user by id. */
  async find(id: string): Promise<User | undefined> {
    const hit = this.cache.get(id);
    if (hit) {
      this.hits++;
      return hit;
    }
    return this.repo.findOne(id);
  }
}

// Paging limits.
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;
`

// An insertion is separated from the declaration beside it as the file
// separates declarations of that shape: a declaration of several lines
// does not sit flush against a run of one-line declarations because
// those sit flush against each other (issue 31, class 4).
func TestInsertSeparation(t *testing.T) {
	const goFunc = "// closed reports whether err is ErrClosed.\nfunc closed(err error) bool {\n\treturn errors.Is(err, ErrClosed)\n}\n"
	const tsFunc = "/** Clamps a page size. */\nexport function clamp(n: number): number {\n  return Math.min(Math.max(n, 1), MAX_LIMIT);\n}\n"
	const tsMethod = "/** How many finds the cache answered. */\nget cacheHits(): number {\n  return this.hits;\n}\n"
	cases := []struct {
		name, file, src, symbol, action, content, old, new string
	}{
		{"go func before the first of a run of vars", "store.go", storeGo, "ErrClosed", "insert_before", goFunc,
			"// ErrClosed is", goFunc + "\n// ErrClosed is"},
		{"go func before the second of a run of vars", "store.go", storeGo, "errShort", "insert_before", goFunc,
			"var errShort", goFunc + "\nvar errShort"},
		{"go func after the last of a run of consts", "store.go", storeGo, "maxSize", "insert_after", goFunc,
			"const maxSize = 1 << 20\n", "const maxSize = 1 << 20\n\n" + goFunc},
		// The blank lines between the symbol and its next neighbour
		// (none here) stay between the new lines and that neighbour.
		{"go func after the first of a run of vars", "store.go", storeGo, "ErrClosed", "insert_after", goFunc,
			"var errShort", "\n" + goFunc + "var errShort"},
		{"go one-line var beside one-line vars sits flush", "store.go", storeGo, "errShort", "insert_before", "var errLong = errors.New(\"store: long\")",
			"var errShort", "var errLong = errors.New(\"store: long\")\nvar errShort"},
		{"go one-line const after a struct", "store.go", storeGo, "Store", "insert_after", "const minSize = 8",
			"}\n\nconst defaultSize", "}\n\nconst minSize = 8\n\nconst defaultSize"},
		{"ts function before the first of a run of consts", "users.ts", usersTS, "DEFAULT_LIMIT", "insert_before", tsFunc,
			"// Paging limits.", tsFunc + "\n// Paging limits."},
		{"ts function before the second of a run of consts", "users.ts", usersTS, "MAX_LIMIT", "insert_before", tsFunc,
			"export const MAX_LIMIT", tsFunc + "\nexport const MAX_LIMIT"},
		{"ts function after the last const", "users.ts", usersTS, "MAX_LIMIT", "insert_after", tsFunc,
			"export const MAX_LIMIT = 500;\n", "export const MAX_LIMIT = 500;\n\n" + tsFunc},
		{"ts one-line const beside consts sits flush", "users.ts", usersTS, "MAX_LIMIT", "insert_before", "export const MIN_LIMIT = 1;",
			"export const MAX_LIMIT", "export const MIN_LIMIT = 1;\nexport const MAX_LIMIT"},
		{"ts method before the first field", "users.ts", usersTS, "UserService.cache", "insert_before", tsMethod,
			"  private readonly cache", indentBy(tsMethod, "  ") + "\n  private readonly cache"},
		{"ts field after a field sits flush", "users.ts", usersTS, "UserService.hits", "insert_after", "private misses = 0;",
			"  private hits = 0;\n", "  private hits = 0;\n  private misses = 0;\n"},
		{"ts method after a method", "users.ts", usersTS, "UserService.find", "insert_after", tsMethod,
			"    return this.repo.findOne(id);\n  }\n", "    return this.repo.findOne(id);\n  }\n\n" + indentBy(tsMethod, "  ")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.file != "store.go" {
				needTreeSitter(t, "typescript")
			}
			if !strings.Contains(c.src, c.old) {
				t.Fatalf("%q is not in the file", c.old)
			}
			want := strings.Replace(c.src, c.old, c.new, 1)
			got, err := run(t, c.file, c.src, c.symbol, c.action, c.content)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func indentBy(text, ind string) string {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = ind + l
		}
	}
	return strings.Join(lines, "")
}

const cliJS = `#!/usr/bin/env node
'use strict';

const fs = require('fs');
const path = require('path');

function usage() {
  console.error('usage: tidy FILE...');
  process.exit(2);
}

if (require.main === module) {
  var args = process.argv.slice(2);
  if (args.length === 0) usage();
  // The files, resolved once.
  var files = args.map(function (a) {
    return path.resolve(a);
  });
  let count = 0;
  const seen = new Set();
  for (var i = 0; i < files.length; i++) {
    var text = fs.readFileSync(files[i], 'utf8');
    count++;
  }
  function report() {
    var total = count;
    console.log(total);
  }
  report();
} else {
  module.exports = { usage };
}
`

// A var declared in a block at the top of a script (an if, an else, a
// loop, a try) is the script's: it is listed and found by name. let and
// const stay in their block, and a var inside a function is the
// function's.
func TestScriptVarInBlock(t *testing.T) {
	needTreeSitter(t, "javascript")
	for _, file := range []string{"tidy", "tidy.js", "tidy.ts"} {
		t.Run(file, func(t *testing.T) {
			o, err := outline.Parse(file, []byte(cliJS))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range o.All() {
				names = append(names, s.Path())
			}
			got := strings.Join(names, " ")
			if want := "fs path usage args files text"; got != want {
				t.Fatalf("outline lists %q, want %q:\n%s", got, want, o.Format(0))
			}
			out, err := run(t, file, cliJS, "files", "replace", "var files = args.map((a) => path.resolve(a));")
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(cliJS, "  var files = args.map(function (a) {\n    return path.resolve(a);\n  });\n", "  var files = args.map((a) => path.resolve(a));\n", 1)
			if out != want {
				t.Errorf("got:\n%s", out)
			}
			if _, err := run(t, file, cliJS, "seen", "delete", ""); err == nil {
				t.Errorf("a const in a block was found by name")
			}
		})
	}
}

// docGo's text is indented with spaces only inside a raw string: its code
// is gofmt's, with tabs.
const docGo = "package sa\n\nvar Doc = `Reports a nil dereference:\n\n    func fn(x *int) {\n        fmt.Println(*x)\n        if x != nil {\n            foo(*x)\n        }\n    }\n\n    func g() {\n        h()\n    }\n`\n\nvar Analyzer = newAnalyzer(Doc)\n"

// A Go declaration inserted beside a one-line one keeps its tabs: Go is
// indented with tabs (gofmt), whatever lines inside a raw string are
// indented with.
func TestInsertGoKeepsTabs(t *testing.T) {
	const fn = "func run(pass *Pass) error {\n\tif pass == nil {\n\t\treturn nil\n\t}\n\treturn check(pass)\n}\n"
	for _, c := range []struct{ action, want string }{
		{"insert_after", strings.Replace(docGo, "newAnalyzer(Doc)\n", "newAnalyzer(Doc)\n\n"+fn, 1)},
		{"insert_before", strings.Replace(docGo, "var Analyzer", fn+"\nvar Analyzer", 1)},
	} {
		got, err := run(t, "sa.go", docGo, "Analyzer", c.action, fn)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s: got:\n%s", c.action, got)
		}
		// Sent with four spaces for a tab, it gets its tabs back.
		got, err = run(t, "sa.go", docGo, "Analyzer", c.action, strings.ReplaceAll(fn, "\t", "    "))
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s with spaces: got:\n%s", c.action, got)
		}
	}
}

const requiresJS = `const path = require('path')
const getRevs = require('./revs.js')
const fs = require('fs/promises')

const clone = (repo, target) => {
  return getRevs(repo).then(() => fs.mkdir(path.dirname(target)))
}

class Cloner {
  depth = 1

  run() {
    return clone(this.repo, this.target)
  }
}
`

// A delete keeps the larger of the two separations around the
// declaration: the last of a run of flush declarations goes without
// joining the run to what followed it; the first declaration of a scope
// leaves no blank line under the scope's opening line.
func TestDeleteKeepsTheLargerSeparation(t *testing.T) {
	needTreeSitter(t, "javascript")
	for _, c := range []struct{ symbol, old, new string }{
		{"fs", "const fs = require('fs/promises')\n", ""},
		{"getRevs", "const getRevs = require('./revs.js')\n", ""},
		{"clone", "const clone = (repo, target) => {\n  return getRevs(repo).then(() => fs.mkdir(path.dirname(target)))\n}\n\n", ""},
		{"Cloner.depth", "  depth = 1\n\n", ""},
	} {
		got, err := run(t, "clone.js", requiresJS, c.symbol, "delete", "")
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Replace(requiresJS, c.old, c.new, 1); got != want {
			t.Errorf("delete %s: got:\n%s", c.symbol, got)
		}
	}
}

// Comment lines directly under a declaration are not its own: most are
// what follows's (a section banner) or the file's (a source map line).
// insert_after goes above them and delete leaves them where they were,
// under what stood above the declaration.
func TestTrailingCommentStays(t *testing.T) {
	needTreeSitter(t, "typescript")
	const src = "export class Driver {\n  connect(): void {\n    this.open();\n  }\n\n  normalize(t: string): string {\n    return t.toLowerCase();\n  }\n  // ----------------\n  // Protected Methods\n  // ----------------\n\n  protected open(): void {}\n}\n\nexport function make(): Driver {\n  return new Driver();\n}\n//# sourceMappingURL=driver.js.map\n"
	cases := []struct{ symbol, action, content, old, new string }{
		{"Driver.normalize", "insert_after", "close(): void {\n  this.open();\n}",
			"    return t.toLowerCase();\n  }\n", "    return t.toLowerCase();\n  }\n\n  close(): void {\n    this.open();\n  }\n"},
		{"Driver.normalize", "delete", "",
			"  }\n\n  normalize(t: string): string {\n    return t.toLowerCase();\n  }\n", "  }\n"},
		{"make", "insert_after", "export function drop(d: Driver): void {\n  d.connect();\n}",
			"  return new Driver();\n}\n", "  return new Driver();\n}\n\nexport function drop(d: Driver): void {\n  d.connect();\n}\n"},
		{"make", "delete", "", "}\n\nexport function make(): Driver {\n  return new Driver();\n}\n", "}\n"},
	}
	for _, c := range cases {
		got, err := run(t, "driver.ts", src, c.symbol, c.action, c.content)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Replace(src, c.old, c.new, 1); got != want {
			t.Errorf("%s %s: got:\n%s", c.action, c.symbol, got)
		}
	}
}

// A file without a final newline, and one with CRLF line endings: the
// new lines take the file's line endings, the last line keeps having no
// final newline, and a delete of the last declaration removes exactly
// its lines' bytes (the line before keeps its ending, as edit_lines does).
func TestInsertAtTheEdges(t *testing.T) {
	const goNoEOL = "package p\n\nfunc A() {\n\treturn\n}\n\nfunc B() {\n\treturn\n}"
	const tsCRLF = "export class K {\r\n  a = 1;\r\n  b = 2;\r\n\r\n  m(): number {\r\n    return this.a;\r\n  }\r\n}\r\n"
	cases := []struct{ file, src, symbol, action, content, want string }{
		{"p.go", goNoEOL, "B", "insert_after", "func C() {\n\treturn\n}\n", goNoEOL + "\n\nfunc C() {\n\treturn\n}"},
		{"p.go", goNoEOL, "B", "insert_before", "func C() {\n\treturn\n}", strings.Replace(goNoEOL, "func B", "func C() {\n\treturn\n}\n\nfunc B", 1)},
		{"p.go", goNoEOL, "B", "delete", "", "package p\n\nfunc A() {\n\treturn\n}\n"},
		{"p.go", goNoEOL, "B", "replace", "func B() {}\n", strings.Replace(goNoEOL, "func B() {\n\treturn\n}", "func B() {}", 1)},
		{"k.ts", tsCRLF, "K.b", "insert_after", "c = 3;", strings.Replace(tsCRLF, "b = 2;\r\n", "b = 2;\r\n  c = 3;\r\n", 1)},
		{"k.ts", tsCRLF, "K.a", "insert_before", "n(): number {\n  return 0;\n}",
			strings.Replace(tsCRLF, "  a = 1;", "  n(): number {\r\n    return 0;\r\n  }\r\n\r\n  a = 1;", 1)},
		{"k.ts", tsCRLF, "K.m", "insert_after", "n(): number {\n  return 0;\n}",
			strings.Replace(tsCRLF, "    return this.a;\r\n  }\r\n", "    return this.a;\r\n  }\r\n\r\n  n(): number {\r\n    return 0;\r\n  }\r\n", 1)},
		{"k.ts", tsCRLF, "K.b", "delete", "", strings.Replace(tsCRLF, "  b = 2;\r\n", "", 1)},
	}
	for _, c := range cases {
		if c.file == "k.ts" {
			needTreeSitter(t, "typescript")
		}
		got, err := run(t, c.file, c.src, c.symbol, c.action, c.content)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s %s %s: got %q\nwant %q", c.file, c.action, c.symbol, got, c.want)
		}
	}
}

// codeOf is the code of a refusal (0 for another error or none).
func codeOf(err error) textedit.Code {
	if e, ok := err.(*textedit.Error); ok {
		return e.Code
	}
	return 0
}

// A method named by its own name is the one nested declaration with that
// name, and the result says which; two such methods are ambiguous; a
// top-level declaration of the name wins; a config key keeps its scope.
func TestNameWithoutScope(t *testing.T) {
	src := "package p\n\ntype Shlex struct{}\n\nfunc (s *Shlex) PopSource() int {\n\treturn 1\n}\n\ntype A struct{}\n\nfunc (A) Size() int { return 1 }\n\ntype B struct{}\n\nfunc (B) Size() int { return 2 }\n"
	out, err := run(t, "p.go", src, "PopSource", "replace", "func (s *Shlex) PopSource() int {\n\treturn 2\n}\n")
	if err != nil || !strings.Contains(out, "return 2\n}\n\ntype A") {
		t.Fatalf("PopSource: %v\n%s", err, out)
	}
	o, _ := Parse("p.go", "go", []byte(src), "")
	ix := lineedit.NewFile([]byte(src))
	s, _ := Resolve(o, ix, "PopSource", 0, "")
	cs, err := Changes(o, ix, "p.go", s, Edit{Symbol: "PopSource", Action: "delete"}, "")
	if err != nil || cs[0].Location().Symbol != "Shlex.PopSource" {
		t.Errorf("the result does not name the declaration taken: %+v %v", cs, err)
	}
	if _, err := run(t, "p.go", src, "Size", "replace", "x"); codeOf(err) != textedit.CodeAmbiguous || !strings.Contains(err.Error(), "A.Size") || !strings.Contains(err.Error(), "B.Size") {
		t.Errorf("Size names two methods: want ambiguous listing both, got %v", err)
	}
	top := src + "\nfunc Size() int { return 3 }\n"
	if out, err := run(t, "p.go", top, "Size", "replace", "func Size() int { return 4 }"); err != nil || !strings.Contains(out, "return 4") || !strings.Contains(out, "return 1") {
		t.Errorf("a top-level Size is the one named: %v\n%s", err, out)
	}
	cfg := `{"a": {"version": 1}, "b": {"name": 2}}`
	if _, err := run(t, "x.json", cfg, "version", "replace", "3"); codeOf(err) != textedit.CodeTextNotFound {
		t.Errorf("a config key without its scope must not be found, got %v", err)
	}
}
