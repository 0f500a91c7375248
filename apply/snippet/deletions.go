package snippet

// What a region may delete: the line-for-line reading of the file lines a
// region replaces without showing them.

import (
	"fmt"
	"strings"

	"github.com/graftdev/graft/internal/lineindex"
)

// checkDeletions applies the deletion rule (package doc) to the file lines
// [from, to) replaced by newLines; pool is every line of the snippet that
// does not stand in the file (its new code, wherever it is). It returns
// why the region is refused (0 and "" when it may delete what it does).
func checkDeletions(fl *lineindex.Index, from, to int, newLines []string, pool []string, prose bool) (Reason, string) {
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
	pairs := trustedPairs(ok, nk)
	pairs = append(pairs, [2]int{len(ok), len(nk)})
	pi, pj := 0, 0
	var total []string // removed lines like no new line, in all gaps
	strict := ""       // why the line-for-line reading refuses
	var strictWhy Reason
	var removed []int // the removed lines that are not blank, in all gaps
	var regionAdded []string
	blankMsg := ""    // why dropping blank lines among removed code refuses, unless it is a block rewrite
	var dropped []int // those blank lines
	for _, p := range pairs {
		var deleted, added []string
		first, blanks, addedBlanks := -1, 0, 0
		var gapBlanks []int
		for i := pi; i < p[0]; i++ {
			if strings.TrimSpace(ok[i]) == "" {
				blanks++
				gapBlanks = append(gapBlanks, i)
				continue
			}
			if first < 0 {
				first = i
			}
			deleted = append(deleted, ok[i])
			removed = append(removed, i)
		}
		for j := pj; j < p[1]; j++ {
			if strings.TrimSpace(nk[j]) == "" {
				addedBlanks++
				continue
			}
			added = append(added, nk[j])
		}
		regionAdded = append(regionAdded, added...)
		if edgeBlanks(ok[pi:p[0]], false) > edgeBlanks(nk[pj:p[1]], false) || edgeBlanks(ok[pi:p[0]], true) > edgeBlanks(nk[pj:p[1]], true) {
			// A blank line at the edge of what the region replaces (next
			// to an anchor, or at the file's end) is not part of any
			// rewrite: it separates the code the region leaves alone.
			return DeletesBlank, fmt.Sprintf("it would delete a blank line of the file it does not show (near line %d): if it stays, show it or put a marker such as \"// ... existing code ...\" where it is; to delete it, use edit or replace_in_file",
				from+pi+1)
		}
		if blanks > 0 && len(deleted)+blanks > len(added)+addedBlanks {
			// Blank lines are lines too: dropping them unseen changes the
			// file as much as any other line; but blank lines among code
			// the gap rewrites go with it, when the rewrite reads as one.
			msg := fmt.Sprintf("it would delete %d blank line(s) of the file it does not show (from line %d) with nothing in their place: if they stay, put a marker such as \"// ... existing code ...\" where they are; to delete them, use edit or replace_in_file",
				blanks, from+pi+1)
			if len(deleted) == 0 || len(added) == 0 {
				return DeletesBlank, msg
			}
			if blankMsg == "" {
				blankMsg = msg
			}
			dropped = append(dropped, gapBlanks...)
		}
		kind, why, lines, unlike := replaces(deleted, added, pool)
		total = append(total, unlike...)
		if why == "" && strict == "" && len(total) > maxUnlikeRegion {
			kind, why, lines = DeletesUnlike, fmt.Sprintf("and %d of them (in all) are like none of the snippet's new lines", len(total)), listLines(total)
		}
		if why == "" && len(unlike) > 0 && len(added) > len(deleted) && !sharesAny(deleted, pool) {
			// More new lines than removed ones, and not a name in
			// common: new code inserted after the line before the gap,
			// and the file's lines after it dropped by a forgotten
			// marker (a rewrite keeps some of what it rewrites).
			kind, why, lines = DeletesUnlike, "and more new lines stand in their place, none of which shares a name with them (new code inserted and a marker forgotten)", listLines(unlike)
		}
		if why != "" {
			msg := fmt.Sprintf("it would delete %d line(s) of the file it does not show (from line %d, %q), %s: if they stay, put a marker such as \"// ... existing code ...\" where they are; to delete them, use edit or replace_in_file",
				len(deleted), from+first+1, clip(old[first]), why+lines)
			if len(added) == 0 {
				// Nothing stands in their place: no reading makes this
				// a rewrite.
				return kind, msg
			}
			if strict == "" {
				strict, strictWhy = msg, kind
			}
		}
		pi, pj = p[0]+1, p[1]+1
	}
	next := ""
	if to < fl.Count() {
		next = string(fl.Text(to + 1))
	}
	if why := cutOpening(ok, removed, nk, next); why != "" {
		return CutsBlock, why
	}
	if len(removed) > 0 && !prose && brackets(ok) != brackets(nk) {
		// An edit of code that parses opens as many brackets as it
		// closes: lines that leave some open (or close more) were cut
		// off by a forgotten marker, not rewritten.
		i := removed[0]
		verb, n := "open", brackets(ok)-brackets(nk)
		if n < 0 {
			verb, n = "close", -n
		}
		return UnpairedBrackets, fmt.Sprintf("it would delete %d line(s) of the file it does not show (from line %d, %q), and they %s %d more bracket(s) than the lines in their place: if they stay, put a marker such as \"// ... existing code ...\" where they are; to delete them, use edit or replace_in_file",
			len(removed), from+i+1, clip(old[i]), verb, n)
	}
	if strict == "" {
		// The code reads line for line: blank lines may not shrink.
		if blankMsg == "" {
			return 0, ""
		}
		return DeletesBlank, blankMsg
	}
	if rewritesBlocks(fl.Content(), ok, removed, dropped, regionAdded, pool, next) {
		return 0, ""
	}
	return strictWhy, strict
}

// cutOpening refuses a region that removes a block's opening line while
// the block's body, past the region, stays at its depth (ok is the file's
// lines the region replaces, removed the indexes of the lines it removes,
// nk its new lines, next the file line after it): the body is then
// re-parented to whatever opens a block last among the new lines. That is
// a condition rewritten (one opening line in place of one), or a marker
// forgotten after a changed line (the opening line lost among the dropped
// lines). It is a rewrite when each such opening line reads like a new
// one (rewritten in place), but for one at most whose block the region's
// last new line, an opening line that reads like no other removed one,
// takes over.
func cutOpening(ok []string, removed []int, nk []string, next string) string {
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
	lastAt := -1 // the new opening line that is the region's last line
	for _, l := range nk {
		if opens(l) && !isComment(l) {
			newOpeners = append(newOpeners, l)
		}
		if strings.TrimSpace(l) != "" {
			lastAt = -1
			if opens(l) && !isComment(l) {
				lastAt = len(newOpeners) - 1
			}
		}
	}
	cutText := make([]string, len(cut))
	for k, i := range cut {
		cutText[k] = ok[i]
	}
	pair := oneForOne(cutText, newOpeners)
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
	// region, when that line reads like no other removed opening line.
	if len(unpaired) == 1 && lastAt >= 0 && !taken[lastAt] &&
		(len(openers) == 0 || oneForOne(openers, newOpeners[lastAt:lastAt+1])[0] < 0) {
		return ""
	}
	cut = unpaired
	i := cut[len(cut)-1]
	return fmt.Sprintf("it would delete %q, which opens the block of the file's lines after the region, and leave that block's lines where they are: if it stays, show it or put a marker such as \"// ... existing code ...\" where it is; to delete it, use edit or replace_in_file",
		clip(strings.TrimSpace(ok[i])))
}

// added is the region's new lines that stand for no file line between its
// anchors (its new code), without the white space at their ends.
func added(fl *lineindex.Index, from, to int, newLines []string) []string {
	var ok, nk []string
	for i := from; i < to && i < fl.Count(); i++ {
		ok = append(ok, strings.TrimRight(string(fl.Text(i+1)), " \t\r\n"))
	}
	for _, l := range newLines {
		nk = append(nk, strings.TrimRight(l, " \t\r\n"))
	}
	paired := make([]bool, len(nk))
	for _, p := range trustedPairs(ok, nk) {
		paired[p[1]] = true
	}
	var out []string
	for j, l := range nk {
		if t := strings.TrimSpace(l); t != "" && !paired[j] {
			out = append(out, t)
		}
	}
	return out
}

// edgeBlanks counts the blank lines at the start (or, with end, the end)
// of ls.
func edgeBlanks(ls []string, end bool) int {
	n := 0
	for k := range ls {
		l := ls[k]
		if end {
			l = ls[len(ls)-1-k]
		}
		if strings.TrimSpace(l) != "" {
			break
		}
		n++
	}
	return n
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

// maxUnlike is how many of the lines a gap removes may be unlike every
// new line of the snippet: a rewrite changes a few lines beyond
// recognition; a marker forgotten drops a run of code with nothing like
// it in the snippet.
const maxUnlike = 2

// maxUnlikeRegion bounds the same over all gaps of a region: lines a
// marker left out can be split into several gaps by the braces and
// common lines the snippet happens to share with them.
const maxUnlikeRegion = 2

// maxExplained is how many removed lines one new line may stand for: a
// line rewritten is one line; ten lines that each read like the one new
// line (a table of similar calls) are a run dropped, not ten rewrites.
const maxExplained = 1

// replaces says why removing the deleted lines of one gap of a region in
// favour of the added ones is not a rewrite ("" when it is), with the
// lines that would vanish. Something must stand in their place, and at
// most maxUnlike of the removed lines may be unlike every new line of the
// snippet (the gap's, or another region's: code moved into a helper).
// A removed line is like a new line when it shares at least half of its
// words with it, one of them a name (not a keyword of the languages graft
// knows); a line without a name (a brace, "return nil", "else:") says
// nothing either way.
func replaces(deleted, added, pool []string) (kind Reason, why, lines string, unlike []string) {
	if len(deleted) == 0 {
		return 0, "", "", nil
	}
	if len(added) == 0 {
		return DeletesUnlike, "without anything in their place", "", nil
	}
	explained := make([]int, len(pool))
	pn := poolNames(pool)
	first, last := -1, -1 // the first and last removed lines like a new line
	newBlock := false     // a new line opens a block
	for _, l := range added {
		newBlock = newBlock || opens(l)
	}
	var gone []string // removed block openings that nothing stands for
	for k, d := range deleted {
		nd := names(d)
		if len(nd) == 0 {
			if opens(d) && !newBlock && !isComment(d) {
				gone = append(gone, d)
			}
			continue
		}
		report := reportLine(d)
		best, score := -1, 0.0
		for j := range pool {
			if explained[j] >= maxExplained || pn[j].report && !report {
				// A print or a log line reads like no line that works.
				continue
			}
			if o := overlap(nd, pn[j].names); o >= 0.5 && o > score && sharesLong(nd, pn[j].names) {
				best, score = j, o
			}
		}
		if best < 0 {
			unlike = append(unlike, d)
			if opens(d) && !newBlock && !isComment(d) {
				gone = append(gone, d)
			}
			continue
		}
		explained[best]++
		if first < 0 {
			first = k
		}
		last = k
	}
	switch {
	case len(unlike) > maxUnlike:
		return DeletesUnlike, fmt.Sprintf("and %d of them are like none of the snippet's new lines", len(unlike)), listLines(unlike), unlike
	case len(gone) > 0:
		// A few lines changed beyond recognition are a rewrite; a block
		// (a condition, a loop) gone with no block and no line like it
		// in its place is not, unless the second reading finds the call
		// that stands for it.
		return CutsBlock, "and a block among them opens where no new line opens one or reads like it", listLines(gone), unlike
	case first >= 0 && (first > maxUnlike || len(deleted)-1-last > maxUnlike):
		// The new lines read like the removed lines at one end of the
		// gap; the lines at its other end, like none of them, are what a
		// forgotten marker leaves out.
		lo, hi := last+1, len(deleted)
		if first > maxUnlike {
			lo, hi = 0, first
		}
		return DeletesUnlike, "and the new lines stand for only part of them", listLines(deleted[lo:hi]), unlike
	}
	return 0, "", "", unlike
}

// sharesAny reports whether a line of deleted has a name in common with
// a line of pool: one of two characters or more, or at least half of its
// names.
func sharesAny(deleted, pool []string) bool {
	for _, d := range deleted {
		for _, l := range pool {
			if sharesLongName(d, l) || nameOverlap(d, l) >= 0.5 {
				return true
			}
		}
	}
	return false
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
