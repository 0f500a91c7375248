package matcher

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// notFound builds the refusal for a block no tier located, with the nearest
// candidates so that one retry can succeed.
func notFound(content []byte, old string, opt Options) *Refusal {
	r := newSearcher(content, opt).notFound(old)
	if opt.ExactOnly {
		// Say when a fuzzy tier would have found it.
		if m, err := fuzzyFind(content, old, Options{Budget: opt.Budget, NewText: opt.NewText}); err == nil {
			r.Reason = fmt.Sprintf("%s match the old text by the %s tier (similarity %.2f), but fuzzy matching is off",
				lineRange(m.Line, m.EndLine), m.Tier, m.Similarity)
		}
	}
	return r
}

// commonLine: a line of old text found more often than this in the file
// is too common to say where a near miss is (a lone brace, a blank line).
const commonLine = 64

// notFound explains a miss: the nearest candidates, what differs at the
// nearest, and whether the edit looks already applied.
func (s *searcher) notFound(old string) *Refusal {
	r := &Refusal{Kind: ErrNotFound}
	lines, _ := splitOld(old)
	lead, trail := 0, 0
	if vs := trimBlanks(variant{lines: lines}, ""); len(vs) > 0 {
		v := vs[len(vs)-1]
		lines, lead, trail = v.lines, v.lead, v.trail
	}
	numbered, sep := stripLineNumbers(lines)
	if numbered != nil {
		lines = numbered
	}
	r.Candidates = s.nearest(lines)
	s.withBlankEnds(r.Candidates, lead, trail)
	switch {
	case len(r.Candidates) > 0:
		c := r.Candidates[0]
		r.Reason = fmt.Sprintf("nearest is %s (similarity %.2f): %s", lineRange(c.Line, c.EndLine), c.Similarity, c.Reason)
	case s.w.out:
		r.Reason = fmt.Sprintf("fuzzy search stopped at its work budget (%d units)", s.w.budget)
	case s.keys != nil:
		r.Reason = "no line of the old text is in the file"
	}
	if numbered != nil {
		msg := fmt.Sprintf("every line of the old text starts with a line number (%q, as a numbered view of the file shows it), which is not part of the file: send the old and new text without them", sep)
		if ms := exactAll(s.content, strings.Join(numbered, "\n"), true); len(ms) == 1 {
			msg += fmt.Sprintf("; without them, the old text stands at %s", lineRange(ms[0].Line, ms[0].EndLine))
			r.Candidates = []Candidate{{Line: ms[0].Line, EndLine: ms[0].EndLine, Similarity: 1,
				Text: linesText(s.content, ms[0].Line, ms[0].EndLine), Reason: "the old text without its line numbers"}}
		} else if r.Reason != "" {
			msg += "; without them, " + r.Reason
		}
		r.Reason = msg
	}
	if at := s.alreadyApplied(old, r.Candidates); at > 0 {
		msg := fmt.Sprintf("the new text is already in the file at line %d: the edit looks already applied", at)
		if r.Reason != "" {
			msg += "; " + r.Reason
		}
		r.Reason = msg
	}
	return r
}

// withBlankEnds grows each candidate, found for the old text without the
// blank lines at its ends, by up to lead blank file lines before it and
// trail after it: the old text's own blank lines, where the file has them,
// belong to the place it names.
func (s *searcher) withBlankEnds(cs []Candidate, lead, trail int) {
	for i := range cs {
		c := &cs[i]
		grown := false
		for k := 0; k < lead && c.Line > 1 && isBlank(s.fl.Text(c.Line-1)); k++ {
			c.Line--
			grown = true
		}
		for k := 0; k < trail && c.EndLine < s.fl.Count() && isBlank(s.fl.Text(c.EndLine+1)); k++ {
			c.EndLine++
			grown = true
		}
		if grown {
			c.Text = linesText(s.content, c.Line, c.EndLine)
		}
	}
}

// stripLineNumbers returns the lines without the line-number prefixes of a
// numbered view ("12: ", "    12\t", "12→", with optional leading spaces),
// and the first prefix, when every line has one of the same form and the
// numbers count up by one; otherwise nil. Used only to explain a miss:
// nothing is located by it.
func stripLineNumbers(lines []string) ([]string, string) {
	var out []string
	first, form, prev := "", "", 0
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		d := 0
		for d < len(t) && t[d] >= '0' && t[d] <= '9' {
			d++
		}
		n, err := strconv.Atoi(t[:d])
		if d == 0 || d > 9 || err != nil {
			return nil, ""
		}
		rest, f := t[d:], ""
		for _, s := range []string{": ", "\t", "\u2192", " | ", "|"} {
			if strings.HasPrefix(rest, s) {
				f = s
				break
			}
		}
		blank := rest == "" || strings.TrimRight(rest, " :\t|") == "" && f == "" // "13:" for a blank line
		if f == "" && !blank || i > 0 && n != prev+1 || f != "" && form != "" && f != form {
			return nil, ""
		}
		if f != "" && form == "" {
			first, form = l[:len(l)-len(rest)+len(f)], f
		}
		prev = n
		if blank {
			out = append(out, "")
		} else {
			out = append(out, rest[len(f):])
		}
	}
	if form == "" {
		return nil, "" // numbers alone
	}
	return out, first
}

func lineRange(a, b int) string {
	if a == b {
		return fmt.Sprintf("line %d", a)
	}
	return fmt.Sprintf("lines %d-%d", a, b)
}

// alreadyApplied returns the 1-based line where the caller's new text
// stands where the old text would stand, or 0. The new text standing
// somewhere is no evidence by itself (a short new text such as "err"
// stands in many files). It counts when the edit reads as a change of
// that place: the new text carries the old text's own first and last lines
// around its change (sharesEnds), or old and new text are mostly the same
// text (alike: a one-line change sent again); and when the old text has
// near candidates, the new text stands at the nearest.
func (s *searcher) alreadyApplied(old string, near []Candidate) int {
	nt := s.opt.NewText
	if strings.TrimSpace(nt) == "" || strings.Contains(old, nt) {
		return 0
	}
	oldLines, _ := splitOld(old)
	newLines, _ := splitOld(nt)
	if !sharesEnds(oldLines, newLines) && !alike(old, nt) {
		return 0
	}
	needle := []byte(nt)
	if !bytes.Contains(s.content, needle) && bytes.Contains(s.content, []byte("\r\n")) {
		needle = []byte(strings.ReplaceAll(nt, "\n", "\r\n"))
	}
	for from, n := 0, 0; n < 64; n++ {
		i := bytes.Index(s.content[from:], needle)
		if i < 0 {
			return 0
		}
		i += from
		line := bytes.Count(s.content[:i], []byte{'\n'}) + 1
		end := line + bytes.Count(needle, []byte{'\n'})
		if len(near) == 0 {
			return line
		}
		for _, c := range near {
			if c.Similarity < near[0].Similarity {
				break // candidates come best first
			}
			if c.Line <= end && c.EndLine >= line {
				return line
			}
		}
		from = i + 1
	}
	return 0
}

// alike reports whether a and b are mostly the same text: their common
// start and end (white space at the ends aside) cover at least 60% of the
// longer one.
func alike(a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	n := max(len(a), len(b))
	if n == 0 {
		return false
	}
	p, q := commonEnds([]byte(a), []byte(b))
	return 10*(p+q) >= 6*n
}

// sharesEnds reports whether old and new text begin with the same
// non-blank line and end with the same non-blank line, around a change of
// at least one line: new text that stands somewhere with those lines
// stands where the old text would.
func sharesEnds(old, new []string) bool {
	old, new = withoutBlankEnds(old), withoutBlankEnds(new)
	if len(old) < 2 || len(new) < 2 || len(old)+len(new) < 5 {
		return false
	}
	same := func(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) }
	return same(old[0], new[0]) && same(old[len(old)-1], new[len(new)-1])
}

// refuseAt refuses the single candidate at file line p that a line tier
// equated with old but could not map (its relative indentation differs).
func (s *searcher) refuseAt(v variant, p int, tier Tier, why string) *Refusal {
	m := s.spanOf(v, p, false)
	return &Refusal{
		Kind: ErrNotFound, Tier: tier,
		Reason: fmt.Sprintf("%s match the old text only if indentation is ignored, and %s",
			lineRange(m.Line, m.EndLine), why),
		Candidates: []Candidate{{
			Line: m.Line, EndLine: m.EndLine, Similarity: s.similarityAt(v.lines, p),
			Text: linesText(s.content, m.Line, m.EndLine), Reason: why,
		}},
	}
}

// nearest finds up to maxCandidates places that look most like old: lines
// of old vote for where the block would start if they are where they
// stand in the file; the best-voted starts are then aligned line by line
// and ranked (rank). The hint, if any, breaks ties between equally good
// places.
func (s *searcher) nearest(old []string) []Candidate {
	n := len(old)
	if n == 0 || !s.index() {
		return nil
	}
	N := len(s.keys)
	idx := map[uint64][]int{}
	for i, l := range old {
		if !isBlank(l) {
			k := looseKey(l)
			idx[k] = append(idx[k], i)
		}
	}
	if !s.w.spend(N) {
		return nil
	}
	pos := map[uint64][]int{}
	count := map[uint64]int{}
	for q, k := range s.keys {
		if _, in := idx[k]; in {
			count[k]++
			if ps := pos[k]; len(ps) <= commonLine {
				pos[k] = append(ps, q)
			}
		}
	}
	// A line votes with the weight 1/(its count in the file): a line found
	// once says where the block is, a "}" found 40 times hardly does.
	// Old lines vote in their order, so that the sums are the same from
	// run to run.
	votes := map[int]float64{}
	for i, l := range old {
		if isBlank(l) {
			continue
		}
		ps := pos[looseKey(l)]
		if len(ps) == 0 || len(ps) > commonLine {
			continue
		}
		if !s.w.spend(len(ps)) {
			return nil
		}
		w := 1 / float64(len(ps))
		for _, q := range ps {
			votes[q-i] += w
		}
	}
	if len(votes) == 0 && !s.similarVotes(old, idx, count, votes) {
		return nil
	}
	starts := make([]int, 0, len(votes))
	for st := range votes {
		starts = append(starts, st)
	}
	hint := s.opt.Hint - 1
	nearHint := func(a, b int) int {
		if s.opt.Hint > 0 {
			return cmp.Compare(abs(a-hint), abs(b-hint))
		}
		return 0
	}
	slices.SortFunc(starts, func(a, b int) int {
		if c := cmp.Compare(votes[b], votes[a]); c != 0 {
			return c
		}
		if c := nearHint(a, b); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	type near struct {
		c     Candidate
		same  int     // old lines that stand there as they are (loosely)
		fresh float64 // how much its other lines look like the new text's own
		votes float64
	}
	fresh := s.freshLines(old)
	var all []near
	seen := map[[2]int]bool{}
	for _, st := range starts {
		if len(all) == describeStarts {
			break
		}
		c, same, ok := s.describe(old, st)
		if !ok {
			break
		}
		if seen[[2]int{c.Line, c.EndLine}] {
			continue
		}
		seen[[2]int{c.Line, c.EndLine}] = true
		all = append(all, near{c, same, fresh(c), votes[st]})
	}
	slices.SortStableFunc(all, func(a, b near) int {
		if c := cmp.Compare(b.same, a.same); c != 0 {
			return c
		}
		if c := cmp.Compare(b.c.Similarity, a.c.Similarity); c != 0 {
			return c
		}
		if c := cmp.Compare(b.fresh, a.fresh); c != 0 {
			return c
		}
		if c := cmp.Compare(b.votes, a.votes); c != 0 {
			return c
		}
		return nearHint(a.c.Line-1, b.c.Line-1)
	})
	var out []Candidate
	for _, a := range all {
		if len(out) == maxCandidates {
			break
		}
		overlaps := false
		for _, t := range out {
			if a.c.Line <= t.EndLine && t.Line <= a.c.EndLine {
				overlaps = true
			}
		}
		if !overlaps {
			out = append(out, a.c)
		}
	}
	return out
}

// describeStarts bounds the starts nearest aligns and ranks.
const describeStarts = 24

// freshLines returns a measure, for a candidate, of how much the file's
// lines there that are none of the old text's look like the new text's
// lines that are none of the old text's: a caller rewrites the lines it
// means to change, so a line it skipped or got wrong in the old text tends
// to come back, changed, in the new text. 0 without Options.NewText. It
// only breaks ties between places the old text alone cannot tell apart.
func (s *searcher) freshLines(old []string) func(Candidate) float64 {
	if s.opt.NewText == "" {
		return func(Candidate) float64 { return 0 }
	}
	inOld := map[uint64]bool{}
	for _, l := range old {
		inOld[looseKey(l)] = true
	}
	nl, _ := splitOld(s.opt.NewText)
	var added []string
	for _, l := range nl {
		if !isBlank(l) && !inOld[looseKey(l)] {
			added = append(added, trimmed(l))
		}
	}
	return func(c Candidate) float64 {
		var sum float64
		if len(added) == 0 || !s.w.spend((c.EndLine-c.Line+1)*len(added)) {
			return 0
		}
		for q := c.Line; q <= c.EndLine; q++ {
			if isBlank(s.fl.Text(q)) || inOld[s.keys[q-1]] {
				continue
			}
			f := trimmed(string(s.fl.Text(q)))
			best := 0.0
			for _, a := range added {
				best = max(best, affixSimilarity(a, f))
			}
			sum += best
		}
		return round3(sum)
	}
}

// similarLines bounds the old lines similarVotes compares with every file
// line.
const similarLines = 4

// similarVotes finds where the block may stand when no line of it is both
// in the file and rare enough to vote: each old line that is nowhere in
// the file (a line the caller got wrong) is compared with every file line,
// and the file lines most like it vote, by their similarity, for where the
// block would start; the old lines too common to vote then add their
// weight, 1/(their count), to the starts where they stand. It reports
// false when the work budget runs out.
func (s *searcher) similarVotes(old []string, idx map[uint64][]int, count map[uint64]int, votes map[int]float64) bool {
	N := len(s.keys)
	var missing []int
	for k, is := range idx {
		if count[k] == 0 {
			missing = append(missing, is...)
		}
	}
	// The longest lines first: they say the most.
	slices.SortFunc(missing, func(a, b int) int {
		if c := cmp.Compare(len(trimmed(old[b])), len(trimmed(old[a]))); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if len(missing) > similarLines {
		missing = missing[:similarLines]
	}
	type near struct {
		q   int
		sim float64
	}
	slices.Sort(missing)
	for _, i := range missing {
		if !s.w.spend(N) {
			return false
		}
		t := trimmed(old[i])
		var best []near
		for q := range N {
			sim := affixSimilarity(t, trimmed(string(s.fl.Text(q+1))))
			if sim >= 0.5 {
				best = append(best, near{q, sim})
			}
		}
		slices.SortStableFunc(best, func(a, b near) int { return cmp.Compare(b.sim, a.sim) })
		if len(best) > describeStarts {
			best = best[:describeStarts]
		}
		for _, b := range best {
			votes[b.q-i] += b.sim
		}
	}
	for st := range votes {
		for i, l := range old {
			if isBlank(l) {
				continue
			}
			k := looseKey(l)
			if p := st + i; count[k] > commonLine && p >= 0 && p < N && s.keys[p] == k {
				votes[st] += 1 / float64(count[k])
			}
		}
	}
	return true
}

// trimmed is a line without the white space at its ends.
func trimmed(l string) string { return strings.TrimSpace(l) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// describe aligns old with the file around start st and reports the
// candidate: its lines, similarity, text, and the first difference.
func (s *searcher) describe(old []string, st int) (Candidate, int, bool) {
	n, N := len(old), len(s.keys)
	lo, hi := max(0, st-2), min(N, st+n+2)
	if lo >= hi {
		return Candidate{}, 0, false
	}
	win := s.keys[lo:hi]
	ok := make([]uint64, n)
	for i, l := range old {
		ok[i] = looseKey(l)
	}
	var pairs [][2]int // (old line, file line)
	if n*len(win) <= maxAlignCells && s.w.spend(n*len(win)) {
		pairs = lcsPairs(ok, win)
		for i := range pairs {
			pairs[i][1] += lo
		}
	} else if s.w.out {
		return Candidate{}, 0, false
	}
	// The candidate spans from the first to the last aligned line, grown
	// by the old lines before and after them that found no partner.
	first, last := max(0, st), min(N, st+n)-1
	if len(pairs) > 0 {
		a, b := pairs[0], pairs[len(pairs)-1]
		first = max(lo, a[1]-a[0])
		last = min(hi-1, b[1]+(n-1-b[0]))
	}
	if first > last {
		return Candidate{}, 0, false
	}
	// Walk the alignment: score every pair, name the first difference.
	var score float64
	reason := ""
	note := func(msg string) {
		if reason == "" {
			reason = msg
		}
	}
	gap := func(oi, oj, fi, fj int) { // old [oi,oj) against file [fi,fj)
		k := 0
		for ; oi+k < oj && fi+k < fj; k++ {
			score += lineSimilarity(old[oi+k], string(s.fl.Text(fi+k+1)))
			note(fmt.Sprintf("line %d of old text differs: the file has %q at line %d (old text has %q)",
				oi+k+1, clip(s.fl.Text(fi+k+1)), fi+k+1, clip(old[oi+k])))
		}
		if oi+k < oj {
			note(fmt.Sprintf("line %d of old text is not in the file there: %q", oi+k+1, clip(old[oi+k])))
		}
		if fi+k < fj {
			note(fmt.Sprintf("the file has a line there that the old text lacks, before line %d of old text: %q at line %d",
				oi+k+1, clip(s.fl.Text(fi+k+1)), fi+k+1))
		}
	}
	oi, fi, same := 0, first, 0
	for _, p := range pairs {
		if p[1] < first || p[1] > last {
			continue
		}
		same++
		gap(oi, p[0], fi, p[1])
		f := string(s.fl.Text(p[1] + 1))
		score += lineSimilarity(old[p[0]], f)
		if old[p[0]] != f && reason == "" && strings.TrimSpace(old[p[0]]) == strings.TrimSpace(f) {
			note(fmt.Sprintf("line %d of old text differs in white space only: the file has %q at line %d",
				p[0]+1, clip(f), p[1]+1))
		}
		oi, fi = p[0]+1, p[1]+1
	}
	gap(oi, n, fi, last+1)
	if reason == "" {
		reason = "the lines match only when white space and typography are ignored"
	}
	sim := round3(2 * score / float64(n+last-first+1))
	return Candidate{
		Line: first + 1, EndLine: last + 1, Similarity: sim,
		Text: linesText(s.content, first+1, last+1), Reason: reason,
	}, same, true
}

// clip shortens a line for a message.
func clip[S ~string | ~[]byte](s S) string {
	const max = 120
	t := string(s)
	if len(t) > max {
		return t[:max] + "…"
	}
	return t
}

// lcsPairs aligns two sequences by a longest common subsequence (the
// classic O(len(a)·len(b)) table; callers bound the sizes) and returns the
// aligned index pairs in order.
func lcsPairs[T comparable](a, b []T) [][2]int {
	w := len(b) + 1
	t := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i*w+j] = t[(i+1)*w+j+1] + 1
			} else {
				t[i*w+j] = max(t[(i+1)*w+j], t[i*w+j+1])
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			out = append(out, [2]int{i, j})
			i++
			j++
		case t[(i+1)*w+j] >= t[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return out
}
