package matcher

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/graftdev/graft/internal/indent"
)

// lineAdapter rewrites new text for a block located by a line tier. It
// knows the old lines as the caller gave them, the file's lines they were
// matched to, and the tier's transformations.
type lineAdapter struct {
	old      []string // caller's old lines (after variant transforms)
	file     []string // the file's lines they matched, without line breaks
	endsNL   bool     // the located span ends with the last line's break
	lastEOL  bool     // the last matched file line has a line break
	indent   indentMap
	reindent bool        // apply indent to new lines
	partial  bool        // span starts after the first line's indentation
	typo     *typography // per-occurrence typography, for the typography tier
	// trail is the white space the caller added at the end of every
	// matched line beyond the file's line, the same on each (" "), or "":
	// the trailing white-space tier's transformation, undone on the
	// changed lines that end with exactly it.
	trail string
	// blanks is what the old text's lines of white space only show of
	// the caller's: shifted with the block (some stands for the file's
	// line under the indentation map, not as sent), kept as sent (some
	// stands for it as sent, not mapped), or nothing (blanksUnshown).
	blanks blankEvidence
}

type blankEvidence int

const (
	blanksUnshown blankEvidence = iota
	blanksShifted
	blanksAsSent
)

// trailArtifact returns the white space that every non-blank old line has
// beyond the file's line (the old line being the file's line followed by
// it, their indentation aside), when it is the same on all of them and not
// empty; otherwise "".
func trailArtifact(old, file []string) string {
	art := ""
	for i, o := range old {
		if isBlank(o) {
			continue
		}
		// After the indentation, which the indentation tier maps on its own.
		t, ok := strings.CutPrefix(ltrim(o), ltrim(file[i]))
		if !ok || t == "" || len(rtrim(t)) != 0 || art != "" && t != art {
			return ""
		}
		art = t
	}
	return art
}

// maxAlignCells bounds the old×new table used to align lines in Adapt.
const maxAlignCells = 1 << 20

// adapt maps newText onto the file: each new line that is one of the old
// lines unchanged (aligned by a longest common subsequence) becomes the
// file's actual line, byte for byte; every other new line gets the tier's
// transformations (indentation, typography).
func (a *lineAdapter) adapt(newText string) string {
	if newText == "" {
		return ""
	}
	out, _ := a.adaptChecked(newText)
	return out
}

// adaptAdded is adapt for text whose every line is new (Match.AdaptAdded):
// no new line is aligned with an old one.
func (a *lineAdapter) adaptAdded(newText string) string {
	return a.adaptKept(newText, nil, len(a.old))
}

// adaptKept is adaptAdded with the caller's alignment kept (Match.AdaptKept):
// kept[j] names the old line new line j is, -1 a line it adds, of
// oldLines old lines; where these are not the located old lines (another
// count), kept is not one entry a line or not in order, nothing is
// aligned. The text is written line for line: a last empty line stays.
func (a *lineAdapter) adaptKept(newText string, kept []int, oldLines int) string {
	if newText == "" {
		return ""
	}
	nl, endsNL := splitOld(newText)
	match := make([]int, len(nl))
	for j := range match {
		match[j] = -1
	}
	if oldLines == len(a.old) && len(kept) == len(nl) {
		last := -1
		for j, i := range kept {
			if i < 0 {
				continue
			}
			if i <= last || i >= len(a.old) {
				for k := range match {
					match[k] = -1
				}
				break // not an alignment of these old lines
			}
			match[j], last = i, i
		}
	}
	out, _, _ := a.render(nl, endsNL, match)
	if strings.HasSuffix(newText, "\n") && !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	return out
}

// adaptChecked is adapt, also reporting the first character of a changed
// line whose typography the block leaves open (the block shows both
// readings of it and nothing decides this occurrence); such a character is
// kept as the caller typed it.
func (a *lineAdapter) adaptChecked(newText string) (string, string) {
	if newText == "" {
		return "", ""
	}
	out, open, _ := a.adaptLines(newText)
	return out, open
}

// adaptLines is adaptChecked, also reporting the first new line whose
// indentation a block that writes its own both ways leaves open
// (mixedIndent).
func (a *lineAdapter) adaptLines(newText string) (string, string, string) {
	nl, endsNL := splitOld(newText)
	match, _ := a.alignBoth(nl)
	return a.render(nl, endsNL, match)
}

// render writes the new lines nl for the alignment match (adaptLines).
func (a *lineAdapter) render(nl []string, endsNL bool, match []int) (string, string, string) {
	open, openIndent := "", ""
	reindent := func(j int, line string) string {
		ind := indentOf(line)
		if a.indent.mixed == nil {
			return a.indent.apply(ind)
		}
		out, ok := a.mixedIndent(line, a.gapOld(match, j))
		if !ok && openIndent == "" {
			openIndent = fmt.Sprintf("line %d of the new text, indented %q (%d columns, a tab counting %d), could take the tabs or the spaces",
				j+1, ind, indent.Columns(ind, a.indent.tabW), a.indent.tabW)
		}
		return out
	}
	var b strings.Builder
	for j, line := range nl {
		if j > 0 {
			b.WriteByte('\n')
		}
		if i := match[j]; i >= 0 {
			b.WriteString(a.file[i])
			continue
		}
		if a.trail != "" {
			// The caller's trailing white space, as on every matched line.
			line = strings.TrimSuffix(line, a.trail)
		}
		if isBlank(line) && line != "" && a.reindent && a.shiftsBlank(nl, j, line) {
			line = reindent(j, line)
		}
		if !isBlank(line) {
			if a.reindent && !(a.partial && j == 0) {
				ind := indentOf(line)
				line = reindent(j, line) + line[len(ind):]
			}
			if a.typo != nil {
				var why string
				line, why = a.typo.retype(line, a.gapOld(match, j), j)
				if open == "" {
					open = why
				}
			}
		}
		b.WriteString(line)
	}
	// The old text covered the last line's break: so does the new text,
	// unless the file's last line had none to replace.
	if endsNL && (!a.endsNL || a.lastEOL) {
		b.WriteByte('\n')
	}
	return b.String(), open, openIndent
}

// learnBlanks reads what the old text's lines of white space only show
// (blanks): the first that the indentation map changes and that stands for
// a file line of white space only, mapped or as sent, decides.
func (a *lineAdapter) learnBlanks() {
	im := a.indent
	for i, o := range a.old {
		if o == "" || !isBlank(o) || !isBlank(a.file[i]) || im.mixed != nil || im.apply(o) == o {
			continue
		}
		switch a.file[i] {
		case im.apply(o):
			a.blanks = blanksShifted
		case o:
			a.blanks = blanksAsSent
		default:
			continue
		}
		return
	}
}

// shiftsBlank reports whether the new line j, of white space only, was
// sent shifted with the block, and so is shifted back with it (16 spaces
// sent for the file's 12 stay 12). A line of white space only is all
// indentation, or none: the old text's own such lines show which the
// caller did (blanks); where it has none, the line is indentation when it
// is exactly the indentation the caller wrote on a non-blank line next to
// it, as editors leave a blank line inside a block. Otherwise it is kept
// as sent, as Aider keeps it: a commit's " " inside a block sent four
// spaces deeper is no shifted indentation, and stripping it lost a byte.
func (a *lineAdapter) shiftsBlank(nl []string, j int, line string) bool {
	switch a.blanks {
	case blanksShifted:
		return true
	case blanksAsSent:
		return false
	}
	for _, step := range []int{-1, 1} {
		for k := j + step; k >= 0 && k < len(nl); k += step {
			if !isBlank(nl[k]) {
				if indentOf(nl[k]) == line {
					return true
				}
				break
			}
		}
	}
	return false
}

// mixedIndent decides the indentation of a new line as the caller wrote
// it (its indentation ind), in a block of the file that writes some width in more than one
// form, or otherwise than the file's style (indentMap.mixed); gap lists
// the old lines the new line may have been made from (gapOld). Its width
// c under the block's tab width w is kept; it is written:
//
//   - as spaces when c is narrower than a tab (every style agrees);
//   - as sent when the caller wrote it as some line of the block does
//     and as no old line does (copied from the file);
//   - as the file writes the old lines of the gap at width c that the new
//     line was made from (madeFrom), when they all write it one way (a
//     changed line keeps the form of the line it changes);
//   - as the block writes width c, when it writes it in one form, unless
//     that form is spaces alone, a tab or more wide, in a block with tabs
//     (a raw string's or a comment's alignment is no evidence for code).
//
// Otherwise the form is open: it reports false and the file's style (the
// block is refused when the new text is checked: openIndent).
func (a *lineAdapter) mixedIndent(line string, gap []int) (string, bool) {
	mb, w := a.indent.mixed, a.indent.tabW
	ind := indentOf(line)
	c := indent.Columns(ind, w)
	if c < w {
		return strings.Repeat(" ", c), true
	}
	if !mb.oldForm[ind] && slices.Contains(mb.forms[c], ind) {
		return ind, true
	}
	form := ""
	for _, i := range gap {
		if isBlank(a.file[i]) || !madeFrom(line, a.old[i]) {
			continue
		}
		f := indentOf(a.file[i])
		if indent.Columns(f, w) != c {
			continue
		}
		if form != "" && f != form {
			form = ""
			break
		}
		form = f
	}
	if form != "" {
		return form, true
	}
	if fs := mb.forms[c]; len(fs) == 1 && (!a.indent.fileTabs || strings.Contains(fs[0], "\t")) {
		return fs[0], true
	}
	return a.indent.styled(c), false
}

// madeFrom reports whether a new line reads as a change of an old one,
// their indentation aside: one extends the other, or they are alike
// (affixSimilarity at least one half: "c2()" from "c()", not "count++;"
// from "}").
func madeFrom(nw, old string) bool {
	n, o := strings.TrimSpace(nw), strings.TrimSpace(old)
	if n == "" || o == "" {
		return false
	}
	return strings.HasPrefix(n, o) || strings.HasPrefix(o, n) || affixSimilarity(n, o) >= 0.5
}

// gapOld lists the old lines that new line j, which is not one of them,
// may have been made from: those between the old lines aligned with the
// nearest aligned new lines before and after it.
func (a *lineAdapter) gapOld(match []int, j int) []int {
	lo, hi := 0, len(a.old)
	for k := j - 1; k >= 0; k-- {
		if match[k] >= 0 {
			lo = match[k] + 1
			break
		}
	}
	for k := j + 1; k < len(match); k++ {
		if match[k] >= 0 {
			hi = match[k]
			break
		}
	}
	var out []int
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

// alignBoth aligns the new lines with the old ones (alignLines),
// and leaves unaligned a new line that the alignment could as well have
// paired with another old line of the same text whose file line differs
// (two "}" lines, one with trailing spaces, and the new text keeps one):
// which of them the caller kept is open, so that line is written from the
// caller's text with the tier's transformations, as a changed line is,
// rather than with the bytes of either. The other alignment is the one
// that prefers the latest old lines (the sequences reversed).
//
// alignBoth returns that alignment and the one that prefers the latest
// old lines (the sequences reversed), with the same lines left
// unaligned. Where they still differ, the new text repeats a line the
// old text has once (a "}" kept and a "}" added): which of them is the
// old line kept, and so gets the file's bytes, is open too
// (openAlignment).
func (a *lineAdapter) alignBoth(nl []string) (early, late []int) {
	early = alignLines(a.old, nl)
	ro, rn := slices.Clone(a.old), slices.Clone(nl)
	slices.Reverse(ro)
	slices.Reverse(rn)
	rev := alignLines(ro, rn)
	late = make([]int, len(nl))
	for j := range late {
		late[j] = -1
		if k := rev[len(nl)-1-j]; k >= 0 {
			late[j] = len(a.old) - 1 - k
		}
	}
	for j := range early {
		i, k := early[j], late[j]
		if i >= 0 && k >= 0 && k != i && a.file[k] != a.file[i] {
			early[j], late[j] = -1, -1
		}
	}
	return early, late
}

// alignLines returns for each new line the index of the old line it is
// aligned with, or -1. Lines are aligned when equal, by a longest common
// subsequence; past maxAlignCells only common leading and trailing lines
// are aligned.
func alignLines(old, nw []string) []int {
	match := make([]int, len(nw))
	for j := range match {
		match[j] = -1
	}
	// Common prefix and suffix first: cheap and usually everything.
	p, s := commonEnds(old, nw)
	for i := range p {
		match[i] = i
	}
	for i := 1; i <= s; i++ {
		match[len(nw)-i] = len(old) - i
	}
	o, n := old[p:len(old)-s], nw[p:len(nw)-s]
	if len(o) == 0 || len(n) == 0 || len(o)*len(n) > maxAlignCells {
		return match
	}
	for _, pr := range lcsPairs(o, n) {
		match[p+pr[1]] = p + pr[0]
	}
	return match
}

// learnTypography records, for the typography tier, every occurrence in
// the matched lines of a character that has typographic forms (quotes,
// dashes, spaces): what the caller typed, what the file has there, and the
// characters around it. Nothing is recorded when the caller's text and the
// file agree on every such character.
func (a *lineAdapter) learnTypography() {
	t := &typography{lines: make([]typoLine, len(a.old)), changed: map[rune]bool{}}
	for i := range a.old {
		o, f := []rune(strings.TrimSpace(a.old[i])), []rune(strings.TrimSpace(a.file[i]))
		if len(o) != len(f) {
			continue // folding is rune for rune: not the same line after all
		}
		t.lines[i] = typoLine{old: o, file: f}
		for k, r := range o {
			if !hasForms(r) {
				continue
			}
			t.add(typoKey{typed: r, ctx: contextOf(o, k)}, f[k])
			t.add(typoKey{typed: r}, f[k])
			if r != f[k] {
				t.changed[foldRune(r)] = true
				t.plain = t.plain || r >= utf8.RuneSelf && f[k] == foldRune(r)
			}
		}
	}
	for _, l := range a.file {
		t.hyphenRuns = t.hyphenRuns || strings.Contains(l, "--")
	}
	if len(t.changed) > 0 {
		a.typo = t
	}
}

// typography is what the typography tier learnt from the matched lines:
// each line pair rune by rune, and for each character with typographic
// forms that the caller typed, the file's forms of its occurrences, by the
// characters around them and over all.
type typography struct {
	lines   []typoLine
	forms   map[typoKey][]rune
	changed map[rune]bool // folded characters the caller typed differently somewhere
	plain   bool          // the caller typed typographic punctuation where the file has ASCII
	// hyphenRuns: the matched lines write "--", so a dash the caller typed
	// may stand for more than one hyphen.
	hyphenRuns bool
}

type typoLine struct{ old, file []rune } // trimmed, the same length; nil if not

// typoKey is a typed character with its neighbours' classes, or with no
// context (ctx zero) for all its occurrences.
type typoKey struct {
	typed rune
	ctx   [2]rune
}

func (t *typography) add(k typoKey, form rune) {
	if t.forms == nil {
		t.forms = map[typoKey][]rune{}
	}
	if !slices.Contains(t.forms[k], form) {
		t.forms[k] = append(t.forms[k], form)
	}
}

// hasForms reports whether r is one of the characters that the typography
// tier folds: a quote, a dash or a space, in any form.
func hasForms(r rune) bool {
	switch foldRune(r) {
	case '\'', '"', '-', ' ':
		return true
	}
	return false
}

// contextOf classes the characters on each side of rs[k]: '^' and '$' at
// the ends, 's' for space, 'w' for a letter, digit or underscore, and any
// other character as itself (folded).
func contextOf(rs []rune, k int) [2]rune {
	class := func(r rune) rune {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			return 'w'
		case unicode.IsSpace(r) || foldRune(r) == ' ':
			return 's'
		}
		return foldRune(r)
	}
	c := [2]rune{'^', '$'}
	if k > 0 {
		c[0] = class(rs[k-1])
	}
	if k+1 < len(rs) {
		c[1] = class(rs[k+1])
	}
	return c
}

// maxTypoAlign bounds the rune table of aligning one new line with the old
// lines it may have been made from.
const maxTypoAlign = 1 << 18

// retype gives one changed new line the file's typography, occurrence by
// occurrence, and never by the character alone. A character with
// typographic forms takes the file's form only where that occurrence is
// accounted for: aligned, character by character, with an occurrence in
// the old line it was made from (gap lists the candidates), and with a
// neighbour of it aligned too (anchored), it takes what
// the file has at that occurrence; otherwise it takes the form that every
// occurrence of the same typed character with the same neighbours in the
// block has in the file. An occurrence with neighbours the block does not
// show keeps the caller's character when the block reads that character
// one way only; when the block shows it read several ways and nothing
// decides, the character is kept and why is said (the caller refuses).
func (t *typography) retype(line string, gap []int, j int) (string, string) {
	rs := []rune(line)
	// The body starts after the leading white space, as learnTypography
	// trims the lines it learns from (strings.TrimSpace).
	body := len(rs) - len([]rune(strings.TrimLeftFunc(line, unicode.IsSpace)))
	aligned := t.align(rs[body:], gap)
	code := codeSpans(rs)
	open := ""
	for q := body; q < len(rs); q++ {
		r := rs[q]
		if !hasForms(r) || !t.changed[foldRune(r)] && !(t.plain && r >= utf8.RuneSelf) {
			continue
		}
		at, ok := aligned[q-body]
		if code[q] && r < utf8.RuneSelf && !(ok && codeSpans(t.lines[at[0]].old)[at[1]]) {
			// Inside a code span typesetting leaves ASCII alone, as
			// every typesetter does, unless the occurrence it is made
			// from stood in one too: `"{?}"` made from the prose "{?}"
			// took its curly quotes (Catch2's docs).
			continue
		}
		if ok && t.anchored(aligned, q-body, at, len([]rune(rtrim(string(rs[body:]))))) {
			rs[q] = t.lines[at[0]].file[at[1]]
			continue
		}
		exact := t.forms[typoKey{typed: r, ctx: contextOf(rs[body:], q-body)}]
		any := t.forms[typoKey{typed: r}]
		switch {
		case len(exact) == 1:
			rs[q] = exact[0]
		case len(exact) > 1 || len(any) > 1:
			if open == "" {
				open = fmt.Sprintf("%q at line %d, column %d of the new text: the matched lines have it as %s, and nothing says which this one is",
					r, j+1, q+1, quoteRunes(any))
			}
		case r >= utf8.RuneSelf && (len(any) == 1 && any[0] == foldRune(r) || len(any) == 0 && t.plain):
			// The caller typed typographic punctuation where the block
			// has plain ASCII (this character everywhere it stands in
			// the block, or, where it stands nowhere, the caller's other
			// typographic punctuation): the caller's artifact, undone.
			// Unless it is a dash in a block that writes runs of
			// hyphens: typesetting makes one dash of "--" as readily as
			// of "-", and folding is one for one.
			if foldRune(r) == '-' && t.hyphenRuns {
				if open == "" {
					open = fmt.Sprintf("%q at line %d, column %d of the new text: the matched lines have only ASCII hyphens, some of them doubled (\"--\"), so it may stand for one or more",
						r, j+1, q+1)
				}
				continue
			}
			if len(any) == 0 && foldRune(r) == '-' && !t.changed['-'] {
				// A dash the block does not show, where the caller's
				// typeset punctuation is of other kinds: typesetting
				// curls quotes as it goes, but a dash in new prose is as
				// often the writer's own (an em dash), and nothing says
				// which.
				if open == "" {
					open = fmt.Sprintf("%q at line %d, column %d of the new text: the matched lines show no dash, and none of the characters the caller typeset there is a dash, so nothing says whether it was typeset or meant",
						r, j+1, q+1)
				}
				continue
			}
			rs[q] = foldRune(r)
		}
	}
	return string(rs), open
}

// codeSpans marks the runes of a line between a backtick and the next
// one (a Markdown code span; a template literal's text); a last backtick
// without a partner opens nothing.
func codeSpans(rs []rune) []bool {
	in := make([]bool, len(rs))
	open := -1
	for i, r := range rs {
		if r != '`' {
			continue
		}
		if open < 0 {
			open = i
			continue
		}
		for k := open + 1; k < i; k++ {
			in[k] = true
		}
		open = -1
	}
	return in
}

// align maps positions of a new line's body (after its indentation) to
// the occurrences of the old line (index, rune position in the trimmed
// line) it shares the most characters with, among gap.
func (t *typography) align(body []rune, gap []int) map[int][2]int {
	best, bestN := -1, 0
	var bestPairs [][2]int
	trimmed := []rune(strings.TrimRightFunc(string(body), unicode.IsSpace))
	for _, i := range gap {
		o := t.lines[i].old
		if o == nil {
			continue
		}
		var pairs [][2]int
		if len(o)*len(trimmed) > maxTypoAlign {
			pairs = endPairs(o, trimmed) // too long for the table
		} else {
			pairs = lcsPairs(o, trimmed)
		}
		if len(pairs) > bestN {
			best, bestN, bestPairs = i, len(pairs), pairs
		}
	}
	if best < 0 {
		return nil
	}
	out := make(map[int][2]int, len(bestPairs))
	for _, p := range bestPairs {
		out[p[1]] = [2]int{best, p[0]}
	}
	return out
}

// endPairs pairs the common prefix and the common suffix of a and b rune
// for rune: the alignment of lines too long for lcsPairs' table, which
// covers an edit in one place of a long line.
func endPairs(a, b []rune) [][2]int {
	p, s := commonEnds(a, b)
	out := make([][2]int, 0, p+s)
	for i := range p {
		out = append(out, [2]int{i, i})
	}
	for i := 1; i <= s; i++ {
		out = append(out, [2]int{len(a) - i, len(b) - i})
	}
	return out
}

// commonEnds returns the length p of the common prefix of a and b, and the
// length s of their common suffix in what follows it.
func commonEnds[E comparable](a, b []E) (p, s int) {
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return p, s
}

// anchored reports whether the occurrence at position i of a new line's
// body (n runes, trailing white space left out), aligned with position
// at[1] of old line at[0], is aligned with a neighbour too: the character
// before it with the one before at[1], or the one after it with the one
// after (a line's end counting as a neighbour at the same end). A lone
// character that a longest common subsequence pairs between two unrelated
// lines (the quote of require('x') with the apostrophe of "it's") tells
// nothing about its form.
func (t *typography) anchored(aligned map[int][2]int, i int, at [2]int, n int) bool {
	o := t.lines[at[0]].old
	if i == 0 && at[1] == 0 || i == n-1 && at[1] == len(o)-1 {
		return true
	}
	if l, ok := aligned[i-1]; ok && l == [2]int{at[0], at[1] - 1} {
		return true
	}
	r, ok := aligned[i+1]
	return ok && r == [2]int{at[0], at[1] + 1}
}

func quoteRunes(rs []rune) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, strconv.QuoteRune(r))
	}
	return strings.Join(parts, " and ")
}
