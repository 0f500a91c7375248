package matcher

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/graftdev/graft/internal/lineindex"
)

// The fuzzy tiers, in the order they are tried (doc.go).
const (
	// LineEndings: the lines are equal once "\r\n" and "\n" are taken as
	// the same line break (and a missing final line break is allowed).
	LineEndings Tier = "line-endings"
	// TrailingSpace: the lines are equal but for white space at their ends.
	TrailingSpace Tier = "trailing-whitespace"
	// Indentation: the lines are equal but for their indentation, which
	// differs by one consistent transformation (a constant shift, tabs
	// for spaces or the reverse).
	Indentation Tier = "indentation"
	// Typography: as Indentation, and typographic quotes, dashes and
	// non-breaking spaces stand for their ASCII forms (or the reverse).
	Typography Tier = "typography"

	// BlankLines prefixes a tier when blank lines at either end of the old
	// text were left out to find it ("blank-lines+indentation").
	BlankLines Tier = "blank-lines"
	// Escapes prefixes a tier when the old text was found only once one
	// level of escaping was undone (literal \n, \t, \", doubled \\).
	Escapes Tier = "escapes"
)

// lineTiers are the line tiers in order; their index+1 is a candidate's
// level.
var lineTiers = [...]Tier{LineEndings, TrailingSpace, Indentation, Typography}

const (
	levelNone = iota
	levelLineEndings
	levelTrailing
	levelIndent
	levelTypography
)

// work counts the units a search spends against its budget. Every phase
// asks before it starts, so that spent never passes budget.
type work struct {
	budget, spent int
	out           bool // a phase was refused for want of budget
}

// spend books n units and reports whether they fit in the budget; when
// they do not, nothing is booked and the search must give up.
func (w *work) spend(n int) bool {
	if w.spent+n > w.budget {
		w.out = true
		return false
	}
	w.spent += n
	return true
}

// searcher holds what one fuzzy search computes lazily: the file's lines
// and their loose keys.
type searcher struct {
	content []byte
	opt     Options
	w       work
	fl      *lineindex.Index
	keys    []uint64
	unit    int // file's indentation unit, -1 until computed
}

func newSearcher(content []byte, opt Options) *searcher {
	b := opt.Budget
	if b <= 0 {
		b = DefaultBudget
	}
	return &searcher{content: content, opt: opt, w: work{budget: b}, unit: -1}
}

// index builds the line index and loose keys (one unit per line).
func (s *searcher) index() bool {
	if s.keys != nil {
		return true
	}
	// Counting line breaks is far cheaper than a unit; it tells whether
	// indexing fits before any of it is done.
	if !s.w.spend(2 * (bytes.Count(s.content, []byte{'\n'}) + 1)) {
		return false
	}
	s.fl = lineindex.Eager(s.content)
	s.keys = make([]uint64, s.fl.Count())
	for i := range s.keys {
		s.keys[i] = looseKey(s.fl.Text(i + 1))
	}
	return true
}

func (s *searcher) fileUnit() int {
	if s.unit < 0 {
		s.unit = fileIndentUnit(s.fl, &s.w)
	}
	return s.unit
}

// variant is the old text as one of the tiers reads it.
type variant struct {
	prefix      Tier // "", BlankLines, Escapes, or Escapes+"+"+BlankLines
	lines       []string
	endsNL      bool
	unescape    bool
	escapeNL    bool // line breaks read as the \n escapes the file has
	lead, trail int  // blank lines left out at the start and the end
}

func (v variant) text() string {
	t := strings.Join(v.lines, "\n")
	if v.endsNL {
		t += "\n"
	}
	return t
}

func (v variant) tier(t Tier) Tier {
	switch {
	case v.prefix == "":
		return t
	case t == Exact:
		return v.prefix
	}
	return v.prefix + "+" + t
}

// variants lists the readings of old in the order they are tried: as
// given; without some of the blank lines at its ends, fewest left out
// first; unescaped; and unescaped without blank lines at its ends.
func variants(old string) []variant {
	lines, endsNL := splitOld(old)
	plain := variant{lines: lines, endsNL: endsNL}
	out := append([]variant{plain}, trimBlanks(plain, BlankLines)...)
	if u, ok := unescape(old); ok {
		ul, uend := splitOld(u)
		uv := variant{prefix: Escapes, lines: ul, endsNL: uend, unescape: true}
		out = append(out, uv)
		out = append(out, trimBlanks(uv, Escapes+"+"+BlankLines)...)
	}
	// The reverse slip: a \n escape inside a string literal that reached
	// graft as a real line break. Read every inner line break as the two
	// characters \n (a final one stays a line break), making one line.
	if e, ok := escapeNL(old); ok {
		el, eend := splitOld(e)
		out = append(out, variant{prefix: Escapes, lines: el, endsNL: eend, escapeNL: true})
	}
	return out
}

// escapeNL writes every line break of s but a final one as the escape \n.
// It reports whether there was any to write.
func escapeNL(s string) (string, bool) {
	body, end := s, ""
	for _, e := range []string{"\r\n", "\n"} {
		if b, ok := strings.CutSuffix(s, e); ok {
			body, end = b, e
			break
		}
	}
	if !strings.Contains(body, "\n") {
		return s, false
	}
	body = strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", `\n`), "\n", `\n`)
	return body + end, true
}

// maxTrim bounds the ways of leaving out blank lines that are tried one by
// one; past it, all of them are left out at once.
const maxTrim = 2

// trimBlanks lists the readings of v without a of its leading and b of
// its trailing blank lines, fewest first, never leaving nothing.
func trimBlanks(v variant, prefix Tier) []variant {
	lead, trail := 0, 0
	for lead < len(v.lines) && isBlank(v.lines[lead]) {
		lead++
	}
	if lead == len(v.lines) {
		return nil
	}
	for isBlank(v.lines[len(v.lines)-1-trail]) {
		trail++
	}
	counts := func(n int) []int {
		var c []int
		for i := 0; i <= min(n, maxTrim); i++ {
			c = append(c, i)
		}
		if n > maxTrim {
			c = append(c, n)
		}
		return c
	}
	type ab struct{ a, b int }
	var tries []ab
	for _, a := range counts(lead) {
		for _, b := range counts(trail) {
			if a+b > 0 {
				tries = append(tries, ab{a, b})
			}
		}
	}
	slices.SortStableFunc(tries, func(x, y ab) int { return cmp.Compare(x.a+x.b, y.a+y.b) })
	out := make([]variant, 0, len(tries))
	for _, t := range tries {
		w := v
		w.prefix = prefix
		w.lines = v.lines[t.a : len(v.lines)-t.b]
		w.lead, w.trail = t.a, t.b
		if t.b > 0 {
			w.endsNL = true
		}
		out = append(out, w)
	}
	return out
}

// reread reads text the way variant v read the old text, blank lines
// aside: unescaped, or its line breaks escaped, if the old text was.
func (v variant) reread(text string) string {
	if v.escapeNL {
		if e, ok := escapeNL(text); ok {
			text = e
		}
	}
	if v.unescape {
		if u, ok := unescape(text); ok {
			text = u
		}
	}
	return text
}

// newFor reads the caller's new text the way variant v read the old text:
// unescaped (or its line breaks escaped) if it was, and without as many stray blank lines at its ends
// as the old text had (those present).
func (v variant) newFor(newText string) string {
	newText = v.reread(newText)
	if v.lead == 0 && v.trail == 0 {
		return newText
	}
	// Split without touching line endings (splitOld drops a "\r", which
	// read twice would lose one that belongs to the line).
	endsNL := strings.HasSuffix(newText, "\n")
	lines := strings.Split(strings.TrimSuffix(newText, "\n"), "\n")
	a := 0
	for a < v.lead && a < len(lines)-1 && isBlank(lines[a]) {
		a++
	}
	lines = lines[a:]
	t := 0
	for t < v.trail && len(lines) > 1 && isBlank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
		t++
	}
	if t > 0 {
		endsNL = true
	}
	out := strings.Join(lines, "\n")
	if endsNL {
		out += "\n"
	}
	return out
}

// unescape undoes one level of backslash escaping: \n, \t, \r, \", \',
// \` and \\. It reports whether anything was undone.
func unescape(s string) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, false
	}
	var b strings.Builder
	b.Grow(len(s))
	changed := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			var r byte
			switch s[i+1] {
			case 'n':
				r = '\n'
			case 't':
				r = '\t'
			case 'r':
				r = '\r'
			case '"', '\'', '\\', '`':
				r = s[i+1]
			}
			if r != 0 {
				b.WriteByte(r)
				i++
				changed = true
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String(), changed
}

// fuzzyFind runs the fuzzy tiers in order (doc.go) after the exact tier
// found nothing.
func fuzzyFind(content []byte, old string, opt Options) (Match, error) {
	_, m, err := fuzzyFindWork(content, old, opt)
	return m, err
}

// fuzzyFindWork is fuzzyFind that also reports the work units spent.
func fuzzyFindWork(content []byte, old string, opt Options) (int, Match, error) {
	s := newSearcher(content, opt)
	m, err := s.find(old)
	return s.w.spent, m, err
}

func (s *searcher) find(old string) (Match, error) {
	vs := variants(old)
	for i := 0; i < len(vs); {
		// Readings that leave out as many blank lines (at the start or at
		// the end) are tried together: the first to find something must
		// not decide alone when another finds something else.
		j := i + 1
		for j < len(vs) && sameReading(vs[i], vs[j]) {
			j++
		}
		var got []Match
		for _, v := range vs[i:j] {
			if len(v.lines) == 0 || (len(v.lines) == 1 && v.lines[0] == "") {
				continue
			}
			found, m, err := s.tryVariant(v, old, i > 0)
			if found && err != nil {
				return Match{}, err
			}
			if found {
				got = append(got, m)
			} else if s.w.out {
				return Match{}, s.outOfBudget()
			}
		}
		if len(got) > 0 {
			return s.oneOf(got)
		}
		i = j
	}
	return Match{}, s.notFound(old)
}

// sameReading reports whether variants a and b read the old text the same
// way but for which of its blank end lines they leave out, as many of
// them.
func sameReading(a, b variant) bool {
	return a.prefix == b.prefix && a.unescape == b.unescape && a.escapeNL == b.escapeNL && a.lead+a.trail == b.lead+b.trail
}

// oneOf returns the match of readings that found the same lines: equal
// once the blank lines at their ends are left out (a blank line left out
// before the block or after it, where the file has both). Readings that
// found different lines are an ambiguity.
func (s *searcher) oneOf(ms []Match) (Match, error) {
	a0, b0 := s.core(ms[0])
	for _, m := range ms[1:] {
		if a, b := s.core(m); a != a0 || b != b0 {
			return Match{}, ambiguous(s.content, ms[0].Tier, ms)
		}
	}
	return ms[0], nil
}

// core is the span of m without the blank lines at its ends.
func (s *searcher) core(m Match) (int, int) {
	a, b := m.Start, m.End
	for a < b {
		e := bytes.IndexByte(s.content[a:b], '\n')
		if e < 0 || !isBlank(s.content[a:a+e]) {
			break
		}
		a += e + 1
	}
	for a < b {
		t := bytes.TrimRight(s.content[a:b], "\r\n")
		l := bytes.LastIndexByte(t, '\n') + 1
		if !isBlank(t[l:]) {
			break
		}
		b = a + l
	}
	return a, b
}

// tryVariant runs one reading of the old text: exactly first unless it is
// the text as given (reread), then the line tiers, then the guards. found
// reports that it decided: a match (err nil) or a refusal.
func (s *searcher) tryVariant(v variant, old string, reread bool) (found bool, m Match, err error) {
	if reread {
		// A reading of old other than as given: try it exactly first.
		text := v.text()
		if !s.w.spend(len(s.content)/64 + 1) {
			return true, Match{}, s.outOfBudget()
		}
		ex := exactAll(s.content, text, true)
		if s.opt.WholeLines {
			ex = wholeLines(s.content, ex)
		} else if v.lead > 0 {
			// The blank lines left out stood before the text: it starts
			// where a line does, not inside one.
			ex = slices.DeleteFunc(ex, func(m Match) bool { return m.Start > 0 && s.content[m.Start-1] != '\n' })
		}
		if len(ex) > 1 {
			return true, Match{}, ambiguous(s.content, v.tier(Exact), ex)
		}
		if len(ex) == 1 {
			m, found = ex[0], true
			m.Tier, m.Similarity = v.tier(Exact), similarity([]string{old}, []string{text})
			vv := v
			m.adapt = func(n string) string { return vv.newFor(n) }
			m.adaptAdded = vv.reread
			m.adaptKept = func(n string, _ []int, _ int) string { return vv.reread(n) }
			if r := s.sameEdit(v, Exact, nil); r != nil {
				return true, Match{}, r
			}
		}
	}
	if !found {
		found, m, err = s.findLines(v)
	}
	if found && err == nil {
		err = s.guards(v, m)
	}
	if err != nil {
		return true, Match{}, err
	}
	return found, m, nil
}

// guards are the last checks on a fuzzy match before it is taken.
//
// A blank line left out at an end of the old text is refused when the file
// has a blank line a few lines further on (maxSkipped non-blank lines
// between) and the edit changes the old text's line next to it (or drops
// the blank line): the old text may as well have skipped those lines as
// gained a stray blank line, and the two readings would change the file
// differently. When the edit keeps that line and the blank, both readings
// leave the lines beyond the block alone, and the match is taken.
//
// A match is refused when the caller's new text (read as the old text was)
// already stands in the file where the block found does not explain it:
// overlapping the block, or elsewhere in another form than the block
// found would give it (another indentation, other unchanged lines), and
// fits there at least as tightly as the old text fits the block. The
// edit then looks made already, and the fuzzy match would make it twice
// or somewhere else. New text that stands elsewhere exactly as the block
// found would write it is a file repeating itself, not evidence. A
// deletion that leaves fewer than three non-blank lines is exempt (the
// context of a short deletion is too common to tell anything).
// maxSkipped is how many skipped lines the stray-blank guard considers.
const maxSkipped = 2

// blankWithin looks from line i (0-based) in direction dir across at most
// maxSkipped non-blank lines for a blank line, and returns its distance
// from i, or 0 when there is none (or the line next to i is blank itself,
// which a stray blank would have matched).
func blankWithin(fl *lineindex.Index, i, dir, n int) int {
	for d := 1; d <= maxSkipped+1; d++ {
		j := i + dir*d
		if j < 0 || j >= n {
			return 0
		}
		if isBlank(fl.Text(j + 1)) {
			if d == 1 {
				return 0
			}
			return d
		}
	}
	return 0
}

// blockAndBeyond lists the file's lines from..to (0-based, clamped) as the
// candidate of a stray-blank-line refusal: the block found and the lines up
// to the blank line that the old text may have skipped.
func (s *searcher) blockAndBeyond(from, to int) []Candidate {
	from, to = max(from, 0), min(to, s.fl.Count()-1)
	return []Candidate{{Line: from + 1, EndLine: to + 1, Similarity: 1,
		Text: linesText(s.content, from+1, to+1), Reason: "the block found, and the lines up to the file's blank line"}}
}

// keepsEnd reports whether the edit leaves the old text's last (dir +1)
// or first (dir -1) non-blank line as it is, as the new text's last or
// first non-blank line. Then a blank line left out at that end cannot hide
// skipped lines that the edit changes: read as a stray blank, the edit
// leaves the lines after its block alone; read as skipped lines, it was
// made by someone who did not see those lines, and leaves them alone too.
// Only an edit that changes the line next to the left-out blank (or whose
// new text ends elsewhere) could mean lines it does not show. The line is
// kept only where no reading of the edit puts its change next to the
// blank: lines the texts share at the other end are matched first, as a
// diff does, and the line must remain shared after them. "X" made "X", "X"
// (an import repeated) may add the second X after the first, by the blank,
// where lines the old text skipped would come between them.
func (s *searcher) keepsEnd(v variant, dir int) bool {
	if s.opt.NewText == "" {
		return false
	}
	// The new text must have the left-out blank lines too: an edit that
	// drops them changes what lies beyond the block under one reading
	// and not under the other.
	raw := v
	raw.lead, raw.trail = 0, 0
	all, _ := splitOld(raw.newFor(s.opt.NewText))
	blanks := 0
	for k := range all {
		i := k
		if dir > 0 {
			i = len(all) - 1 - k
		}
		if !isBlank(all[i]) {
			break
		}
		blanks++
	}
	if dir > 0 && blanks < v.trail || dir < 0 && blanks < v.lead {
		return false
	}
	nl, _ := splitOld(v.newFor(s.opt.NewText))
	ol, nn := withoutBlankEnds(v.lines), withoutBlankEnds(nl)
	if len(ol) > 0 && slices.Equal(ol, nn) {
		return true // only blank lines change, at the other end
	}
	if dir > 0 {
		p := sharedLines(ol, nn, +1)
		return sharedLines(ol[p:], nn[p:], -1) > 0
	}
	q := sharedLines(ol, nn, -1)
	return sharedLines(ol[:len(ol)-q], nn[:len(nn)-q], +1) > 0
}

// sharedLines counts the lines a and b share at their start (dir +1) or
// end (dir -1).
func sharedLines(a, b []string, dir int) int {
	n := 0
	for n < len(a) && n < len(b) {
		i, j := n, n
		if dir < 0 {
			i, j = len(a)-1-n, len(b)-1-n
		}
		if a[i] != b[j] {
			break
		}
		n++
	}
	return n
}

func (s *searcher) guards(v variant, m Match) error {
	if !s.index() {
		return s.outOfBudget()
	}
	first, last := m.Line-1, m.EndLine-1
	N := s.fl.Count()
	if v.trail > 0 && !s.keepsEnd(v, +1) {
		if d := blankWithin(s.fl, last, +1, N); d > 0 {
			return &Refusal{Kind: ErrNotFound, Tier: m.Tier, Reason: fmt.Sprintf(
				"the old text ends with a blank line where the file has %q (line %d) and a blank line %d lines further: are lines missing from the old text? (stray-blank-line guard: the edit changes the line next to it) Send the file's exact text, with the missing lines or without the blank line",
				clip(s.fl.Text(last+2)), last+2, d), Candidates: s.blockAndBeyond(first, last+d)}
		}
	}
	if v.lead > 0 && !s.keepsEnd(v, -1) {
		if d := blankWithin(s.fl, first, -1, N); d > 0 {
			return &Refusal{Kind: ErrNotFound, Tier: m.Tier, Reason: fmt.Sprintf(
				"the old text starts with a blank line where the file has %q (line %d) and a blank line %d lines before: are lines missing from the old text? (stray-blank-line guard: the edit changes the line next to it) Send the file's exact text, with the missing lines or without the blank line",
				clip(s.fl.Text(first)), first, d), Candidates: s.blockAndBeyond(first-d, last)}
		}
	}
	if s.opt.NewText == "" {
		return nil
	}
	nl, _ := splitOld(v.newFor(s.opt.NewText))
	nl = withoutBlankEnds(nl)
	if len(nl) == 0 {
		return nil
	}
	// Where the new text stands is weighed by how the caller's texts fit:
	//
	//   - It fits there more tightly than the old text fits the block found
	//     (exactly, against an indentation fit; with its blank lines, where
	//     the old text needed them left out): the caller was looking at that
	//     place, and it holds the edit already. Always evidence.
	//   - Otherwise, a deletion (the new lines are some of the old ones)
	//     whose new text stands inside the block found is what the edit
	//     keeps of that block, and the kept context of a short deletion
	//     (under three non-blank lines) is too common to tell anything: no
	//     evidence.
	//   - New text overlapping the block found is evidence: the block holds
	//     the edit already.
	//   - Elsewhere, it is evidence only if the new text, rewritten the way
	//     the block found rewrites it (indentation, typography, unchanged
	//     lines taken from the block), is not what stands there. When it is,
	//     the file simply repeats itself (two similar functions, a table).
	//     So it does when the old text stands at the block's own depth
	//     (its levels are the block's, in another style: tabs retyped as
	//     spaces) and the new text stands elsewhere at another depth: the
	//     caller was looking at the block.
	deletion := subsequence(nl, v.lines)
	adapted := s.adaptedLines(m)
	atDepth := m.Tier == Indentation && s.keepsLevels(v.lines, first)
	// A block found exactly inside a line (a reading other than as given,
	// found by bytes) fits as tightly as can be.
	lvlP, blankP := max(s.level(v.lines, first), levelLineEndings), v.lead+v.trail > 0
	firstNB, lastNB := first, last // the block found, without blank lines at its ends
	for firstNB < lastNB && isBlank(s.fl.Text(firstNB+1)) {
		firstNB++
	}
	for lastNB > firstNB && isBlank(s.fl.Text(lastNB+1)) {
		lastNB--
	}
	cs := slices.DeleteFunc(s.candidates(nl), func(c cand) bool {
		lvlQ, blankQ := s.level(nl, c.p), blankP && !s.blanksAround(c.p, len(nl), v.lead, v.trail)
		if lvlQ >= levelIndent && !s.indentFitsAt(nl, c.p) {
			// Alike once indentation is ignored, but its relative
			// indentation is not the file's: the indentation tier would
			// not find it there, so it does not stand there.
			return true
		}
		if blankP && !blankQ && lvlQ <= lvlP || blankP == blankQ && lvlQ < lvlP {
			return false // fits more tightly
		}
		if !blankP && blankQ || lvlQ > lvlP {
			// Fits more loosely: no evidence, even where it covers the
			// block found (the old text tells what stands there better:
			// a change of only what a looser tier ignores, not made yet).
			return true
		}
		if c.p <= firstNB && c.p+len(nl)-1 >= lastNB {
			return false // the block found lies inside it
		}
		explained := s.linesAt(adapted, c.p)
		inside := c.p >= first && c.p+len(nl)-1 <= last
		if deletion && inside && explained {
			return true
		}
		if c.p <= last && c.p+len(nl)-1 >= first {
			return false // overlaps the block found
		}
		if !explained && atDepth && lvlQ == levelIndent && !s.keepsLevels(nl, c.p) {
			return true // the same lines at another depth
		}
		return explained
	})
	if len(cs) > 0 {
		return &Refusal{Kind: ErrNotFound, Tier: m.Tier, Reason: fmt.Sprintf(
			"the new text is already in the file at line %d (the old text was found only by the %s tier, at line %d): the edit looks already applied (already-applied guard). If it is not, send the old text exactly as the file has it at line %d",
			cs[0].p+1, m.Tier, m.Line, m.Line),
			Candidates: []Candidate{{Line: cs[0].p + 1, EndLine: cs[0].p + len(nl), Similarity: s.similarityAt(nl, cs[0].p),
				Text: linesText(s.content, cs[0].p+1, cs[0].p+len(nl)), Reason: "the new text, already there"}}}
	}
	return nil
}

// adaptedLines is the caller's new text as m would write it, without
// blank lines at its ends.
func (s *searcher) adaptedLines(m Match) []string {
	lines, _ := splitOld(m.Adapt(s.opt.NewText))
	return withoutBlankEnds(lines)
}

// withoutBlankEnds is lines without the blank lines at their start and
// end.
func withoutBlankEnds(lines []string) []string {
	a, b := 0, len(lines)
	for a < b && isBlank(lines[a]) {
		a++
	}
	for b > a && isBlank(lines[b-1]) {
		b--
	}
	return lines[a:b]
}

// blanksAround reports whether the n lines from line p have lead blank
// lines before them and trail after them.
func (s *searcher) blanksAround(p, n, lead, trail int) bool {
	for i := 1; i <= lead; i++ {
		if p-i < 0 || !isBlank(s.fl.Text(p-i+1)) {
			return false
		}
	}
	for i := range trail {
		if p+n+i >= s.fl.Count() || !isBlank(s.fl.Text(p+n+i+1)) {
			return false
		}
	}
	return true
}

// linesAt reports whether lines stand in the file from line p on, but for
// trailing white space (the first line may start after its indentation).
func (s *searcher) linesAt(lines []string, p int) bool {
	if p+len(lines) > s.fl.Count() {
		return false
	}
	for i, l := range lines {
		f := rtrim(string(s.fl.Text(p + i + 1)))
		if i == 0 && indentOf(l) == "" {
			f = ltrim(f)
		}
		if f != rtrim(l) {
			return false
		}
	}
	return true
}

// subsequence reports whether the non-blank lines of a occur in order
// among those of b, compared loosely.
func subsequence(a, b []string) bool {
	j := 0
	for _, l := range a {
		if isBlank(l) {
			continue
		}
		k := looseKey(l)
		for j < len(b) && (isBlank(b[j]) || looseKey(b[j]) != k) {
			j++
		}
		if j == len(b) {
			return false
		}
		j++
	}
	return true
}

func (s *searcher) outOfBudget() *Refusal {
	return &Refusal{Kind: ErrNotFound, Reason: fmt.Sprintf(
		"fuzzy search stopped at its work budget (%d units) without a unique match; give the file's exact text", s.w.budget)}
}

// cand is a place where every line of a variant equals the file's lines
// under the loosest line tier.
type cand struct {
	p     int // first file line
	level int
}

// findLines runs the line tiers for one variant. found reports that a
// tier decided (a match or a refusal); otherwise the next variant is
// tried.
func (s *searcher) findLines(v variant) (found bool, m Match, err error) {
	if !s.index() {
		return false, Match{}, nil
	}
	cands := s.candidates(v.lines)
	if len(cands) == 0 {
		return false, Match{}, nil
	}
	for lvl := levelLineEndings; lvl <= levelTypography; lvl++ {
		var in []cand
		for _, c := range cands {
			if c.level > levelNone && c.level <= lvl {
				in = append(in, c)
			}
		}
		if len(in) == 0 {
			continue
		}
		tier := v.tier(lineTiers[lvl-1])
		if len(in) > 1 {
			ps := make([]int, len(in))
			for i, c := range in {
				ps[i] = c.p
			}
			return true, Match{}, s.ambiguousAt(v, tier, ps)
		}
		c := in[0]
		if !s.opt.WholeLines {
			rs := s.partialRivals(v, c.p, lvl)
			if s.w.out {
				return true, Match{}, s.outOfBudget()
			}
			if len(rs) > 0 {
				return true, Match{}, s.rivalsRefusal(v, tier, append(rs, c.p))
			}
		}
		a, ok, why := s.adapter(v, c.p, lvl)
		if !ok {
			return true, Match{}, s.refuseAt(v, c.p, tier, why)
		}
		if r := s.sameEdit(v, lineTiers[lvl-1], a); r != nil {
			return true, Match{}, r
		}
		if r := s.openTypography(v, c.p, tier, a); r != nil {
			return true, Match{}, r
		}
		if r := s.openIndent(v, c.p, tier, a); r != nil {
			return true, Match{}, r
		}
		if r := s.openAlignment(v, c.p, tier, a); r != nil {
			return true, Match{}, r
		}
		m := s.spanOf(v, c.p, a.partial)
		m.Tier = tier
		m.Similarity = s.similarityAt(v.lines, c.p)
		vv := v
		m.adapt = func(n string) string { return a.adapt(vv.newFor(n)) }
		m.adaptAdded = func(n string) string { return a.adaptAdded(vv.reread(n)) }
		m.adaptKept = func(n string, kept []int, oldLines int) string { return a.adaptKept(vv.reread(n), kept, oldLines) }
		return true, m, nil
	}
	return false, Match{}, nil
}

// candidates lists where the variant's lines all have the file's loose
// keys, checked line by line, each with the first tier that equates them.
// The rarest line of the old text anchors the scan.
func (s *searcher) candidates(old []string) []cand {
	n, N := len(old), len(s.keys)
	if n == 0 || n > N {
		return nil
	}
	ok := make([]uint64, n)
	for i, l := range old {
		ok[i] = looseKey(l)
	}
	// Count, in one pass over the file, how often each old key occurs.
	if !s.w.spend(N) {
		return nil
	}
	count := make(map[uint64]int, n)
	for _, k := range ok {
		count[k] = 0
	}
	for _, k := range s.keys {
		if c, in := count[k]; in {
			count[k] = c + 1
		}
	}
	anchor := -1
	for i, k := range ok {
		if count[k] == 0 {
			return nil // a line that is nowhere cannot match
		}
		if anchor < 0 || (k != blankKey && (ok[anchor] == blankKey || count[k] < count[ok[anchor]])) {
			anchor = i
		}
	}
	var out []cand
	ak := ok[anchor]
	for q, k := range s.keys {
		if k != ak {
			continue
		}
		p := q - anchor
		if p < 0 || p+n > N {
			continue
		}
		if !s.w.spend(n) {
			return nil
		}
		match := true
		for i := range n {
			if s.keys[p+i] != ok[i] {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		if lvl := s.level(old, p); lvl > levelNone {
			out = append(out, cand{p: p, level: lvl})
		}
	}
	return out
}

// level is the first line tier under which old equals the file's lines
// from p on, or levelNone (keys collided).
func (s *searcher) level(old []string, p int) int {
	lvl := levelLineEndings
	for i, o := range old {
		f := s.fl.Text(p + i + 1)
		switch {
		case string(f) == o:
		case string(rtrim(f)) == rtrim(o):
			lvl = max(lvl, levelTrailing)
		case string(rtrim(ltrim(f))) == rtrim(ltrim(o)):
			lvl = max(lvl, levelIndent)
		case foldEqual(rtrim(ltrim(f)), rtrim(ltrim(o))):
			lvl = levelTypography
		default:
			return levelNone
		}
	}
	return lvl
}

// adapter checks the indentation at a single candidate and prepares the
// rewriting of new text; it reports false and why when the old text's
// relative indentation does not fit the file's.
func (s *searcher) adapter(v variant, p, lvl int) (*lineAdapter, bool, string) {
	n := len(v.lines)
	last := p + n - 1
	a := &lineAdapter{
		old:     v.lines,
		file:    make([]string, n),
		endsNL:  v.endsNL,
		lastEOL: s.fl.HasEOL(last + 1),
	}
	for i := range n {
		a.file[i] = string(s.fl.Text(p + i + 1))
	}
	if lvl >= levelTrailing {
		a.trail = trailArtifact(v.lines, a.file)
	}
	if lvl >= levelIndent {
		var sample [][]string
		sample = append(sample, nonBlankIndents(v.lines))
		if s.opt.NewText != "" {
			nl, _ := splitOld(v.newFor(s.opt.NewText))
			sample = append(sample, nonBlankIndents(nl))
		}
		pairs := indentPairs(v.lines, a.file, 0)
		checked := s.opt.NewText != ""
		im, ok := mapIndent(pairs, sample, s.fileUnit, checked)
		if !ok && n > 1 && indentOf(v.lines[0]) == "" && indentOf(a.file[0]) != "" && !s.opt.WholeLines {
			// The old text may start after the first line's indentation,
			// as an exact match may: map the other lines alone.
			if im2, ok2 := mapIndent(indentPairs(v.lines, a.file, 1), sample, s.fileUnit, checked); ok2 {
				im, ok, a.partial = im2, true, true
				a.file[0] = a.file[0][len(indentOf(a.file[0])):]
			}
		}
		if !ok {
			return nil, false, inconsistentIndent(pairs)
		}
		a.indent, a.reindent = im, im.kind != sameIndent
		a.learnBlanks()
		if lvl >= levelTypography {
			a.learnTypography()
		}
	}
	return a, true, ""
}

func nonBlankIndents(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if !isBlank(l) {
			out = append(out, indentOf(l))
		}
	}
	return out
}

func indentPairs(old, file []string, from int) []pair {
	var ps []pair
	for i := from; i < len(old); i++ {
		if isBlank(old[i]) || isBlank(file[i]) {
			continue
		}
		ps = append(ps, pair{old: indentOf(old[i]), file: indentOf(file[i])})
	}
	return ps
}

// inconsistentIndent names the first line whose indentation change differs
// from the first line's.
func inconsistentIndent(ps []pair) string {
	fileTabs := slices.ContainsFunc(ps, func(p pair) bool { return strings.Contains(p.file, "\t") })
	if m, ok := mixedTabs(ps, fileTabs, 0, true); ok && m.mixed != nil {
		return "the file writes this block's indentation in more than one form (tabs, spaces), so new lines could take either"
	}
	for i := 1; i < len(ps); i++ {
		if _, ok := mapIndent(ps[:i+1], nil, func() int { return 0 }, true); !ok {
			return fmt.Sprintf("the old text's relative indentation differs from the file's (old %q where the file has %q)",
				ps[i].old, ps[i].file)
		}
	}
	return "the old text's indentation cannot be mapped onto the file's"
}

// sameEdit refuses an edit whose new text differs from the old text only
// in what the tier ignored: the tier cannot tell whether that edit is
// still to be made or already made, so it does not guess.
func (s *searcher) sameEdit(v variant, t Tier, a *lineAdapter) *Refusal {
	if s.opt.NewText == "" {
		return nil
	}
	nl, nEnds := splitOld(v.newFor(s.opt.NewText))
	if t == Exact {
		if v.text() == v.newFor(s.opt.NewText) {
			return &Refusal{Kind: ErrNotFound, Reason: fmt.Sprintf(
				"old and new text differ only in the %s around them; give the file's exact text", v.prefix)}
		}
		return nil
	}
	if len(nl) != len(v.lines) || nEnds != v.endsNL {
		return nil
	}
	for i := range nl {
		o, n := v.lines[i], nl[i]
		var eq bool
		switch t {
		case LineEndings:
			eq = o == n
		case TrailingSpace:
			eq = rtrim(o) == rtrim(n)
		case Indentation:
			eq = rtrim(ltrim(o)) == rtrim(ltrim(n))
		default:
			eq = foldEqual(rtrim(ltrim(o)), rtrim(ltrim(n)))
		}
		if !eq {
			return nil
		}
	}
	if t == Indentation && !s.indentFits(nl, a.file) && s.reindentDecided(v.lines, nl, a.file) {
		// The new text re-indents some lines relative to the others, and
		// the block found does not stand so: the edit is not made there.
		return nil
	}
	return &Refusal{Kind: ErrNotFound, Tier: v.tier(t), Reason: fmt.Sprintf(
		"the edit only changes what the %s tier ignores, so it cannot be located fuzzily; give the file's exact text", t)}
}

// indentFits reports whether the caller's lines, equal to the file's
// lines once indentation is ignored, would be found there by the
// indentation tier: one transformation maps their indentation onto the
// file's. Lines whose relative indentation differs do not stand there.
func (s *searcher) indentFits(lines, file []string) bool {
	_, ok := mapIndent(indentPairs(lines, file, 0), [][]string{nonBlankIndents(lines)}, s.fileUnit, true)
	return ok
}

// reindentDecided reports whether the new indentation of the lines that
// new re-indents (new is old line for line, some lines indented
// otherwise) is decided: old shows the caller's unit itself (it indents
// with tabs, or steps from one indentation to a deeper one; the re-indented
// lines cannot tell it, they are what is to be read), and every plausible
// reading of how old's indentation maps onto file's writes them the same
// way (readingsAgree).
func (s *searcher) reindentDecided(old, nw, file []string) bool {
	oi := nonBlankIndents(old)
	if !slices.ContainsFunc(oi, func(ind string) bool { return strings.Contains(ind, "\t") }) {
		if _, steps := unitOf([][]string{oi}); !steps {
			return false
		}
	}
	pairs, sample := indentPairs(old, file, 0), [][]string{oi}
	var inds []string
	for i := range nw {
		if nw[i] != old[i] && !isBlank(nw[i]) {
			inds = append(inds, indentOf(nw[i]))
			// A level moves by whole units: a line moved by part of one
			// reads another unit than the old text's steps.
			if m, _, ok := levelShiftOf(pairs, sample, s.fileUnit); ok {
				_, eo, ok1 := parseIndent(indentOf(old[i]), m.oldTabs, m.oldUnit)
				_, en, ok2 := parseIndent(indentOf(nw[i]), m.oldTabs, m.oldUnit)
				if !ok1 || !ok2 || eo != en {
					return false
				}
			}
		}
	}
	return readingsAgree(pairs, sample, s.fileUnit, inds)
}

// keepsLevels reports whether lines, equal to the file's lines from p
// (0-based) once indentation is ignored, stand at the file's own depth:
// their indentation maps onto the file's level for level (in another
// style or unit, or as wide counting a tab as some width), not shifted.
func (s *searcher) keepsLevels(lines []string, p int) bool {
	file := make([]string, len(lines))
	for i := range lines {
		file[i] = string(s.fl.Text(p + i + 1))
	}
	im, ok := mapIndent(indentPairs(lines, file, 0), [][]string{nonBlankIndents(lines)}, s.fileUnit, true)
	if !ok {
		return false
	}
	switch im.kind {
	case sameIndent, tabWidth:
		return true
	case levelShift:
		return im.delta == 0
	}
	return false
}

// indentFitsAt is indentFits against the file's lines from p (0-based).
func (s *searcher) indentFitsAt(lines []string, p int) bool {
	file := make([]string, len(lines))
	for i := range lines {
		file[i] = string(s.fl.Text(p + i + 1))
	}
	return s.indentFits(lines, file)
}

// ambiguousAt is the ambiguity of the variant's lines found by tier at
// file lines ps (0-based, in order), each listed from its first line to
// its last, or to the file's last line for a partial-line rival whose last
// line begins after the final line break (rivals.go).
func (s *searcher) ambiguousAt(v variant, tier Tier, ps []int) *Refusal {
	ms := make([]Match, len(ps))
	for i, p := range ps {
		w := v
		w.lines = v.lines[:min(len(v.lines), s.fl.Count()-p)]
		ms[i] = s.spanOf(w, p, false)
		ms[i].Tier = tier
		ms[i].Similarity = s.similarityAt(w.lines, p)
	}
	return ambiguous(s.content, tier, ms)
}

// spanOf is the byte span of the variant's lines at file line p.
func (s *searcher) spanOf(v variant, p int, partial bool) Match {
	last := p + len(v.lines) - 1
	start := s.fl.Start(p + 1)
	if partial {
		start += len(indentOf(s.fl.Text(p + 1)))
	}
	end := s.fl.Start(last+1) + len(s.fl.Text(last+1))
	if v.endsNL {
		end = s.fl.End(last + 1)
	}
	return Match{Start: start, End: end, Line: p + 1, EndLine: last + 1}
}
