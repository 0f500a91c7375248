package syntax

import (
	"bytes"
	"sort"
)

// diag is a syntax error as a checker reports it, in byte offsets of the
// content it parsed.
type diag struct {
	start, end int
	// key is what two errors must share to be taken for the same error:
	// "error", `missing "}"`, or a pure-Go parser's message.
	key string
	msg string
}

// checker is one way of parsing a language.
type checker struct {
	name string
	// diagnose returns the syntax errors of src, in file order.
	diagnose func(src []byte) ([]diag, error)
	// clean reports whether src has no syntax error. nil: diagnose is used.
	clean func(src []byte) (bool, error)
	// pairFn returns the errors of before and of after; ch is where they
	// differ. nil: diagnose is called on each.
	pairFn func(before, after []byte, ch change) ([]diag, []diag, error)
	// firstOnly is true when the parser stops at its first error, so a
	// whole-file comparison is blind past an old error.
	firstOnly bool
	// window is true when a slice of a file that starts and ends at top-level
	// boundaries parses like a file of its own, once windowPrefix (if any)
	// is put before a slice that does not start the file.
	window       bool
	windowPrefix string
}

// diagnoseWindow parses src[start:end] as a window: with c.windowPrefix
// before it unless it starts the file, offsets shifted back into src.
func (c *checker) diagnoseWindow(src []byte, start, end int) ([]diag, error) {
	if c.windowPrefix == "" || start == 0 {
		ds, err := c.diagnose(src[start:end])
		for i := range ds {
			ds[i].start += start
			ds[i].end += start
		}
		return ds, err
	}
	buf := make([]byte, 0, len(c.windowPrefix)+end-start)
	buf = append(append(buf, c.windowPrefix...), src[start:end]...)
	ds, err := c.diagnose(buf)
	shift := start - len(c.windowPrefix)
	for i := range ds {
		ds[i].start = max(ds[i].start+shift, start)
		ds[i].end = max(ds[i].end+shift, start)
	}
	return ds, err
}

// windowClean reports whether src[start:end] parses clean as a window.
func (c *checker) windowClean(src []byte, start, end int) (bool, error) {
	if c.windowPrefix == "" || start == 0 {
		return c.isClean(src[start:end])
	}
	ds, err := c.diagnoseWindow(src, start, end)
	return len(ds) == 0, err
}

func (c *checker) isClean(src []byte) (bool, error) {
	if c.clean != nil {
		return c.clean(src)
	}
	ds, err := c.diagnose(src)
	return len(ds) == 0, err
}

func (c *checker) pair(before, after []byte, ch change) ([]diag, []diag, error) {
	if c.pairFn != nil {
		return c.pairFn(before, after, ch)
	}
	// Parse after first: when it is clean nothing was added, whatever before
	// holds, and before need not be parsed at all.
	ad, err := c.diagnose(after)
	if err != nil || len(ad) == 0 {
		return nil, ad, err
	}
	bd, err := c.diagnose(before)
	return bd, ad, err
}

// change is the span where before and after differ: they share the bytes
// before start, and the bytes from beforeEnd (in before) and afterEnd (in
// after) to their ends.
type change struct {
	start, beforeEnd, afterEnd int
}

// changeOf finds the longest common prefix and then the longest common
// suffix of what remains.
func changeOf(before, after []byte) change {
	n := min(len(before), len(after))
	p := 0
	const block = 4096
	for p+block <= n && bytes.Equal(before[p:p+block], after[p:p+block]) {
		p += block
	}
	for p < n && before[p] == after[p] {
		p++
	}
	s := 0
	for s+block <= n-p && bytes.Equal(before[len(before)-s-block:len(before)-s], after[len(after)-s-block:len(after)-s]) {
		s += block
	}
	for s < n-p && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	return change{start: p, beforeEnd: len(before) - s, afterEnd: len(after) - s}
}

// addedDiags returns the errors of after (ad) that no error of before (bd)
// accounts for. The rule, in three passes:
//
//  1. An error of after is old when before has an error of the same key at
//     the same position carried through the change (unchanged text before the
//     change keeps its offset; text after it shifts by the change's growth),
//     unless the old one ended before the change and the new one reaches
//     past it: error recovery then swallowed the edit.
//  2. An error of after is old when before had an error of the same key
//     inside the changed span that pass 1 left unmatched: the edit touched
//     broken text and it stays broken the same way (the error may move).
//  3. An error of after inside the changed span is old when before had any
//     unmatched error inside the changed span: the edit rewrote broken text
//     and it is still broken, differently, but not more so.
//
// Whatever remains is added. Each error of before accounts for one error of
// after at most, so an edit that keeps a broken span broken and breaks one
// more place is still reported.
func addedDiags(bd, ad []diag, ch change) []diag {
	if len(ad) == 0 {
		return nil
	}
	delta := ch.afterEnd - ch.beforeEnd
	type slot struct {
		inChange bool
		used     bool
	}
	type pos struct {
		key string
		at  int
	}
	slots := make([]slot, len(bd))
	byPos := make(map[pos][]int, len(bd))
	for i, d := range bd {
		switch {
		case d.start < ch.start:
			byPos[pos{d.key, d.start}] = append(byPos[pos{d.key, d.start}], i)
		case d.start >= ch.beforeEnd:
			byPos[pos{d.key, d.start + delta}] = append(byPos[pos{d.key, d.start + delta}], i)
			if d.start == ch.start && delta != 0 {
				// A pure insertion at an error's offset: the error may sit
				// before the inserted text as well as after it.
				byPos[pos{d.key, d.start}] = append(byPos[pos{d.key, d.start}], i)
			}
		default:
			slots[i].inChange = true
		}
	}
	matched := make([]bool, len(ad))
	take := func(j int, ok func(i int) bool) {
		for i := range slots {
			if !slots[i].used && ok(i) {
				slots[i].used = true
				matched[j] = true
				return
			}
		}
	}
	// Pass 1.
	for j, a := range ad {
		for _, i := range byPos[pos{a.key, a.start}] {
			if bd[i].end <= ch.start && a.end > ch.afterEnd {
				// Same start, but it grew over the whole edit: error recovery
				// swallowed the edited text, which is new damage.
				continue
			}
			if !slots[i].used {
				slots[i].used = true
				matched[j] = true
				break
			}
		}
	}
	// Pass 2.
	for j, a := range ad {
		if !matched[j] {
			take(j, func(i int) bool { return slots[i].inChange && bd[i].key == a.key })
		}
	}
	// Pass 3.
	for j, a := range ad {
		if !matched[j] && a.start >= ch.start && a.start <= ch.afterEnd {
			take(j, func(i int) bool { return slots[i].inChange })
		}
	}
	var out []diag
	for j, a := range ad {
		if !matched[j] {
			out = append(out, a)
		}
	}
	sort.SliceStable(out, func(x, y int) bool { return out[x].start < out[y].start })
	return out
}

// window is a slice of both contents around the change: before[start:
// beforeEnd] and after[start:afterEnd].
type window struct {
	start, beforeEnd, afterEnd int
}

// findWindow cuts, around the change, a window that starts and ends at
// top-level boundaries (see boundaryAt). It reports false when the checker
// cannot parse slices, when no boundary is found within opt.windowScan, or
// when the window would be the whole file anyway.
func findWindow(c *checker, b bounds, before []byte, ch change, opt options) (window, bool) {
	if !c.window || opt.windowScan <= 0 {
		return window{}, false
	}
	ws, ok := windowStart(before, ch.start, opt.windowScan, b)
	if !ok {
		return window{}, false
	}
	we, ok := windowEnd(before, ch.beforeEnd, opt.windowScan, b)
	if !ok || ws == 0 && we == len(before) {
		return window{}, false
	}
	return window{start: ws, beforeEnd: we, afterEnd: we + ch.afterEnd - ch.beforeEnd}, true
}

// windowStart returns the start of the nearest boundary line at or before
// the line holding offset at, looking back at most scan bytes.
func windowStart(src []byte, at, scan int, b bounds) (int, bool) {
	l := bytes.LastIndexByte(src[:at], '\n') + 1
	for {
		if at-l > scan {
			return 0, false
		}
		if l < len(src) && b.startsAt(src, l) {
			return l, true
		}
		if l == 0 {
			return 0, false
		}
		l = bytes.LastIndexByte(src[:l-1], '\n') + 1
	}
}

// windowEnd returns the first boundary line start after offset at whose
// preceding blank line lies wholly at or after at (so it is text the edit did
// not touch), or the first declaration line (bounds.decl) wholly after at,
// or len(src); looking ahead at most scan bytes.
func windowEnd(src []byte, at, scan int, b bounds) (int, bool) {
	nl := bytes.IndexByte(src[at:], '\n')
	if nl < 0 {
		return len(src), true
	}
	prev := at + nl + 1 // start of a line wholly after the change
	if prev < len(src) && b.declAt(src, prev) {
		return prev, true
	}
	for {
		l := prev + bytes.IndexByte(src[prev:], '\n') + 1
		if l <= prev { // no newline: prev is the last line
			return len(src), true
		}
		if l == len(src) {
			return l, true
		}
		if b.startsAt(src, l) {
			return l, true
		}
		if l-at > scan {
			return 0, false
		}
		prev = l
	}
}

// bounds are a language's own tests for where a window may start or end.
type bounds struct {
	// unit, when set, must also accept a boundary line (language.unit).
	unit func(line []byte) bool
	// decl, when set, accepts a line that starts a top-level declaration
	// by its first word alone (language.decl): a boundary even without a
	// blank line before it.
	decl func(line []byte) bool
}

// startsAt reports whether a window may start or end at the line starting
// at l: a boundary line (boundaryAt) that the language's unit test accepts,
// or a declaration line.
func (b bounds) startsAt(src []byte, l int) bool {
	return boundaryAt(src, l) && (b.unit == nil || l == 0 || b.unit(lineAt(src, l))) || b.declAt(src, l)
}

// declAt reports whether the line starting at l starts a top-level
// declaration by the language's decl test.
func (b bounds) declAt(src []byte, l int) bool {
	return b.decl != nil && l < len(src) && b.decl(lineAt(src, l))
}

// lineAt is the line starting at l, without its line break.
func lineAt(src []byte, l int) []byte {
	end := bytes.IndexByte(src[l:], '\n')
	if end < 0 {
		end = len(src) - l
	}
	return src[l : l+end]
}

// closers are words that continue a construct rather than start one; a line
// starting with one is no boundary even at column 0.
var closers = map[string]bool{
	"end": true, "else": true, "elif": true, "elsif": true, "except": true,
	"finally": true, "fi": true, "done": true, "esac": true, "rescue": true,
	"ensure": true, "when": true, "then": true, "do": true, "in": true,
	"catch": true, "case": true, "default": true,
}

// boundaryAt reports whether the line starting at l starts a top-level
// construct: it is the first line of the file, or it follows a blank line
// and starts in column 0 with something other than a closing bracket or a
// word that continues a construct (else, end, fi, ...). Code almost always
// separates top-level declarations this way; text inside a multi-line
// string or comment that happens to look alike is what the window's parse
// of before guards against.
func boundaryAt(src []byte, l int) bool {
	if l == 0 {
		return true
	}
	if l >= len(src) {
		return l == len(src)
	}
	switch src[l] {
	case ' ', '\t', '\r', '\n', '}', ')', ']', '\f', '\v':
		return false
	}
	// The previous line must be blank.
	p := bytes.LastIndexByte(src[:l-1], '\n') + 1
	if len(bytes.TrimSpace(src[p:l])) != 0 {
		return false
	}
	w := l
	for w < len(src) && (src[w] >= 'a' && src[w] <= 'z' || src[w] >= 'A' && src[w] <= 'Z' || src[w] >= '0' && src[w] <= '9' || src[w] == '_') {
		w++
	}
	return !closers[string(src[l:w])]
}
