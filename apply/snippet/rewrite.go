package snippet

// What a region may delete (package doc, part 2): blocks rewritten as a
// call; and how a removed line is read like a new one.

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// maxVanished is how many removed lines may vanish with nothing in the
// snippet like them, when a region is read as whole blocks rewritten.
const maxVanished = maxUnaccounted

// rewritesBlocks is the second reading of a region whose removed lines
// the first does not account for (package doc, part 2): a block replaced
// by a call (of a helper, for the loop it was) rarely reads like the block
// line for line, but the call's arguments name the block's values. ok is
// the file's lines the region replaces, removed the indexes of those it
// removes (not blank), added the region's new lines (not blank), pool
// every new line of the snippet, like the first reading's pairs (per
// removed line, its pool line or -1), next the file line after the
// region's last replaced line, declGone whether a removed declaration
// is of a name still used (usesVanishedName), and allman the lines of ok
// whose brace stood alone on the next line (foldBraces), and fits whether
// pool line j stands where removed line k's code may move (the same
// definition, one nested in it, or a helper it calls: inScope).
//
// It reads as a rewrite when no definition vanishes unaccounted for, the
// removed lines open as many brackets as the new lines do, no removed
// declaration is of a name still used, and at most maxVanished removed
// lines vanish: those outside the run from the first accounted line to the
// last (a forgotten marker leaves its lines at one end), and those inside
// it with a name that are not accounted for. With it, it returns the
// removed lines with a name that stay unaccounted for (indexes of ok),
// inside the run or outside it.
func rewritesBlocks(content []byte, dl dialect, ok []string, removed []int, added, pool []string, like []int, next string, declGone func() bool, allman map[int]bool, fits func(k, j int) bool) (bool, []int) {
	if len(removed) == 0 {
		return true, nil
	}
	del := make([]string, len(removed))
	for k, i := range removed {
		del[k] = ok[i]
	}
	acc := make([]bool, len(del))
	for k, j := range like {
		acc[k] = j >= 0
	}
	at := map[int]int{}
	for k, i := range removed {
		at[i] = k
	}
	// In file order: a block opening line that no new line reads like
	// may be stood for by a call, one call for one block (a definition's
	// line never: a call naming its parameters is no rewrite of it; a
	// statement never: it merely names the call's argument); an opening
	// line accounted for takes its block with it.
	used := make([]bool, len(pool)) // a new line stands for one block
	for k, j := range like {
		if j >= 0 && opens(del[k]) {
			used[j] = true // it reads like this block's opening line
		}
	}
	// Or it reads like a line inside the block it stands for (the call
	// that replaced a block reads like a line of it): that is no other
	// thing it stands for.
	byCallOf := make([]bool, len(pool)) // a new line stands for a block as a call
	usedInside := func(j int, inside map[int]bool) bool {
		for k, jj := range like {
			if jj == j && opens(del[k]) && !inside[removed[k]] {
				return false
			}
		}
		return true
	}
	imported := sync.OnceValue(func() map[string]bool { return importedNames(content, dl) })
	held := map[string]bool{}
	holds := func(name string) bool { // whether the file holds name, asked once per name
		h, seen := held[name]
		if !seen {
			h = containsWord(content, name)
			held[name] = h
		}
		return h
	}
	// unlikeIn counts the lines of b that are removed, have a name and
	// that no new line reads like.
	unlikeIn := func(b []int) int {
		n := 0
		for _, j := range b {
			if kk, isRemoved := at[j]; isRemoved && like[kk] < 0 && named(ok[j]) {
				n++
			}
		}
		return n
	}
	hidden := -1 // the last line of the blocks of removed opening lines not accounted for
	for k, i := range removed {
		d := del[k]
		if !opens(d) {
			continue
		}
		// A call stands for a block the rewrite replaces whole, not for
		// one nested in a block that vanishes around it.
		outer := i > hidden
		block := blockOf(ok, i, next)
		// An opening line rewritten as another whose block the snippet
		// shows takes its block with it only where the new block is
		// about its size: the block's lines that nothing reads like
		// number at most the new block's, and two more. A block of six
		// lines "rewritten" as one of two is another block that reads
		// alike at its first line (a test beside the one a forgotten
		// marker dropped); the new line may still stand for it as a
		// call (if err := check(a, b); err != nil {).
		bigger := like[k] >= 0 && opens(pool[like[k]]) && hasBody(added, pool[like[k]]) &&
			unlikeIn(block) > bodySize(added, pool[like[k]])+maxVanished
		byCall := false
		// A header at the margin whose brace stood alone on the next line
		// is a C function's (or type's) first line: a definition's.
		cDef := allman[i] && indentWidth(d) == 0
		if outer && (!acc[k] || bigger) && defName(d, dl) == "" && !cDef {
			body, free := blockValues(ok, block, imported())
			short := named(codeOf(d)) && len(subjects(codeOf(d))) == 0
			inside := map[int]bool{i: true}
			for _, b := range block {
				inside[b] = true
			}
			for j, l := range pool {
				if byCallOf[j] || used[j] && !(bigger && j == like[k]) && !usedInside(j, inside) || pairedElsewhere(like, removed, j, inside) || !fits(k, j) {
					// One new line stands for one thing: a line it reads
					// like outside this block, or another block.
					continue
				}
				// A call naming half the values the opening line works
				// on (when it names them only as what their fields
				// belong to, p for p.dirty, it must also pass half the
				// values the block works on); or, for an opening line
				// that names only short values (for n > 0 {), a call of
				// a new helper, one the file does not hold, passed
				// values the block's body uses. A line that names
				// nothing (for {, try {, } else {, if err != nil {) is
				// stood for by no call: any call inserted before a
				// forgotten marker would do.
				if ok, byField := callNames(d, l); ok && (!byField || passes(l, free)) ||
					short && len(body) > 0 && callsNewHelper(l, body, free, holds) {
					used[j], byCallOf[j], acc[k], byCall = true, true, true, true
					break
				}
			}
		}
		if !acc[k] {
			if len(block) > 0 {
				hidden = max(hidden, block[len(block)-1])
			}
			continue
		}
		if !byCall && like[k] >= 0 && opens(pool[like[k]]) && !hasBody(added, pool[like[k]]) {
			// An opening line rewritten as another whose block the
			// snippet leaves empty has not rewritten the block: its
			// removed lines answer for themselves.
			continue
		}
		if bigger && !byCall {
			continue
		}
		if !byCall && like[k] >= 0 && !opens(pool[like[k]]) && !works(pool[like[k]]) && !slices.ContainsFunc(added, loops) &&
			(loops(d) || functionHeader(d) && !(defName(d, dl) != "" && importsName(pool[like[k]], defName(d, dl))) || conditional(d) && !conditional(pool[like[k]]) && !chooses(pool[like[k]])) {
			// A loop, a function or a condition read like a new line
			// that opens no block and calls nothing (an assignment, an
			// argument; for a condition, one that chooses nothing
			// either), where the region writes no loop of its own: that
			// line does none of the block's work, so the body answers
			// for itself (a definition imported in its place is moved).
			continue
		}
		if !byCall && allman[i] && like[k] >= 0 && !opens(pool[like[k]]) && !strings.HasSuffix(codeOf(pool[like[k]]), ";") {
			// A header whose brace stood alone on the next line (C
			// style, where a statement ends in ";"), read like a new
			// line that is no statement and opens nothing: that is the
			// header sent without its brace (if (...), a function's
			// first line), its block dropped, not the block rewritten
			// as a call.
			continue
		}
		if !outer && !byCall && like[k] >= 0 && opens(pool[like[k]]) {
			// Nor does an opening line read like a new opening line
			// take its block within a block that vanishes around it:
			// its lines answer for themselves.
			continue
		}
		if !byCall && like[k] >= 0 && unlikeIn(block) > maxVanished && readsBetterOutside(del, like, k, statementOf(ok, i), removed, pool[like[k]]) {
			// An opening line read like a new line that reads better
			// still like a removed line outside its statement: that new
			// line is that line rewritten, and the block, more
			// than a rewrite's few lines, is gone with nothing in its
			// place (a marker forgotten over it): its lines answer for
			// themselves.
			continue
		}
		for _, j := range block {
			if kk, isRemoved := at[j]; isRemoved {
				acc[kk] = true
			}
		}

	}
	first, last := -1, -1
	for k, d := range del {
		if !acc[k] && defName(d, dl) != "" {
			return false, nil
		}
		if acc[k] {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	if brackets(del) != brackets(added) {
		return false, nil
	}
	if declGone() {
		return false, nil
	}
	if first < 0 {
		// Nothing of the snippet reads like the removed lines: the
		// line-for-line reading has judged them already.
		return false, nil
	}
	vanished := first + len(del) - 1 - last
	var left []int
	for k := range del {
		if !acc[k] && counts(del[k], false) {
			left = append(left, removed[k])
			if first <= k && k <= last {
				vanished++
			}
		}
	}
	return vanished <= maxVanished, left
}

// declRE matches a line that declares names: Go's "a, b :=", "var a",
// "const a", JavaScript's "let a", "const a", "var a" (an assignment may
// change a value declared elsewhere; a loop's variables are its own).
var declRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:(?:var|let|const)\s+([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*(?:\s*,\s*[A-Za-z_$][\w$]*)*)\s*:=)`)
})

// declared is the names line l declares.
func declared(l string) []string {
	m := declRE().FindStringSubmatch(l)
	if m == nil {
		return nil
	}
	if m[1] != "" {
		if keywords()[m[1]] {
			return nil
		}
		return []string{m[1]}
	}
	var out []string
	for _, n := range strings.Split(m[2], ",") {
		if n = strings.TrimSpace(n); n != "_" && !keywords()[n] {
			out = append(out, n)
		}
	}
	return out
}

// usesVanishedName reports whether a removed line (del, in scopes
// delScope) that no new line reads like (like) declares a name that a
// line the snippet keeps or adds (uses, in scopes usesScope) still uses in
// that scope or one nested in it, and that neither a new line of the
// snippet (pool) nor a line of the file the region keeps (elsewhere)
// declares: code that still needs the value is no rewrite of the line
// that made it (a forgotten marker dropped it).
func usesVanishedName(del, delScope, pool, uses, usesScope []string, like []int, elsewhere func(string) bool) bool {
	decl := map[string]bool{}
	for _, l := range pool {
		for _, n := range declared(l) {
			decl[n] = true
		}
	}
	var useWords [][]string // the words of each line of uses, read once when needed
	for k, d := range del {
		if like[k] >= 0 {
			continue // rewritten in place: the new line answers for it
		}
		for _, n := range declared(d) {
			if decl[n] {
				continue
			}
			if useWords == nil {
				useWords = make([][]string, len(uses))
				for j, l := range uses {
					if !isComment(l) {
						useWords[j] = words(codeOf(l))
					}
				}
			}
			for j := range uses {
				if inside(usesScope[j], delScope[k]) && slices.Contains(useWords[j], n) && !elsewhere(n) {
					return true
				}
			}
		}
	}
	return false
}

// inside reports whether scope a is scope b or one nested in it.
func inside(a, b string) bool { return a == b || b == "" || strings.HasPrefix(a, b+"/") }

// oneForOne pairs the removed lines with the lines of pool that read
// like them (at least half of its names, one of two characters or more),
// one pool line for one removed line, in order (a monotone alignment, as
// a line diff pairs lines); but only a comment stands for a comment (and
// for the code it holds commented out), and only a definition for a
// definition. It returns, per removed line, its
// pool line or -1.
func oneForOne(del, pool []string, dl dialect) []int {
	return oneForOneIn(del, pool, dl, nil, nil, nil)
}

// oneForOneIn is oneForOne where fit, if not nil, says whether pool line
// j may stand for removed line k at all, pre prefers pairs of removed
// lines with pool lines (a line replaced by one line in place), where
// both are of a kind (comment, definition) and fit, and keeps, if not
// nil, says whether pool line j keeps the identity of removed line k
// (keepsIdentity), which a pair in place or by reading alike needs; with
// fit, a definition may also be stood for by one of another name (a
// rename) that reads like it, where fit allows it.
func oneForOneIn(del, pool []string, dl dialect, fit func(k, j int) bool, pre map[int]int, keeps func(k, j int) bool) []int {
	out := make([]int, len(del))
	for k := range del {
		out[k] = -1
	}
	if len(del) == 0 || len(pool) == 0 {
		return out
	}
	pn := poolNames(pool, dl)
	prePool := map[int]int{}
	for k, j := range pre {
		prePool[j] = k
	}
	// weight is how well pool line j stands for removed line k: 0 when
	// it may not; a pair always outweighs any difference in how well the
	// pairs read, so the alignment pairs as many lines as it can first.
	const pair = 1000
	score := make([][]float64, len(del)) // how alike a pair reads, among pairs of one weight
	dn := poolNames(del, dl)             // each removed line read once
	weight := func(k, j int) int {
		d := del[k]
		comment, def := dn[k].comment, dn[k].def
		if pk, ok := prePool[j]; ok {
			if pk == k && comment == pn[j].comment && (def == "") == (pn[j].def == "") && (fit == nil || fit(k, j)) && (keeps == nil || keeps(k, j)) {
				return pair + 2 // replaced in place
			}
		}
		if !comment && pn[j].comment && commentedOut(d, pool[j]) {
			return pair + 1 // the line commented out: kept in sight
		}
		if def != "" && def != "()" && importsName(pool[j], def) {
			return pair + 1 // the definition moved to a module, imported in its place
		}
		if n := dn[k].member; n != "" && pn[j].member != n && callsName(pool[j], n) {
			return 0 // a function given to a member is no call of it: the call needs it
		}
		nd := dn[k].names
		if ld, lp := dn[k].data, pn[j].data; len(nd) == 0 && ld != nil && lp != nil && comment == pn[j].comment && (fit == nil || fit(k, j)) {
			// A row of data reads like a row by its values, as a line
			// of code does by its names.
			if slices.Equal(ld, lp) {
				return pair + 1 // a data row, its punctuation or a comment changed
			}
			if o := overlap(ld, lp); o >= 0.5 && (keeps == nil || keeps(k, j)) {
				score[k][j] = o
				return pair // a row rewritten keeps most of its values
			}
			return 0
		}
		if len(nd) == 0 && len(words(d)) > 0 && strings.TrimSpace(d) == strings.TrimSpace(pool[j]) && comment == pn[j].comment && (fit == nil || fit(k, j)) {
			return pair + 1 // a line without a name (case 8:) re-indented is itself
		}
		if len(nd) == 0 || comment != pn[j].comment || (def == "") != (pn[j].def == "") || pn[j].report && !dn[k].report ||
			def != pn[j].def && fit == nil || fit != nil && !fit(k, j) {
			return 0
		}
		if def != "" && def == pn[j].def || strings.TrimSpace(d) == strings.TrimSpace(pool[j]) {
			return pair + 1 // the same definition (its signature changed), or the line re-indented
		}
		if def != "" {
			// A definition renamed: the rest of its line reads alike.
			if o := renamedLike(d, pool[j], dl); o > 0 {
				score[k][j] = o
				return pair
			}
			return 0
		}
		if o := overlap(nd, pn[j].names); o >= 0.5 && sharesLong(nd, pn[j].names) && (keeps == nil || keeps(k, j)) {
			score[k][j] = o
			return pair
		}
		return 0
	}
	// The pairs form a monotone alignment, as a line diff of the region
	// would: a rewrite keeps its lines' order, so a removed line read
	// like stands before the next one's new line. Of the alignments
	// that pair the most lines, the one that pairs each removed line in
	// turn with the new line that reads most like it.
	K, J := len(del), len(pool)
	w := make([][]int, K)
	for k := range w {
		w[k] = make([]int, J)
		score[k] = make([]float64, J)
		for j := range w[k] {
			w[k][j] = weight(k, j)
		}
	}
	best := make([][]int, K+1) // best[k][j]: the most of del[k:] paired with pool[j:]
	for k := range best {
		best[k] = make([]int, J+1)
	}
	for k := K - 1; k >= 0; k-- {
		for j := J - 1; j >= 0; j-- {
			b := max(best[k+1][j], best[k][j+1])
			if x := w[k][j]; x > 0 {
				b = max(b, best[k+1][j+1]+x)
			}
			best[k][j] = b
		}
	}
	for k, j := 0, 0; k < K && j < J; {
		pick := -1
		for jj := j; jj < J && best[k][jj] == best[k][j]; jj++ {
			if x := w[k][jj]; x > 0 && best[k][jj] == best[k+1][jj+1]+x && (pick < 0 || x > w[k][pick] || x == w[k][pick] && score[k][jj] > score[k][pick]) {
				pick = jj
			}
		}
		if pick >= 0 {
			out[k] = pick
			j = pick + 1
		}
		k++
	}
	return out
}

// blockOf is the lines of the block line i of ok opens: the lines after
// it indented deeper, and the line closing it at its depth ("}", ")",
// "]"); none when the block does not end within ok (next is the file's
// line after ok: a block ending with ok ends there when next is not
// deeper).
func blockOf(ok []string, i int, next string) []int {
	depth := indentWidth(ok[i])
	var out []int
	for j := i + 1; j < len(ok); j++ {
		t := strings.TrimSpace(ok[j])
		if t == "" {
			continue
		}
		if indentWidth(ok[j]) > depth {
			out = append(out, j)
			continue
		}
		if indentWidth(ok[j]) == depth && strings.ContainsAny(t[:1], "})]") {
			out = append(out, j)
		}
		return out
	}
	if strings.TrimSpace(next) != "" && indentWidth(next) <= depth {
		return out
	}
	return nil
}

// callsName reports whether line l calls name: name and "(", not the end
// of a longer name nor a private field ("#name(").
func callsName(l, name string) bool {
	for i := 0; ; {
		k := strings.Index(l[i:], name+"(")
		if k < 0 {
			return false
		}
		k += i
		if k == 0 || !isNameByte(l[k-1]) && l[k-1] != '#' {
			return true
		}
		i = k + 1
	}
}

// callRE matches a called name and its opening parenthesis.
var callRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\(`)
})

// exprRE matches an argument that names a variable: a name or a selector.
var exprRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$`)
})

// callNames reports whether the removed line d (code, not a comment, a
// line that opens a block) is stood for by a call in the new line l: the
// call's arguments name at least half of the values d works on (its
// subjects), or a name of d is a part of the called name of several
// parts (processItem, for item).
func callNames(d, l string) (ok, byField bool) {
	if isComment(d) || isComment(l) {
		return false, false
	}
	d = stringsRE().ReplaceAllString(d, `""`)
	l = stringsRE().ReplaceAllString(l, `""`)
	nd := names(d)
	subj := subjects(d)
	named := map[string]bool{}
	for _, m := range callRE().FindAllStringSubmatchIndex(l, -1) {
		if reports(l, m[2], m[3]) {
			continue
		}
		if parts := nameParts(l[m[2]:m[3]]); len(parts) > 1 {
			for _, p := range parts {
				if len(p) >= 3 && !keywords()[p] && slices.Contains(nd, p) {
					return true, false
				}
			}
		}
		for _, arg := range callArgs(l[m[1]:]) {
			arg = strings.TrimLeft(arg, "&*")
			for _, v := range subj {
				// A value, or the value it is a field of (p for p.dirty).
				switch {
				case arg == v:
					named[v] = true
				case arg != "" && strings.HasPrefix(v, arg+"."):
					named[v] = true
					byField = true
				}
			}
		}
	}
	return len(named) > 0 && 2*len(named) >= len(subj), byField
}

// blockValues reads the block of lines ok[at...]: the words of its code
// (comments aside), and the values it works on that it neither declares
// nor imports, two characters or more (free): what a helper that takes
// the block's place is passed.
func blockValues(ok []string, at []int, imported map[string]bool) (body []string, free map[string]bool) {
	free, decl := map[string]bool{}, map[string]bool{}
	for _, b := range at {
		if isComment(ok[b]) {
			continue
		}
		code := stringsRE().ReplaceAllString(ok[b], `""`)
		body = append(body, words(code)...)
		for _, n := range declared(code) {
			decl[n] = true
		}
		for _, v := range subjects(codeOf(ok[b])) {
			if root := rootOf(v); !imported[root] && len(root) >= 2 {
				free[root] = true
			}
		}
	}
	for n := range decl {
		delete(free, n)
	}
	return body, free
}

// rootOf is the value an argument or a selector starts from: p for
// &p.dirty.
func rootOf(expr string) string {
	return strings.SplitN(strings.TrimLeft(expr, "&*"), ".", 2)[0]
}

// passes reports whether the calls of line l pass at least half of the
// values in free (their arguments' roots), or free is empty.
func passes(l string, free map[string]bool) bool {
	l = stringsRE().ReplaceAllString(l, `""`)
	got := map[string]bool{}
	for _, m := range callRE().FindAllStringSubmatchIndex(l, -1) {
		for _, a := range callArgs(l[m[1]:]) {
			if root := rootOf(a); free[root] {
				got[root] = true
			}
		}
	}
	return 2*len(got) >= len(free)
}

// importedNames is the names content imports (packages, modules), each
// line read as the deletion rule reads an import (importNames): values a
// block uses that no helper is passed.
func importedNames(content []byte, d dialect) map[string]bool {
	out := map[string]bool{}
	for len(content) > 0 {
		l := content
		if i := bytes.IndexByte(content, '\n'); i >= 0 {
			l, content = content[:i], content[i+1:]
		} else {
			content = nil
		}
		if bytes.Contains(l, []byte("import")) || bytes.Contains(l, []byte("require")) || d.goImports && bytes.IndexByte(l, '"') >= 0 {
			for _, n := range importNames(string(l), d.goImports) {
				out[n] = true
			}
		}
	}
	return out
}

// callsNewHelper reports whether line l calls a function the file does
// not hold anywhere (holds says; a helper new with the snippet) with
// arguments that are all values the block uses (used: the words of its
// body), one at least, and that pass at least half of the values of two
// characters or more the block works on and neither declares nor
// imports (free): a call inserted before a forgotten marker passes one
// value of the block it would replace, not what that block needs.
func callsNewHelper(l string, used []string, free map[string]bool, holds func(string) bool) bool {
	if isComment(l) {
		return false
	}
	l = stringsRE().ReplaceAllString(l, `""`)
	for _, m := range callRE().FindAllStringSubmatchIndex(l, -1) {
		name := l[m[2]:m[3]]
		if m[2] > 0 && l[m[2]-1] == '.' || keywords()[name] || reports(l, m[2], m[3]) {
			continue
		}
		args := callArgs(l[m[1]:])
		ok := len(args) > 0
		passed := map[string]bool{}
		for _, a := range args {
			a = strings.TrimLeft(a, "&*")
			root := rootOf(a)
			if keywords()[a] || !exprRE().MatchString(a) || !slices.Contains(used, root) {
				ok = false
				break
			}
			if free[root] {
				passed[root] = true
			}
		}
		if ok && 2*len(passed) >= len(free) && !holds(name) {
			return true
		}
	}
	return false
}

// reportRE matches what a call that only reports is called: print,
// log, debug and their kin, or anything of console, log, logger, logging.
var reportRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:f?print|f?println|f?printf|s?log|logf|debug|debugf|info|infof|warn|warnf|warning|trace|tracef)$|(?:^|\.)(?:console|log|logger|logging|slog)\.$`)
})

// reports reports whether the call named l[s:e] (its receiver before it)
// only reports (a print or a log line): such a call does none of the work
// of a block, so it stands for none.
func reports(l string, s, e int) bool {
	if reportRE().MatchString(l[s:e]) {
		return true
	}
	r := receiverStart(l, s)
	return r < s && reportRE().MatchString(l[r:s])
}

// receiverStart is where the receiver of the call named at l[s:] starts
// (s when it has none): the run of names and dots before it.
func receiverStart(l string, s int) int {
	for s > 0 && (l[s-1] == '.' || l[s-1] == '_' || unicode.IsLetter(rune(l[s-1])) || unicode.IsDigit(rune(l[s-1]))) {
		s--
	}
	return s
}

// reportLine reports whether line l is a print or a log call: it reads
// like no line of code that does work, whatever values it shows.
func reportLine(l string) bool {
	m := callRE().FindStringSubmatchIndex(l)
	if m == nil || !reports(l, m[2], m[3]) {
		return false
	}
	// Nothing but the call's receiver before it.
	return strings.TrimSpace(l[:receiverStart(l, m[2])]) == ""
}

// subjectRE matches a name or a selector, and whether a call follows.
var subjectRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*(\s*\()?`)
})

// subjects are the values line d works on: its names and selectors (a,
// a.b; a method's receiver, not the method) of two characters or more
// that are not keywords, each once. A selector is one value: a call
// naming fd stands for no line that works on fd.net alone.
func subjects(d string) []string {
	var out []string
	for _, m := range subjectRE().FindAllStringSubmatchIndex(d, -1) {
		if m[0] > 0 && (d[m[0]-1] == '.' || d[m[0]-1] >= '0' && d[m[0]-1] <= '9') {
			continue
		}
		e := d[m[0]:m[1]]
		if m[2] >= 0 {
			// A call: its receiver is the value, if it has one.
			e = strings.TrimRight(d[m[0]:m[2]], " \t")
			i := strings.LastIndexByte(e, '.')
			if i < 0 {
				continue
			}
			e = e[:i]
		}
		if len(e) < 2 || keywords()[e] || slices.Contains(out, e) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// callArgs splits the text after a call's "(" into its arguments, up to
// the matching ")".
func callArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']' || c == '}') && depth > 0:
			depth--
		case c == ')' || c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			if c == ')' {
				return out
			}
			start = i + 1
		}
	}
	return out
}

// nameParts splits a name at its case changes and underscores, lower
// case: processItem and process_item give process, item.
func nameParts(w string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(w)
	for i, r := range rs {
		switch {
		case r == '_':
			flush()
			continue
		case i > 0 && unicode.IsUpper(r) && !unicode.IsUpper(rs[i-1]):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// hasBody reports whether line l, one of the region's new lines (added,
// blank lines left out), is followed there by a line indented deeper: the
// block it opens has lines in the snippet.
func hasBody(added []string, l string) bool {
	for q, a := range added {
		if strings.TrimSpace(a) == l && q+1 < len(added) && indentWidth(added[q+1]) > indentWidth(a) {
			return true
		}
	}
	return false
}

// bodySize is how many lines with a name the block that new line l
// opens among added holds (the lines after it indented deeper).
func bodySize(added []string, l string) int {
	for q, a := range added {
		if strings.TrimSpace(a) != l {
			continue
		}
		n := 0
		for _, b := range added[q+1:] {
			if indentWidth(b) <= indentWidth(a) {
				break
			}
			if named(b) {
				n++
			}
		}
		return n
	}
	return 0
}

// pairedElsewhere reports whether pool line j reads like (like, by
// removed line) a removed line that is not inside.
func pairedElsewhere(like, removed []int, j int, inside map[int]bool) bool {
	for k, jj := range like {
		if jj == j && !inside[removed[k]] {
			return true
		}
	}
	return false
}

// renamedLike is how alike two definition lines of different names are
// once their names are set aside: the share of the rest of a's names that
// b has (1 when neither has any other and the lines are the same but for
// the names), or 0 under one half.
func renamedLike(a, b string, dl dialect) float64 {
	na, nb := defName(a, dl), defName(b, dl)
	rest := func(l, name string) []string {
		var out []string
		for _, w := range names(l) {
			if w != name {
				out = append(out, w)
			}
		}
		return out
	}
	ra, rb := rest(a, na), rest(b, nb)
	if len(ra) == 0 {
		if len(rb) == 0 && strings.Replace(strings.TrimSpace(a), na, "", 1) == strings.Replace(strings.TrimSpace(b), nb, "", 1) {
			return 1
		}
		return 0
	}
	if o := overlap(ra, rb); o >= 0.5 {
		return o
	}
	return 0
}

// tokenRE matches a line's tokens: a string literal, a number (with
// the dots of a version), a word (letters, digits, _ and $), or one
// other character.
var tokenRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`|[0-9][\\w.]*|[\\w$]+|\\S")
})

// tokens is line l's tokens (tokenRE).
func tokens(l string) []string { return tokenRE().FindAllString(l, -1) }

// wordy reports whether token t names or states something (a word, a
// number or a string literal), not punctuation.
func wordy(t string) bool {
	c := t[0]
	return isQuote(c) || c == '_' || c == '$' || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))
}

// unquote is token t without its quotes, if it is a string literal: the
// same string in the other quotes is the same value.
func unquote(t string) string {
	if len(t) >= 2 && isQuote(t[0]) {
		return t[1 : len(t)-1]
	}
	return t
}

// isQuote reports whether c opens a string literal.
func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

// commentedOut reports whether comment c holds exactly the code of line
// d: d commented out ("// x.List()" for "x.List()"), white space aside.
func commentedOut(d, c string) bool {
	t := strings.TrimSpace(c)
	for _, p := range []string{"//", "#", "--"} {
		if r, ok := strings.CutPrefix(t, p); ok {
			return strings.TrimSpace(r) == strings.TrimSpace(d) && strings.TrimSpace(d) != ""
		}
	}
	return false
}

// importsName reports whether line l imports name: an import statement
// (import ..., from ... import ..., const ... = require(...)) that
// names it.
func importsName(l, name string) bool {
	t := strings.TrimSpace(l)
	if !strings.HasPrefix(t, "import ") && !strings.HasPrefix(t, "from ") && !strings.Contains(t, "require(") {
		return false
	}
	return slices.Contains(names(l), name)
}

// works reports whether line l calls something or is a comprehension:
// what a block's work can be rewritten as, on one line.
func works(l string) bool {
	c := stringsRE().ReplaceAllString(codeOf(l), `""`)
	return callRE().MatchString(c) || strings.Contains(c, " for ")
}

// functionHeader reports whether line l opens a function's body: an
// arrow function's (({a, b}) => {) or one written with function.
func functionHeader(l string) bool {
	t := strings.TrimSpace(codeOf(l))
	return strings.HasSuffix(t, "=> {") || strings.HasPrefix(t, "function")
}

// loops reports whether line l is a loop's header (for, while).
func loops(l string) bool {
	w := headerWord(strings.TrimSpace(l))
	return w == "for" || w == "while"
}

// conditional reports whether line l is a condition's header (if, elif,
// else if; C's without its brace too).
func conditional(l string) bool {
	t := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(l), "} "), "else ")
	w := headerWord(t)
	return w == "if" || w == "elif" || w == "unless"
}

// headerWord is the first word of t, up to a space or "(" (for (, if().
func headerWord(t string) string {
	w, _, _ := strings.Cut(t, " ")
	w, _, _ = strings.Cut(w, "(")
	return w
}

// chooses reports whether line l's code chooses between values: a
// conditional expression (a if c else b, c ? a : b) or a boolean one
// (&&, ||, and, or), which an if block can be rewritten as.
func chooses(l string) bool {
	c := stringsRE().ReplaceAllString(codeOf(l), `""`)
	return strings.Contains(c, " if ") || strings.Contains(c, "?") || strings.Contains(c, "&&") || strings.Contains(c, "||") || strings.Contains(c, " or ") || strings.Contains(c, " and ")
}

// readsBetterOutside reports whether new line l, which removed line k
// reads like, reads better still (by the share of names each holds of
// the other's, both ways) like a removed line outside the lines of ok
// in stmt (k's statement or block) that no new line reads like: l is
// that line rewritten.
func readsBetterOutside(del []string, like []int, k int, stmt, removed []int, l string) bool {
	in := map[int]bool{}
	for _, b := range stmt {
		in[b] = true
	}
	nl := names(l)
	both := func(d string) float64 { nd := names(d); return overlap(nd, nl) + overlap(nl, nd) }
	own := both(del[k])
	for kk, d := range del {
		if kk == k || like[kk] >= 0 || in[removed[kk]] {
			continue
		}
		nd := names(d)
		if overlap(nd, nl) >= 0.5 && sharesLong(nd, nl) && both(d) > own {
			return true
		}
	}
	return false
}

// statementOf is the lines of the statement whose block line i of ok
// opens: its block, deeper lines and the line closing it at its depth,
// and the blocks that continue it there (else, elif, except, finally,
// catch, "} else {"), to where ok ends if the statement does not end
// within it.
func statementOf(ok []string, i int) []int {
	depth := indentWidth(ok[i])
	var out []int
	for j := i; ; {
		k := j + 1
		for ; k < len(ok); k++ {
			if strings.TrimSpace(ok[k]) == "" {
				continue
			}
			if indentWidth(ok[k]) <= depth {
				break
			}
			out = append(out, k)
		}
		if k >= len(ok) || indentWidth(ok[k]) != depth {
			return out
		}
		closes := strings.ContainsAny(strings.TrimSpace(ok[k])[:1], "})]")
		if !closes && !continues(ok[k]) {
			return out
		}
		out = append(out, k)
		if !continues(ok[k]) {
			return out
		}
		j = k
	}
}

// continues reports whether line l continues the statement of the
// block before it: else, elif, except, finally, catch (after a "}").
func continues(l string) bool {
	t := strings.TrimLeft(strings.TrimSpace(l), "} ")
	for _, w := range []string{"else", "elif", "except", "finally", "catch"} {
		if strings.HasPrefix(t, w) && (len(t) == len(w) || !isNameByte(t[len(w)])) {
			return true
		}
	}
	return false
}

// strayPairs is the pairs of like (removed line k read like pool line
// j) where k stands inside the block of a removed opening line that no
// new line reads like, and j reads better still (readsBetterOutside)
// like a removed line outside that block that no new line reads like:
// a line of a block dropped whole, read like the new first line of what
// follows it.
func strayPairs(ok []string, removed []int, del []string, like []int, pool []string, next string) [][2]int {
	at := map[int]int{}
	for k, i := range removed {
		at[i] = k
	}
	var out [][2]int
	for k0, i0 := range removed {
		if like[k0] >= 0 || !opens(del[k0]) || isComment(del[k0]) {
			continue
		}
		block := blockOf(ok, i0, next)
		whole := append([]int{i0}, block...)
		for _, b := range block {
			if k, isRemoved := at[b]; isRemoved && like[k] >= 0 && readsBetterOutside(del, like, k, whole, removed, pool[like[k]]) {
				out = append(out, [2]int{k, like[k]})
			}
		}
	}
	return out
}
