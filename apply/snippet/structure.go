package snippet

// Structure (package doc, part 4): what no rewrite does, whatever the
// lines the snippet removes are accounted for by: blocks cut from their
// opening lines, bodies taken over by new definitions, brackets and code
// fences left unpaired.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/graftdev/graft/internal/lineindex"
)

// cutOpening refuses a region that removes a block's opening line while
// the block's body, past the region, stays at its depth (ok is the file's
// lines the region replaces, removed the indexes of the lines it removes,
// nk its new lines, before the file's last line before it that is not
// blank, next the file line after it): the body is then
// re-parented to whatever opens a block last among the new lines. That is
// a condition rewritten (one opening line in place of one), or a marker
// forgotten after a changed line (the opening line lost among the dropped
// lines). It is a rewrite when each such opening line reads like a new
// one (rewritten in place), but for one at most whose block the region's
// last new line, an opening line that reads like no other removed one,
// takes over, or the new block the region ends in, where the body keeps
// what it reads of the removed line (keepsValues), or one that goes on a
// statement whose branches before it the region removes whole, the
// new block ending the region read like its opening line
// (droppedBranches). body gives the file's
// lines past the region deeper than a depth.
func cutOpening(ok []string, removed []int, nk []string, before, next string, body func(depth int) []string, dl dialect) string {
	if strings.TrimSpace(next) == "" {
		return ""
	}
	var cut []int
	var openers []string // removed opening lines whose blocks end within the region
	for _, i := range removed {
		if !opens(ok[i]) || isComment(ok[i]) {
			continue
		}
		if blockOf(ok, i, next) == nil && indentWidth(next) > indentWidth(ok[i]) {
			above := before // the line over it: the file's before the region, or one the region keeps
			if p := prevCode(ok, i); p >= 0 {
				above = ok[p]
				if slices.Contains(removed, p) {
					above = ""
				}
			}
			if opens(above) && !isComment(above) && indentWidth(above) == indentWidth(ok[i]) {
				// Stacked on an opening line that stays (case 13: over
				// case 4:, labels that share one body): the body keeps
				// that line over it.
				continue
			}
			cut = append(cut, i)
		} else {
			openers = append(openers, ok[i])
		}
	}
	if len(cut) == 0 {
		return ""
	}
	// A cut opening line rewritten in place (a signature, a condition
	// changed) reads like a new opening line.
	var newOpeners []string
	lastAt := -1    // the new opening line that is the region's last line
	enclosing := -1 // the new opening line whose block the region ends in
	enclosingIndent := 0
	for _, l := range nk {
		if opens(l) && !isComment(l) {
			newOpeners = append(newOpeners, l)
		}
		if strings.TrimSpace(l) == "" {
			continue
		}
		lastAt = -1
		if opens(l) && !isComment(l) {
			lastAt = len(newOpeners) - 1
		}
		if enclosing >= 0 && indentWidth(l) > enclosingIndent {
			continue // within that block: its first lines
		}
		enclosing = lastAt
		if lastAt >= 0 {
			enclosingIndent = indentWidth(l)
		}
	}
	cutText := make([]string, len(cut))
	for k, i := range cut {
		cutText[k] = ok[i]
	}
	pair := oneForOne(cutText, newOpeners, dl)
	taken := map[int]bool{}
	for _, j := range pair {
		if j >= 0 {
			taken[j] = true
		}
	}
	var unpaired []int
	for k, j := range pair {
		if j < 0 && !named(cutText[k]) {
			// A line of keywords only (case []interface{}:) reads like
			// a new one that starts with the same word (case []any:).
			first := strings.Fields(cutText[k])[0]
			for jj, l := range newOpeners {
				if f := strings.Fields(l); !taken[jj] && len(f) > 0 && f[0] == first {
					j, taken[jj] = jj, true
					break
				}
			}
		}
		if j < 0 {
			unpaired = append(unpaired, cut[k])
		}
	}
	if len(unpaired) == 0 {
		return ""
	}
	// One opening line may give its block to the new block that ends the
	// region, when that line reads like no other removed opening line;
	// or to a new block the region ends in (its first lines new, the
	// body after them the file's: a loop's header rewritten, a guard put
	// first in its body), where the body still has what it uses of the
	// removed line: every name of that line that the body uses is named
	// by the region's new lines (a body re-parented without the loop
	// variable it reads is a loop a forgotten marker dropped).
	if len(unpaired) == 1 && lastAt < 0 && enclosing >= 0 && keepsValues(ok[unpaired[0]], body(indentWidth(ok[unpaired[0]])), nk) {
		lastAt = enclosing
	}
	if len(unpaired) == 1 && lastAt >= 0 && !taken[lastAt] &&
		(len(openers) == 0 || oneForOne(openers, newOpeners[lastAt:lastAt+1], dl)[0] < 0) {
		return ""
	}
	// Or the one line goes on a statement whose branches before it the
	// region removes whole, its opening line read like the new block
	// that ends the region: a branch dropped and the condition rewritten
	// (if !ok { a } else { b } as if ok { b }).
	if len(unpaired) == 1 && lastAt >= 0 && !taken[lastAt] {
		if o := droppedBranches(ok, removed, unpaired[0]); o >= 0 && oneForOne([]string{ok[o]}, newOpeners[lastAt:lastAt+1], dl)[0] >= 0 {
			return ""
		}
	}
	cut = unpaired
	i := cut[len(cut)-1]
	return fmt.Sprintf("it would delete %q, which opens the block of the file's lines after the region, and leave that block's lines where they are: if it stays, show it or put a marker such as \"%s\" where it is; to delete it, use edit or replace_in_file",
		clip(strings.TrimSpace(ok[i])), markerHint)
}

// prevCode is the index of the line of ls before i that is not blank, or
// -1.
func prevCode(ls []string, i int) int {
	for p := i - 1; p >= 0; p-- {
		if strings.TrimSpace(ls[p]) != "" {
			return p
		}
	}
	return -1
}

// keepsValues reports whether the new lines nk name every name of the
// removed opening line that its body's lines use.
func keepsValues(opening string, body, nk []string) bool {
	used := map[string]bool{}
	for _, l := range body {
		for _, n := range names(l) {
			used[n] = true
		}
	}
	kept := map[string]bool{}
	for _, l := range nk {
		for _, n := range names(l) {
			kept[n] = true
		}
	}
	for _, n := range names(opening) {
		if used[n] && !kept[n] {
			return false
		}
	}
	return true
}

// fences counts the lines of ls that open or close a code fence of
// Markdown ("```", "~~~"): in prose, what brackets are in code.
func fences(ls []string) int {
	n := 0
	for _, l := range ls {
		if fenceLine(l) {
			n++
		}
	}
	return n
}

// fenceLine reports whether l, indented or not, is a code fence of
// Markdown ("```", "~~~", with or without a language).
func fenceLine(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// comments is how many more block comments ("/*") the lines ls leave
// open than they close: a line that, strings aside, ends inside a comment
// it begins (a comment's first line, or a trailing comment that goes on
// to the next line), less a line that ends a comment it did not begin (a
// comment's "*/" alone, or its last line of prose). So that a path
// pattern in a line of data ("src/**/*.go", "lib/*") begins or ends
// none: "/*" before ".", "/", "}" or "," begins no comment, and one that
// the line leaves open counts only after white space, punctuation or the
// line's start; a "*/" the line did not begin ends one only before white
// space, the line's end or ";", or after white space; and what follows a
// line comment ("//", not a URL's: commentStart) is not read.
func comments(ls []string) int {
	n := 0
	for _, l := range ls {
		if !strings.Contains(l, "/*") && !strings.Contains(l, "*/") {
			continue // most lines: no regular expression to run
		}
		t := stringsRE().ReplaceAllString(strings.TrimRight(l, "\r\n"), `""`)
		if c := commentStart(t); c >= 0 && !strings.Contains(t[:c], "/*") {
			t = t[:c] // a line comment, whatever it holds
		}
		open, begun, closed := false, false, false // open: a comment begun, and not ended, that counts
		for i := 0; i+1 < len(t); i++ {
			switch {
			case t[i] == '/' && t[i+1] == '*' && (i+2 == len(t) || !strings.ContainsRune("./},", rune(t[i+2]))):
				open = i == 0 || strings.ContainsRune(" \t;,(){}", rune(t[i-1]))
				begun = true
				i++
			case t[i] == '*' && t[i+1] == '/':
				if begun {
					open, begun = false, false
				} else if i+2 == len(t) || strings.ContainsRune(" \t;", rune(t[i+2])) || i > 0 && (t[i-1] == ' ' || t[i-1] == '\t') {
					closed = true
				}
				i++
			}
		}
		if open {
			n++
		}
		if closed {
			n--
		}
	}
	return n
}

// blockLines is how many more of lines ls open a block than close one,
// read by whole lines: a line whose code ends in "{" opens one, a line
// whose code begins with "}" closes one ("} else {" does both). Comments
// aside, a block comment's lines too.
func blockLines(ls []string) int {
	n, inComment := 0, false
	for _, l := range ls {
		t := strings.TrimSpace(l)
		if inComment {
			inComment = !strings.Contains(t, "*/")
			continue
		}
		if strings.HasPrefix(t, "/*") {
			inComment = !strings.Contains(t[2:], "*/")
			continue
		}
		if isComment(t) && !strings.HasPrefix(t, "#[") && !strings.HasPrefix(t, "#![") {
			continue // but a Rust attribute, which is code
		}
		// codeOf would also cut at " #", which here splits a Ruby
		// string's interpolation across lines ("#<#{name} #{" ... "}>"),
		// so that its brace no longer opens what the string's last line
		// closes: measured, 2 Ruby landings lost and nothing gained.
		c := strings.TrimSpace(stringsRE().ReplaceAllString(t, `""`))
		if i := commentStart(c); i >= 0 {
			c = strings.TrimSpace(c[:i])
		}
		if strings.HasPrefix(c, "}") {
			n--
		}
		if strings.HasSuffix(c, "{") {
			n++
		}
	}
	return n
}

// pairDelta is how many more brackets, and block comments, the file lines
// [from, to) open than the region's new lines in their place.
func pairDelta(fl *lineindex.Index, from, to int, newLines []string) (bracketsOpen, commentsOpen int) {
	var old []string
	for i := from; i < to && i < fl.Count(); i++ {
		old = append(old, string(fl.Text(i+1)))
	}
	return brackets(old) - brackets(newLines), comments(old) - comments(newLines)
}

// adopted is a kept line that a new definition takes over: its text and
// the scope it stood in.
type adopted struct {
	line, old string
}

// scopeName is the last definition of scope sc, for a message.
func scopeName(sc string) string { return sc[strings.LastIndexByte(sc, '/')+1:] }

// adoptsBody reports the name of a new definition among the region's new
// lines (nk, in place of the file's lines ok, which end before file line
// to; stack the definitions open before them; pairs the lines of ok and
// nk that stand for each other) that takes over
// a line the region keeps from a definition that stays (its opening line
// is not among the removed lines): by indentation, the kept line stood in
// that definition, and stands in the new one. A definition inserted
// between another's opening line and its body, with lines removed around
// it, is new code put before a marker forgotten for the body: a rewrite
// that keeps a definition keeps its body in it. The file's lines past the
// region are read too, up to the first with a name: where the region's
// tail follows the new definition directly, that line tells.
func adoptsBody(fl *lineindex.Index, to int, ok, nk []string, pairs [][2]int, removed []int, stack []frame, dl dialect) (string, adopted) {
	newDef := false
	for _, l := range nk {
		newDef = newDef || defName(l, dl) != ""
	}
	if !newDef {
		return "", adopted{}
	}
	gone := map[string]bool{} // definitions whose opening line is removed
	for _, i := range removed {
		if n := defName(ok[i], dl); n != "" {
			gone[n] = true
		}
	}
	var past []string // the file's lines after the region, to the first with a name
	for i := to; i < fl.Count(); i++ {
		l := string(fl.Text(i + 1))
		past = append(past, l)
		if len(words(codeOf(l))) > 0 {
			break
		}
	}
	oldSc, _ := scopes(append(slices.Clip(ok), past...), stack, dl)
	newSc, _ := scopes(append(slices.Clip(nk), past...), stack, dl)
	pairs = slices.Clip(pairs)
	for t := range past {
		pairs = append(pairs, [2]int{len(ok) + t, len(nk) + t})
	}
	kept := map[int]bool{}
	for _, p := range pairs {
		kept[p[1]] = true
	}
	text := func(j int) string {
		if j < len(nk) {
			return nk[j]
		}
		return past[j-len(nk)]
	}
	for _, p := range pairs {
		os, ns := oldSc[p[0]], newSc[p[1]]
		l := text(p[1])
		if os == ns || os == "" || gone[scopeName(os)] || inside(ns, os) || len(words(codeOf(l))) == 0 {
			continue
		}
		// ns's last definition must be a new line's.
		d := scopeName(ns)
		for j := p[1] - 1; j >= 0; j-- {
			if defName(text(j), dl) == d && indentWidth(text(j)) < indentWidth(l) {
				if j < len(nk) && !kept[j] {
					return d, adopted{l, os}
				}
				break
			}
		}
	}
	return "", adopted{}
}

// bodyChanged reports whether the region removes a line with a name from
// the block that ok[i] opens (the lines after it, deeper, within ok).
func bodyChanged(ok []string, i int, removed []int) bool {
	depth := indentWidth(ok[i])
	for j := i + 1; j < len(ok); j++ {
		if strings.TrimSpace(ok[j]) == "" {
			continue
		}
		if indentWidth(ok[j]) <= depth {
			return false
		}
		if _, found := slices.BinarySearch(removed, j); found && len(words(codeOf(ok[j]))) > 0 {
			return true
		}
	}
	return false
}

// droppedBranches is the opening line of the statement that the removed
// line c continues (} else {, else:, except:), where the region removes
// that line and every line from it to c; -1 otherwise.
func droppedBranches(ok []string, removed []int, c int) int {
	if !continues(ok[c]) {
		return -1
	}
	gone := map[int]bool{}
	for _, i := range removed {
		gone[i] = true
	}
	d := indentWidth(ok[c])
	for p := c - 1; p >= 0; p-- {
		if strings.TrimSpace(ok[p]) == "" {
			continue
		}
		if !gone[p] || indentWidth(ok[p]) < d {
			return -1
		}
		if indentWidth(ok[p]) == d && !continues(ok[p]) {
			if opens(ok[p]) && !isComment(ok[p]) {
				return p
			}
			return -1
		}
	}
	return -1
}
