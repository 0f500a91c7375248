//go:build cgo

package syntax

/*
#include <stdlib.h>

// Declared by tree-sitter's runtime, which go-tree-sitter links in.
extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));

static void graft_syntax_libc_allocator(void) {
	ts_set_allocator(malloc, calloc, realloc, free);
}
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsjson "github.com/tree-sitter/tree-sitter-json/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	tstoml "github.com/tree-sitter-grammars/tree-sitter-toml/bindings/go"
	tsyaml "github.com/tree-sitter-grammars/tree-sitter-yaml/bindings/go"
)

// grammars maps a language name to its tree-sitter grammar.
var grammars = map[string]func() unsafe.Pointer{
	"go":         tsgo.Language,
	"python":     tspython.Language,
	"javascript": tsjs.Language,
	"typescript": tsts.LanguageTypescript,
	"tsx":        tsts.LanguageTSX,
	"rust":       tsrust.Language,
	"java":       tsjava.Language,
	"c":          tsc.Language,
	"cpp":        tscpp.Language,
	"ruby":       tsruby.Language,
	"bash":       tsbash.Language,
	"json":       tsjson.Language,
	"yaml":       tsyaml.Language,
	"toml":       tstoml.Language,
}

// tsCheckers holds one checker per grammar; a checker is stateless (each
// call makes and closes its own parser), so sharing them is safe. They are
// made at the first check rather than at start-up.
var tsCheckers = sync.OnceValue(func() map[string]*checker {
	m := make(map[string]*checker, len(grammars))
	for name, lang := range grammars {
		var extra func(*ts.Tree, []byte) []diag
		if name == "python" {
			extra = emptyBlocks
		}
		m[name] = newTreeSitterChecker(lang, extra)
	}
	return m
})

func treeSitterChecker(name string) *checker { return tsCheckers()[name] }

// useLibcAllocator points tree-sitter's allocations straight at libc.
// go-tree-sitter's default routes every malloc and free through Go callbacks
// (a cgo round trip each), which costs about a fifth of a parse. Both end in
// the same libc heap, so memory allocated before the switch is freed
// correctly after it. The setting is process-wide.
var useLibcAllocator = sync.OnceFunc(func() { C.graft_syntax_libc_allocator() })

// readChunk bounds what one read callback hands tree-sitter: go-tree-sitter
// copies every chunk it is given, so handing it the rest of the file at
// each read would make re-reads (error recovery, incremental parses) costly.
const readChunk = 64 << 10

// maxDiags bounds the errors collected from one tree.
const maxDiags = 10000

// newTreeSitterChecker makes the checker of a grammar; extra, where not
// nil, finds the errors of a language that its grammar parses without an
// ERROR node (see emptyBlocks).
func newTreeSitterChecker(lang func() unsafe.Pointer, extra func(*ts.Tree, []byte) []diag) *checker {
	c := &checker{name: "tree-sitter", window: true}
	// errorsOf is collect, with the language's extra errors in file order.
	errorsOf := func(t *ts.Tree, src []byte) []diag {
		d := collect(t, src)
		if extra != nil {
			if more := extra(t, src); len(more) > 0 {
				d = append(d, more...)
				slices.SortStableFunc(d, func(a, b diag) int { return a.start - b.start })
			}
		}
		return d
	}
	c.diagnose = func(src []byte) ([]diag, error) {
		p, err := newParser(lang)
		if err != nil {
			return nil, err
		}
		defer p.Close()
		t, err := parse(p, src, nil)
		if err != nil {
			return nil, err
		}
		defer t.Close()
		return errorsOf(t, src), nil
	}
	c.clean = func(src []byte) (bool, error) {
		p, err := newParser(lang)
		if err != nil {
			return false, err
		}
		defer p.Close()
		t, err := parse(p, src, nil)
		if err != nil {
			return false, err
		}
		defer t.Close()
		return !t.RootNode().HasError() && (extra == nil || len(extra(t, src)) == 0), nil
	}
	c.pairFn = func(before, after []byte, ch change) ([]diag, []diag, error) {
		p, err := newParser(lang)
		if err != nil {
			return nil, nil, err
		}
		defer p.Close()
		// After first: when it is clean, before is never parsed.
		t, err := parse(p, after, nil)
		if err != nil {
			return nil, nil, err
		}
		defer t.Close()
		ad := errorsOf(t, after)
		if len(ad) == 0 {
			return nil, nil, nil
		}
		// Reuse after's tree to parse before incrementally: tell it that the
		// changed span reverts to before's bytes.
		t.Edit(&ts.InputEdit{
			StartByte:      uint(ch.start),
			OldEndByte:     uint(ch.afterEnd),
			NewEndByte:     uint(ch.beforeEnd),
			StartPosition:  point(after, ch.start),
			OldEndPosition: point(after, ch.afterEnd),
			NewEndPosition: point(before, ch.beforeEnd),
		})
		bt, err := parse(p, before, t)
		if err != nil {
			return nil, nil, err
		}
		defer bt.Close()
		return errorsOf(bt, before), ad, nil
	}
	return c
}

func newParser(lang func() unsafe.Pointer) (*ts.Parser, error) {
	useLibcAllocator()
	p := ts.NewParser()
	if err := p.SetLanguage(ts.NewLanguage(lang())); err != nil {
		p.Close()
		return nil, fmt.Errorf("tree-sitter grammar: %w", err)
	}
	return p, nil
}

func parse(p *ts.Parser, src []byte, old *ts.Tree) (*ts.Tree, error) {
	t := p.ParseWithOptions(func(i int, _ ts.Point) []byte {
		if i >= len(src) {
			return nil
		}
		return src[i:min(i+readChunk, len(src))]
	}, old, nil)
	if t == nil {
		return nil, errors.New("tree-sitter returned no tree")
	}
	return t, nil
}

// point returns the tree-sitter position (0-based row, byte column) of off.
func point(src []byte, off int) ts.Point {
	row := bytes.Count(src[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1)
	return ts.Point{Row: uint(row), Column: uint(col)}
}

// collect walks the tree's erroneous parts only (subtrees without errors are
// skipped whole) and returns one diag per outermost ERROR node and per
// MISSING node, in file order.
func collect(t *ts.Tree, src []byte) []diag {
	root := t.RootNode()
	if !root.HasError() {
		return nil
	}
	var out []diag
	c := root.Walk()
	defer c.Close()
	for len(out) < maxDiags {
		n := c.Node()
		descend := false
		switch {
		case n.IsMissing():
			out = append(out, missingDiag(n))
		case n.IsError() && jsxAmpersand(n, src):
			// Not an error: see jsxAmpersand.
		case n.IsError():
			out = append(out, errorDiag(n, src))
		default:
			descend = n.HasError()
		}
		if descend && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return out
			}
		}
	}
	return out
}

// jsxAmpersand reports whether n is an ERROR that is JSX text starting
// with a lone "&" ("& Jerry" in <div>Tom & Jerry</div>): tree-sitter's
// JavaScript and TypeScript grammars read "&" in JSX text only as the
// start of a character reference ("&amp;"), while TypeScript, Babel and
// React take a lone "&" there as text, so the project's own code would be
// refused. Only plain text counts: no tag, brace or expression in it.
func jsxAmpersand(n *ts.Node, src []byte) bool {
	t := n.Utf8Text(src)
	if !strings.HasPrefix(t, "&") || strings.ContainsAny(t, "<>{}") {
		return false
	}
	p := n.Parent()
	return p != nil && (p.Kind() == "jsx_element" || p.Kind() == "jsx_fragment")
}

func missingDiag(n *ts.Node) diag {
	what := n.Kind()
	if !n.IsNamed() {
		what = fmt.Sprintf("%q", what)
	} else {
		what = strings.ReplaceAll(what, "_", " ")
	}
	msg := "missing " + what
	at := int(n.StartByte())
	return diag{start: at, end: at, key: msg, msg: msg}
}

func errorDiag(n *ts.Node, src []byte) diag {
	start, end := int(n.StartByte()), int(n.EndByte())
	leaf := n
	for leaf.ChildCount() > 0 {
		leaf = leaf.Child(0)
	}
	tok := strings.TrimSpace(leaf.Utf8Text(src))
	if i := strings.IndexByte(tok, '\n'); i >= 0 {
		tok = tok[:i]
	}
	if r := []rune(tok); len(r) > 30 {
		tok = string(r[:30]) + "…"
	}
	var msg string
	switch {
	case tok != "":
		msg = fmt.Sprintf("unexpected %q", tok)
	case start >= len(bytes.TrimRight(src, " \t\r\n")):
		msg = "unexpected end of file"
	default:
		msg = "syntax error"
	}
	if parent := n.Parent(); parent != nil && parent.Parent() != nil {
		msg += " in " + strings.ReplaceAll(parent.Kind(), "_", " ")
	}
	return diag{start: start, end: end, key: "error", msg: msg}
}

// pythonBlocks is the query for Python's blocks, made once (a query is
// immutable and may be run by several cursors at once).
var pythonBlocks = sync.OnceValue(func() *ts.Query {
	q, err := ts.NewQuery(ts.NewLanguage(grammars["python"]()), "(block) @b")
	if err != nil {
		panic("syntax: python block query: " + err.Error())
	}
	return q
})

// emptyBlocks finds Python's compound statements without a body: "if x:"
// followed by a line no deeper than it, or by comments only. CPython
// refuses them ("expected an indented block"), but tree-sitter's Python
// grammar reads them as an empty block without an ERROR node, so an edit
// that deletes a block's body and keeps its header (what a marker
// forgotten inside a block leaves) would pass the check. The text is
// scanned first for such headers (headerCandidates), and only the blocks
// near them are read from the tree: a query over every block of a large
// file would cost more than the parse.
func emptyBlocks(t *ts.Tree, src []byte) []diag {
	var out []diag
	seen := map[uint]bool{}
	for _, c := range headerCandidates(src) {
		qc := ts.NewQueryCursor()
		qc.SetByteRange(uint(c[0]), uint(c[1]))
		caps := qc.Captures(pythonBlocks(), t.RootNode(), src)
		for len(out) < maxDiags {
			m, i := caps.Next()
			if m == nil {
				break
			}
			n := m.Captures[i].Node
			if seen[n.StartByte()] {
				continue
			}
			empty := true
			for k := uint(0); k < n.NamedChildCount() && empty; k++ {
				empty = n.NamedChild(k).Kind() == "comment"
			}
			if !empty {
				continue
			}
			seen[n.StartByte()] = true
			what := "statement"
			if p := n.Parent(); p != nil {
				what = strings.ReplaceAll(p.Kind(), "_", " ")
			}
			at := int(n.StartByte())
			out = append(out, diag{start: at, end: at, key: "empty block", msg: "expected an indented block in " + what})
		}
		qc.Close()
	}
	slices.SortFunc(out, func(a, b diag) int { return a.start - b.start })
	return out
}

// headerCandidates is where src may hold a block header without a body:
// byte ranges from a line whose code ends with ":" to the end of the next
// line of code, where that line is no deeper than the header (or the file
// ends first). Lines of comments only are skipped, as a block of comments
// only is empty too. A colon inside a string or a bracket may also be
// taken; the tree says.
func headerCandidates(src []byte) [][2]int {
	var out [][2]int
	header, indent := -1, 0 // the pending header's offset and indentation
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += off
		}
		line := src[off:end]
		code := bytes.TrimLeft(line, " \t")
		ind := len(line) - len(code)
		code = bytes.TrimRight(code, " \t\r")
		if len(code) > 0 && code[0] != '#' {
			if header >= 0 && ind <= indent {
				out = append(out, [2]int{header, end})
			}
			header = -1
			if k := bytes.IndexByte(code, '#'); k > 0 {
				code = bytes.TrimRight(code[:k], " \t")
			}
			if len(code) > 0 && code[len(code)-1] == ':' {
				header, indent = off+ind+len(code)-1, ind
			}
		}
		off = end + 1
	}
	if header >= 0 {
		out = append(out, [2]int{header, len(src)})
	}
	return out
}
