package snippet

// What a region may delete (package doc, parts 1, 3 and 4): the removed
// lines, read like by new lines in their scope, and what is left over;
// the structure no rewrite breaks is in structure.go, what tells a line
// apart from its siblings in siblings.go.

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/graftdev/graft/internal/lineindex"
)

// maxUnaccounted is how many removed lines with a name a region may drop
// with nothing in the snippet like them (package doc: what a region may
// delete).
const maxUnaccounted = 2

// maxDropped is how many lines a region that shows nothing new between
// its anchors may drop, in one run with no blank line among them
// (package doc, part 3): such a region says only that those lines go.
const maxDropped = 3

// dropsOneRun reports whether a region whose new lines that are not
// blank are added only drops lines: it shows no new line, and what it
// removes (removed, the indexes of the lines that are not blank) is one
// run of at most maxDropped lines with no blank line between the first
// and the last.
func dropsOneRun(added []string, removed []int) bool {
	if len(added) > 0 || len(removed) == 0 || len(removed) > maxDropped {
		return false
	}
	return removed[len(removed)-1]-removed[0] == len(removed)-1
}

// checkDeletions applies the deletion rule (package doc) to the file lines
// [from, to) replaced by newLines; pool is every line of the snippet that
// does not stand in the file (its new code, wherever it is), and scope the
// scope each stands in (this region's from index poolAt on); region is the region's lines, from file line
// headAt (0-based) on; others is how many more brackets the other regions
// open than they close, otherComments how many more block comments
// (pairDelta). It returns why the region is refused (0 and ""
// when it may delete what it does), and, where it may, the file lines
// (0-based) it removes that nothing in the snippet accounts for: the
// lines with a name left over by both readings (the deletion the
// result reports, as a forgotten marker would leave it too).
func checkDeletions(fl *lineindex.Index, from, to, headAt int, region, newLines []string, pool, scope []string, poolAt, others, otherComments int, prose bool, dl dialect, used func(name string) bool) (Reason, string, []int) {
	var old []string
	for i := from; i < to && i < fl.Count(); i++ {
		old = append(old, string(fl.Text(i+1)))
	}
	key := func(s string) string { return strings.TrimRight(s, " \t\r\n") }
	ok, nk := make([]string, len(old)), make([]string, len(newLines))
	for i, l := range old {
		ok[i] = key(l)
	}
	for i, l := range newLines {
		nk[i] = key(l)
	}
	// allman: the file's lines whose brace stood alone on the next line
	// (folded onto them).
	var allman map[int]bool
	if !prose {
		ok, allman = foldBraces(ok)
		nk, _ = foldBraces(nk)
	}
	// The removed lines: the file's lines the region does not show,
	// blank lines aside (a blank line holds no code: dropping one is
	// the snippet's literal text, and no marker is forgotten for it);
	// and for each, whether new lines stand in its gap (between the same
	// two paired lines).
	var removed []int
	filled := map[int]bool{}   // removed lines with new lines in their gap
	gap := map[int]int{}       // removed line -> the first file line of its gap
	inPlace := map[int]int{}   // a removed line replaced by one new line in place -> that line's pool index
	gapPool := map[int][]int{} // removed line -> the pool indexes of the new lines in its gap
	pi, pj, at := 0, 0, poolAt
	pairs := trustedPairs(ok, nk)
	for _, p := range append(slices.Clip(pairs), [2]int{len(ok), len(nk)}) {
		var gapNew []int // pool indexes of the gap's new lines
		for j := pj; j < p[1]; j++ {
			if strings.TrimSpace(nk[j]) != "" {
				gapNew = append(gapNew, at)
				at++
			}
		}
		var gapOld []int
		for i := pi; i < p[0]; i++ {
			if strings.TrimSpace(ok[i]) != "" {
				removed = append(removed, i)
				gapOld = append(gapOld, len(removed)-1)
				filled[i], gap[i], gapPool[i] = len(gapNew) > 0, pi, gapNew
			}
		}
		if len(gapOld) == 1 && len(gapNew) == 1 {
			inPlace[gapOld[0]] = gapNew[0]
		}
		pi, pj = p[0]+1, p[1]+1
	}
	if len(removed) == 0 {
		return 0, "", nil
	}
	deletes := func(why string, lines []int) string {
		ls := make([]string, len(lines))
		for k, i := range lines {
			ls[k] = ok[i]
		}
		return fmt.Sprintf("it would delete %d line(s) of the file it does not show (from line %d, %q), %s:%s\nif they stay, put a marker such as \"%s\" where they are; to delete them, use edit or replace_in_file",
			len(removed), from+removed[0]+1, clip(old[removed[0]]), why, listLines(ls), markerHint)
	}
	next := ""
	if to < fl.Count() {
		next = string(fl.Text(to + 1))
	}
	// Structure first: what no rewrite does.
	// body is the file's lines past the region deeper than depth: the
	// body of a block whose opening line the region removes.
	body := func(depth int) []string {
		var out []string
		for i := to; i < fl.Count(); i++ {
			l := fl.Text(i + 1)
			if len(bytes.TrimSpace(l)) == 0 {
				continue
			}
			if indentWidth(string(l)) <= depth {
				break
			}
			out = append(out, string(l))
		}
		return out
	}
	before := ""
	for i := from - 1; i >= 0; i-- {
		if l := string(fl.Text(i + 1)); strings.TrimSpace(l) != "" {
			before = strings.TrimRight(l, " \t\r\n")
			break
		}
	}
	if why := cutOpening(ok, removed, nk, before, next, body, dl); why != "" {
		return CutsBlock, why, nil
	}
	stack := stackAt(fl, from, dl) // the definitions open at the region (scopes copies it)
	if d, l := adoptsBody(fl, to, ok, nk, pairs, removed, stack, dl); d != "" {
		return CutsBlock, deletes(fmt.Sprintf("and a new definition, %s, takes over lines of %s, which stays: %q", d, scopeName(l.old), l.line), removed), nil
	}
	if prose && fences(ok)%2 != fences(nk)%2 {
		return UnpairedBrackets, deletes("and they open or close a code fence that the lines in their place do not", removed), nil
	}
	if !prose && brackets(ok)-brackets(nk)+others != 0 {
		who, n := "they", brackets(ok)-brackets(nk)
		if n == 0 {
			// This region pairs its own; the others leave one open.
			who, n = "with the snippet's other regions they", n+others
		}
		verb := "open"
		if n < 0 {
			verb, n = "close", -n
		}
		return UnpairedBrackets, deletes(fmt.Sprintf("and %s %s %d more bracket(s) than the lines in their place", who, verb, n), removed), nil
	}
	if !prose && comments(ok)-comments(nk)+otherComments != 0 {
		// A comment's opening or closing line dropped with the code
		// beside it, its other end kept: the lines between would turn
		// into comment, or out of it (a marker forgotten from inside a
		// doc comment down to the code it describes).
		return UnpairedBrackets, deletes("and they open or close a block comment (/* */) that the lines in their place do not", removed), nil
	}
	// The lines that may still use what removed lines declare: the
	// region's own and every new line, each in its scope.
	regionScope, _ := scopes(region, stackAt(fl, headAt, dl), dl)
	uses, usesScope := append(slices.Clip(region), pool...), append(regionScope, scope...)
	// Each removed line is accounted for by a new line like it in its
	// scope, one for one.
	del := make([]string, len(removed))
	for k, i := range removed {
		del[k] = ok[i]
	}
	// A block comment's end and, after code, another's beginning, both
	// removed (part 4): what stays of the two comments reads as one.
	if !prose {
		if k := joinsComments(del); k >= 0 && !closesThenOpens(nk) {
			return UnpairedBrackets, deletes("and they end a block comment and begin another, with code between them: what stays of the two comments would read as one", []int{removed[k]}), nil
		}
	}
	removedScope, _ := scopes(ok, stack, dl)
	calls := callsByScope(pool, scope, dl)
	// A definition may be renamed where its body stays: none of the
	// removed lines stands in it.
	bodyGone := map[string]bool{}
	for _, i := range removed {
		bodyGone[removedScope[i]] = true
	}
	removedAt := map[int]bool{}
	for _, i := range removed {
		removedAt[from+i] = true
	}
	// A definition renamed while code the file keeps still uses its old
	// name is a rename only where the rest of its line stays as it was:
	// with its parameters changed too, it is another definition (a new
	// one beside it, the old one dropped by a forgotten marker).
	renamedOnly := func(k, j int) bool {
		old, nw := defName(del[k], dl), defName(pool[j], dl)
		return strings.TrimSpace(strings.Replace(del[k], old, nw, 1)) == strings.TrimSpace(pool[j]) || !used(old)
	}
	renamable := func(k int) bool {
		own := removedScope[removed[k]]
		if own != "" {
			own += "/"
		}
		own += defName(del[k], dl)
		for sc := range bodyGone {
			if sc == own || strings.HasPrefix(sc, own+"/") {
				return false
			}
		}
		return true
	}
	delScope := make([]string, len(removed))
	for k, i := range removed {
		delScope[k] = removedScope[i]
	}
	delDef, poolDef := make([]string, len(del)), make([]string, len(pool))
	for k, d := range del {
		delDef[k] = defName(d, dl)
	}
	for j, l := range pool {
		poolDef[j] = defName(l, dl)
	}
	// A removed line with siblings (lines of the file of its shape: a
	// table's rows, tests of the same calls, a changelog's headings) is
	// read like a new line only where that line keeps its identity, what
	// tells it apart from them (identity): the shape alone is what every
	// sibling shares. Read once per line, when a new line reads like it.
	var sibs *siblings
	ids := make([][]string, len(removed))
	idRead := make([]bool, len(removed))
	poolTokens, poolWords := make([][]string, len(pool)), make([][]string, len(pool))
	item := make([]bool, len(removed)) // a prose list item, read as words
	keeps := func(k, j int) bool {
		if !idRead[k] {
			if sibs == nil {
				sibs = readSiblings(fl, prose)
			}
			if item[k] = prose && itemMarker(del[k]) != ""; item[k] {
				ids[k] = itemIdentity(sibs.tokens[from+removed[k]], sibs.of(from+removed[k]))
			} else {
				ids[k] = identity(tokens(del[k]), sibs.of(from+removed[k]))
			}
			idRead[k] = true
		}
		if item[k] {
			// An item keeps its identity by half its words that tell it
			// apart: a list's items are often rewritten together, their
			// tag ([ADD] to [NEW]) or verb changed, their subject kept.
			if poolWords[j] == nil {
				_, poolWords[j] = shapeOf(pool[j], true)
				if itemMarker(pool[j]) == "" {
					poolWords[j] = words(pool[j])
				}
			}
			kept := 0
			for _, t := range ids[k] {
				if keepsIdentity([]string{t}, poolWords[j]) {
					kept++
				}
			}
			return 2*kept >= len(ids[k])
		}
		if poolTokens[j] == nil {
			poolTokens[j] = tokens(pool[j])
		}
		return keepsIdentity(ids[k], poolTokens[j])
	}
	banned := map[[2]int]bool{}
	fit := func(k, j int) bool {
		if banned[[2]int{k, j}] {
			return false
		}
		if d := delDef[k]; d != "" && d != poolDef[j] && (!renamable(k) || !renamedOnly(k, j)) {
			return false
		}
		return inScope(removedScope[removed[k]], scope[j], calls)
	}
	like := oneForOneIn(del, pool, dl, fit, inPlace, keeps)
	// A line of a block dropped whole is not read like a new line that
	// reads better still like a removed line outside the block (doc,
	// part 1): the pairs are read again without it.
	if b := strayPairs(ok, removed, del, like, pool, next); len(b) > 0 {
		for _, p := range b {
			banned[p] = true
		}
		like = oneForOneIn(del, pool, dl, fit, inPlace, keeps)
	}
	// A test or a route (a block's opening line at the margin, with
	// siblings, not a definition: a definition renamed has rules of its
	// own) whose body the region changes too, replaced by a new line
	// of its shape that does not keep its identity, or keeps it only by
	// extending it ('timeout option' to 'timeout option as object'), is
	// another one beside it: a commit adds a test copied from the one
	// before and changed, and a marker forgotten over the old one leaves
	// exactly that. (A test renamed with its body as it was is renamed.)
	poolShape := map[int]string{} // pool lines' skeletons, read once when asked
	shapeAt := func(j int) string {
		sh, read := poolShape[j]
		if !read {
			sh = skeleton(tokens(pool[j]))
			poolShape[j] = sh
		}
		return sh
	}
	anotherRow := func(k, j int) bool {
		i, d := removed[k], del[k]
		if indentWidth(d) != 0 || delDef[k] != "" || !opens(d) || isComment(d) || !bodyChanged(ok, i, removed) {
			return false
		}
		shape := skeleton(tokens(d))
		if j >= 0 {
			return shapeAt(j) == shape && keeps(k, j) && len(ids[k]) > 0 && extendsIdentity(ids[k], tokens(pool[j]))
		}
		for _, g := range gapPool[i] {
			if shapeAt(g) == shape {
				if sibs == nil {
					sibs = readSiblings(fl, prose)
				}
				id := identity(sibs.tokens[from+i], sibs.of(from+i))
				if len(id) > 0 && !keepsIdentity(id, tokens(pool[g])) {
					return true
				}
			}
		}
		return false
	}
	// rows is the removed lines anotherRow finds, read only where the
	// region would land otherwise (most large deletions are refused
	// before).
	rows := func() []int {
		var out []int
		for k, j := range like {
			if !prose && anotherRow(k, j) {
				out = append(out, removed[k])
			}
		}
		return out
	}
	refuseRows := func(rows []int) (Reason, string, []int) {
		return DeletesUnlike, deletes("and a new line of the shape of one of them, with its block changed too, does not keep what tells it apart from the lines like it (or only extends it): it reads as another one beside it", rows), nil
	}
	var unaccounted, blocks []int
	newBlock := false // a new line of the region opens a block
	for _, l := range nk {
		newBlock = newBlock || opens(l) && !isComment(l)
	}
	elsewhere := func(n string) bool { // a line of the file the region keeps declares n
		for i := 0; i < fl.Count(); i++ {
			if l := string(fl.Text(i + 1)); !removedAt[i] && strings.Contains(l, n) && slices.Contains(declared(l), n) {
				return true
			}
		}
		return false
	}
	vanished := func() bool { return usesVanishedName(del, delScope, pool, uses, usesScope, like, elsewhere) }
	rewrote := map[int]bool{} // gaps (by their first removed line) where a removed line is read like
	for k, j := range like {
		if j >= 0 {
			rewrote[gap[removed[k]]] = true
		}
	}
	for k, j := range like {
		i := removed[k]
		if j >= 0 {
			continue
		}
		if counts(del[k], prose) || defName(del[k], dl) != "" {
			unaccounted = append(unaccounted, i)
		}
		if opens(del[k]) && !isComment(del[k]) && filled[i] && !rewrote[gap[i]] && !newBlock {
			// A block gone with new lines in its place, none of them
			// like any line of the gap nor opening a block: new code
			// inserted, and a marker forgotten for the block after it.
			blocks = append(blocks, i)
		}
	}
	if prose {
		if g := headingsGone(fl, from, ok, removed, like, nk, removedAt); len(g) > 0 {
			return DeletesUnlike, deletes("and a heading among them reads like no new line", g), nil
		}
	}
	// wholeDefs: every definition gone is gone whole (its block removed
	// with it) and is dead code, its name used by no other line of the
	// file: a helper deleted, which part 3's budget then reads.
	wholeDefs := func() bool {
		for k, j := range like {
			if j < 0 && defName(del[k], dl) != "" {
				b := blockOf(ok, removed[k], next)
				if len(b) == 0 || usedInFile(fl, defName(del[k], dl), dl) {
					return false
				}
				for _, i := range b {
					if strings.TrimSpace(ok[i]) != "" && !removedAt[from+i] {
						return false
					}
				}
			}
		}
		return true
	}
	// The region's new lines that are not blank: what it writes.
	var regionAdded []string
	for _, l := range nk {
		if strings.TrimSpace(l) != "" {
			regionAdded = append(regionAdded, l)
		}
	}
	budget := maxUnaccounted
	if dropsOneRun(regionAdded, removed) {
		budget = maxDropped
	}
	if len(unaccounted) <= budget && len(blocks) == 0 && (!definitionGone(del, like, dl) || wholeDefs()) && !vanished() {
		if r := rows(); len(r) > 0 {
			return refuseRows(r)
		}
		return 0, "", atFile(from, unaccounted)
	}
	// The second reading: blocks replaced by a call.
	fits := func(k, j int) bool { return inScope(removedScope[removed[k]], scope[j], calls) }
	if rewrites, left := rewritesBlocks(fl.Content(), dl, ok, removed, regionAdded, pool, like, next, vanished, allman, fits); rewrites {
		if r := rows(); len(r) > 0 {
			return refuseRows(r)
		}
		return 0, "", atFile(from, left)
	}
	switch {
	case definitionGone(del, like, dl):
		var defs []int
		for k, j := range like {
			if j < 0 && defName(del[k], dl) != "" {
				defs = append(defs, removed[k])
			}
		}
		return DeletesUnlike, deletes("and no new line defines what they define", defs), nil
	case len(blocks) > 0:
		return DeletesUnlike, deletes("and a block among them is gone with new lines in its place that read like none of it", blocks), nil
	case len(unaccounted) <= budget:
		return DeletesUnlike, deletes("and they declare a name that new lines still use", removed), nil
	}
	return DeletesUnlike, deletes(fmt.Sprintf("and %d of them are like none of the snippet's new lines", len(unaccounted)), unaccounted), nil
}

// atFile is the lines ls (indexes of the lines a region replaces, from
// file line from on, 0-based) as file lines (0-based).
func atFile(from int, ls []int) []int {
	var out []int
	for _, i := range ls {
		out = append(out, from+i)
	}
	return out
}

// definitionGone reports whether a removed definition line (del, paired
// with pool lines by like) is stood for by no new line.
func definitionGone(del []string, like []int, dl dialect) bool {
	for k, j := range like {
		if j < 0 && defName(del[k], dl) != "" {
			return true
		}
	}
	return false
}

// added is the region's new lines that stand for no file line between its
// anchors (its new code), without the white space at their ends, and the
// scope each stands in (scopes).
func added(fl *lineindex.Index, from, to int, newLines []string, prose bool, dl dialect) (lines, scope []string) {
	var ok, nk []string
	for i := from; i < to && i < fl.Count(); i++ {
		ok = append(ok, strings.TrimRight(string(fl.Text(i+1)), " \t\r\n"))
	}
	for _, l := range newLines {
		nk = append(nk, strings.TrimRight(l, " \t\r\n"))
	}
	if !prose {
		ok, _ = foldBraces(ok)
		nk, _ = foldBraces(nk)
	}
	paired := make([]bool, len(nk))
	for _, p := range trustedPairs(ok, nk) {
		paired[p[1]] = true
	}
	in, _ := scopes(nk, stackAt(fl, from, dl), dl)
	for j, l := range nk {
		if t := strings.TrimSpace(l); t != "" && !paired[j] {
			lines, scope = append(lines, t), append(scope, in[j])
		}
	}
	return lines, scope
}

// frame is a definition open at a line: its indentation and name.
type frame struct {
	indent int
	name   string
}

// scopes is the scope each of lines stands in, read from the stack of
// definitions open before them: "" at the top level, else the names of
// the definitions (func, def, class, function) it stands in by its
// indentation, outermost first, joined by "/". It returns the stack
// after the lines too.
func scopes(lines []string, stack []frame, dl dialect) ([]string, []frame) {
	stack = slices.Clone(stack) // popped and pushed below: the caller's stays as it was
	out := make([]string, len(lines))
	name := func() string {
		var b strings.Builder
		for i, f := range stack {
			if i > 0 {
				b.WriteByte('/')
			}
			b.WriteString(f.name)
		}
		return b.String()
	}
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			ind := indentWidth(l)
			for len(stack) > 0 && stack[len(stack)-1].indent >= ind {
				stack = stack[:len(stack)-1]
			}
		}
		out[i] = name()
		if n := defName(l, dl); n != "" {
			stack = append(stack, frame{indentWidth(l), n})
		}
	}
	return out, stack
}

// stackAt is the stack of definitions open before file line from
// (0-based). A definition is open there when every line after it and
// before from (blank lines aside) is indented deeper than it; so the
// lines are read from from upwards, and only a line less indented than
// every line below it is read for a definition: reading each line of a
// big file as a declaration costs (methodName) where a line of outline
// does not.
func stackAt(fl *lineindex.Index, from int, dl dialect) []frame {
	var stack []frame
	floor := -1 // the least indentation of the lines below, -1 before any
	for i := min(from, fl.Count()) - 1; i >= 0 && floor != 0; i-- {
		l := fl.Text(i + 1)
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		ind := len(l) - len(bytes.TrimLeft(l, " \t"))
		if floor >= 0 && ind >= floor {
			continue
		}
		floor = ind
		if n := defName(string(l), dl); n != "" {
			stack = append(stack, frame{ind, n})
		}
	}
	slices.Reverse(stack)
	return stack
}

// inScope reports whether a new line in scope to may stand for a removed
// line in scope from: the same definition, one nested in it (a closure),
// or a helper (the last name of to) that new lines of from's definition
// call (calls: the names the new lines call, by scope).
func inScope(from, to string, calls map[string]map[string]bool) bool {
	if to == from || from != "" && strings.HasPrefix(to, from+"/") {
		return true
	}
	helper := to[strings.LastIndexByte(to, '/')+1:]
	if helper == "" {
		return false
	}
	for sc, names := range calls {
		if (sc == from || from != "" && strings.HasPrefix(sc, from+"/")) && names[helper] {
			return true
		}
	}
	return false
}

// callsByScope is the names the lines of pool call, by the scope each
// stands in.
func callsByScope(pool, scope []string, dl dialect) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for j, l := range pool {
		def := defName(l, dl)
		for _, m := range callRE().FindAllStringSubmatch(stringsRE().ReplaceAllString(l, `""`), -1) {
			if m[1] == def {
				continue // a definition's own name is no call
			}
			if out[scope[j]] == nil {
				out[scope[j]] = map[string]bool{}
			}
			out[scope[j]][m[1]] = true
		}
	}
	return out
}

// trustedPairs pairs the unchanged lines of a region's file lines and its
// new lines (lcs), leaving out pairs of lines without a word (a brace, a
// bracket) between unpaired lines on both sides: a "}" of the new code is
// not the file's "}" just because both close something.
func trustedPairs(a, b []string) [][2]int {
	ps := lcs(a, b)
	out := ps[:0:0]
	for k, p := range ps {
		if len(words(a[p[0]])) == 0 {
			prevGap := k == 0 && (p[0] > 0 || p[1] > 0) || k > 0 && (ps[k-1][0] != p[0]-1 || ps[k-1][1] != p[1]-1)
			nextGap := k == len(ps)-1 && (p[0] < len(a)-1 || p[1] < len(b)-1) || k < len(ps)-1 && (ps[k+1][0] != p[0]+1 || ps[k+1][1] != p[1]+1)
			if prevGap && nextGap {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// listLines lists lines for a refusal, one a line, at most six.
func listLines(ls []string) string {
	var b strings.Builder
	for _, u := range ls[:min(len(ls), 6)] {
		fmt.Fprintf(&b, "\n\t%s", clip(u))
	}
	if len(ls) > 6 {
		fmt.Fprintf(&b, "\n\t(and %d more)", len(ls)-6)
	}
	return b.String()
}

// foldBraces reads a brace alone on its line (Allman style: "{" under
// "void f(int x)" or "for (...)") as the end of the line before it, the
// line that opens the block: that line gets " {" and the brace's line
// becomes blank, so that line numbers stay. A definition whose brace
// moves onto its line is then that definition rewritten, and a loop so
// written opens its block as "for (...) {" does (package doc, parts 1
// and 2). The line before must be code that can take a block: not blank,
// not a comment, not ending a statement or inside brackets (;, {, }, (,
// [, ,), where the brace opens a value (an array's object) of its own.
// It returns ls itself where nothing folds, and the lines folded onto
// (by index).
func foldBraces(ls []string) ([]string, map[int]bool) {
	var out []string
	folded := map[int]bool{}
	for i := 1; i < len(ls); i++ {
		if strings.TrimSpace(ls[i]) != "{" {
			continue
		}
		prev := strings.TrimSpace(ls[i-1])
		if prev == "" || isComment(prev) || strings.ContainsAny(prev[len(prev)-1:], ";{}([,") {
			continue
		}
		if out == nil {
			out = slices.Clone(ls)
		}
		out[i-1], out[i] = out[i-1]+" {", ""
		folded[i-1] = true
	}
	if out == nil {
		return ls, folded
	}
	return out, folded
}

// refersTo reports whether line l refers to name: name is one of its
// names (names) and the line is neither its definition nor a comment.
// usesName (bindings) reads a use more strictly, as a whole word that is
// no member.
func refersTo(l, name string, dl dialect) bool {
	return strings.Contains(l, name) && !isComment(l) && defName(l, dl) != name && slices.Contains(names(l), name)
}

// usedInFile reports whether a line of the file other than its
// definition uses name (comments aside).
func usedInFile(fl *lineindex.Index, name string, dl dialect) bool {
	for i := 0; i < fl.Count(); i++ {
		l := string(fl.Text(i + 1))
		if refersTo(l, name, dl) {
			return true
		}
	}
	return false
}

// headingLevel is the "#" run of a Markdown heading line, or "".
func headingLevel(l string) string {
	t := strings.TrimSpace(l)
	if h, _, ok := strings.Cut(t, " "); ok && h != "" && strings.Trim(h, "#") == "" && len(h) <= 6 {
		return h
	}
	return ""
}

// headingsGone is the part of the deletion rule (package doc, part 3)
// for prose's definitions, its headings ("#" to "######", or a line
// underlined with "=" or "-"): the removed headings (outside code fences)
// that no new line reads like, nor shares half their words with (words
// with a letter; a heading of numbers only shares none), whose
// sections are not removed whole (every line to the next heading of
// their level or above removed too; a released version's never is), of
// a level at which the region writes fewer new headings than it removes
// so. A heading gone with its section's text kept under the heading
// before it is what a marker forgotten across a changelog's versions
// leaves, and so is a version's section gone whole.
func headingsGone(fl *lineindex.Index, from int, ok []string, removed, like []int, nk []string, removedAt map[int]bool) []int {
	if !slices.ContainsFunc(removed, func(i int) bool {
		return headingLevel(ok[i]) != "" || i+1 < len(ok) && underline(ok[i+1]) != ""
	}) {
		return nil // most regions: no file scan
	}
	fenced := make([]bool, fl.Count()+1)
	in := false
	for i := 0; i < fl.Count(); i++ {
		l := string(fl.Text(i + 1))
		if fenceLine(l) {
			in = !in
			continue
		}
		fenced[i] = in
	}
	// levelAt is the level of file line f as a heading, "" for none: "#"
	// to "######", or a line underlined with "=" or "-" (Setext).
	levelAt := func(f int) string {
		if fenced[f] {
			return ""
		}
		l := string(fl.Text(f + 1))
		if h := headingLevel(l); h != "" {
			return h
		}
		if f+1 < fl.Count() && strings.TrimSpace(l) != "" && itemMarker(l) == "" {
			return underline(string(fl.Text(f + 2)))
		}
		return ""
	}
	gone := map[string][]int{}
	for k, j := range like {
		i := removed[k]
		if h := levelAt(from + i); j < 0 && h != "" {
			// A section removed whole: every line to the next heading
			// of its level or above is removed too.
			whole := true
			for f := from + i + 1; f < fl.Count(); f++ {
				l := string(fl.Text(f + 1))
				if hh := levelAt(f); hh != "" && len(hh) <= len(h) {
					break
				}
				if f == from+i+1 && underline(l) != "" {
					continue // its own underline
				}
				if strings.TrimSpace(l) != "" && !removedAt[f] {
					whole = false
					break
				}
			}
			// kept: its words stand in a new line (made a paragraph, or
			// rewritten). Words with a letter: a version's or a date's
			// numbers are shared by the next version's heading.
			kept := false
			if ws := letteredWords(ok[i]); len(ws) > 0 {
				for _, l := range nk {
					kept = kept || overlap(ws, letteredWords(l)) >= 0.5
				}
			}
			if versionRE().MatchString(strings.TrimLeft(strings.TrimSpace(ok[i]), "# [")) {
				whole = false // a released version's notes are history, which commits keep
			}
			if !whole && !kept {
				gone[h] = append(gone[h], i)
			}
		}
	}
	free := map[string]int{}
	for q, l := range nk {
		h := headingLevel(l)
		if h == "" && q+1 < len(nk) && strings.TrimSpace(l) != "" {
			h = underline(nk[q+1])
		}
		if h != "" {
			free[h]++
		}
	}
	var out []int
	for h, g := range gone {
		if len(g) > free[h] {
			out = append(out, g...)
		}
	}
	slices.Sort(out)
	return out
}

// joinsComments is the index of a line of ls that ends a block comment
// and is followed by a line of code with a name and then by a line that
// begins a block comment, or -1.
func joinsComments(ls []string) int {
	closeAt, code := -1, false
	for k, l := range ls {
		switch c := comments([]string{l}); {
		case c < 0:
			closeAt, code = k, false
		case c > 0:
			if closeAt >= 0 && code {
				return closeAt
			}
			closeAt = -1
		case closeAt >= 0 && !isComment(l) && named(l):
			code = true
		}
	}
	return -1
}

// closesThenOpens reports whether a line of ls ends a block comment and
// a later one begins another.
func closesThenOpens(ls []string) bool {
	closed := false
	for _, l := range ls {
		switch c := comments([]string{l}); {
		case c < 0:
			closed = true
		case c > 0 && closed:
			return true
		}
	}
	return false
}

// underline is the level a Setext underline gives the line above it:
// "#" for a run of "=", "##" for one of "-", "" for any other line.
func underline(l string) string {
	t := strings.TrimSpace(l)
	switch {
	case len(t) >= 2 && strings.Trim(t, "=") == "":
		return "#"
	case len(t) >= 2 && strings.Trim(t, "-") == "":
		return "##"
	}
	return ""
}

// versionRE matches a heading's text that begins with a version number
// (1.9.2 / 2014-10-27, v2.1.4: ..., [3.0.0] - ...).
var versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^v?\d+\.\d+`) })

// letteredWords is the words of l with a letter in them.
func letteredWords(l string) []string {
	var out []string
	for _, w := range words(l) {
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			out = append(out, w)
		}
	}
	return out
}
