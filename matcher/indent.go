package matcher

import (
	"slices"
	"strings"

	"github.com/graftdev/graft/internal/indent"
	"github.com/graftdev/graft/internal/lineindex"
)

// indentMap is how the indentation of the caller's old text maps onto the
// file's: the same transformation is then applied to the new text.
type indentMap struct {
	kind   indentKind
	prefix string // addPrefix / stripPrefix

	// levels: an indentation is a number of levels in a style (tabs, or
	// unit spaces) plus extra spaces that are kept as they are.
	oldTabs, fileTabs bool
	oldUnit, fileUnit int
	delta             int

	// tabWidth: the columns a tab stands for (2, 4 or 8), the one width
	// under which every old indentation is as wide as the file's; kept
	// holds the indentations the old text wrote as the file does on every
	// line that has them, which new lines keep byte for byte.
	tabW int
	kept map[string]bool
	// mixed is set when the block of the file writes some width otherwise
	// than the file's style would (see mixedTabs): new lines' indentation
	// is then decided line by line (lineAdapter.mixedIndent).
	mixed *mixedBlock
}

// mixedBlock is what a block of the file that writes its indentation in
// more than one form tells about a new line's: the forms it writes each
// width in (under tabW), and the indentations the old text writes.
type mixedBlock struct {
	forms   map[int][]string
	oldForm map[string]bool
}

type indentKind int

const (
	sameIndent  indentKind = iota // file indentation == old indentation
	addPrefix                     // file = prefix + old
	stripPrefix                   // old = prefix + file
	levelShift                    // levels in another style, shifted by delta
	tabWidth                      // the same width, a tab counting tabW columns
)

// pair is one old line's indentation and the file line's it was matched to.
type pair struct{ old, file string }

// mapIndent finds one transformation that turns every old indentation into
// the file's. sample holds the indentations of the caller's lines in order
// (old then new text) to learn their unit; fileUnit gives the file's unit
// when the block alone does not show it. checked says that the new text
// is known and its open indentation refused (see mixedTabs). It reports
// false when no single transformation fits: the block's relative
// indentation differs.
func mapIndent(pairs []pair, sample [][]string, fileUnit func() int, checked bool) (indentMap, bool) {
	if len(pairs) == 0 {
		return indentMap{kind: sameIndent}, true
	}
	same := true
	for _, p := range pairs {
		if p.old != p.file {
			same = false
			break
		}
	}
	if same {
		return indentMap{kind: sameIndent}, true
	}
	// A common prefix added or removed. When the caller's lines indent
	// in the other style than the prefix (spaces after a prefix of tabs),
	// a prefix would leave new lines half in each style: levels, if they
	// map, tell the new lines' indentation in the file's style.
	byPrefix, prefixed := prefixOf(pairs)
	if prefixed && !styleClash(byPrefix.prefix, sample) {
		return byPrefix, true
	}

	m, fileTabs, ok := levelShiftOf(pairs, sample, fileUnit)
	if ok {
		return m, true
	}
	if prefixed {
		return byPrefix, true
	}
	unit := 0
	if !fileTabs {
		unit = fileUnit()
	}
	return mixedTabs(pairs, fileTabs, unit, checked)
}

// levelShiftOf reads the old indentation as levels of tabs or of N spaces
// shifted by a constant onto the file's, under the most plausible units
// that fit. fileTabs reports whether the file's lines of the block hold a
// tab.
func levelShiftOf(pairs []pair, sample [][]string, fileUnit func() int) (m indentMap, fileTabs, ok bool) {
	m = indentMap{kind: levelShift}
	for _, p := range pairs {
		m.fileTabs = m.fileTabs || strings.Contains(p.file, "\t")
	}
	for _, lines := range sample {
		for _, ind := range lines {
			m.oldTabs = m.oldTabs || strings.Contains(ind, "\t")
		}
	}
	// Units to try, most plausible first: what the lines themselves show,
	// then the file's unit, then the usual ones. Any unit under which
	// every line maps the same way is an explanation of the whole block.
	var fileUnits, oldUnits []int
	fileShown := map[int]bool{} // the units the file's lines show
	if !m.fileTabs {
		fl := make([]string, len(pairs))
		for i, p := range pairs {
			fl[i] = p.file
		}
		u, steps := unitOf([][]string{fl})
		if steps {
			fileUnits = append(fileUnits, u)
			fileShown[u] = true
		}
		fu := fileUnit()
		fileShown[fu] = true
		fileUnits = append(fileUnits, fu, 2, 4, 8, u)
	} else {
		fileUnits = []int{1}
	}
	sampleUnit := 0
	if !m.oldTabs {
		u, _ := unitOf(sample)
		sampleUnit = u
		oldUnits = []int{u, 2, 4, 8}
	} else {
		oldUnits = []int{1}
	}
	// Of the readings that fit, one that puts the old lines at the file's
	// own levels (delta 0) in units of four or eight (the widths a tab is
	// written as) wins: a caller who wrote the file's tabs as spaces, or
	// the reverse, converted the block and did not also move it. Old
	// lines that all stand at one level fit several units, and the first
	// fitting one read "\t\t" sent as eight spaces as one level of eight,
	// shifted by one, so that a new line at column 0 (a commented-out
	// line, a preprocessor directive) took a tab. Two-space levels are
	// no such conversion: "\t\t" sent as four spaces is a block dedented
	// by a level of four (measured: preferring two-space levels there
	// put a closing brace a level too far left).
	first, found := indentMap{}, false
	tried := map[[2]int]bool{}
	for _, fu := range fileUnits {
		for _, ou := range oldUnits {
			if fu <= 0 || ou <= 0 || tried[[2]int{ou, fu}] {
				continue
			}
			tried[[2]int{ou, fu}] = true
			m.oldUnit, m.fileUnit = ou, fu
			if m.fileTabs {
				m.fileUnit = 0
			}
			if m.oldTabs {
				m.oldUnit = 0
			}
			// Spaces read in one unit and written in another (four-space
			// levels onto two-space ones) is a claim about both units, and
			// the lines are the evidence: the caller's unit must be the one
			// their lines step by, the file's the one it shows. Two old
			// lines "    x" / "}" against "    x" / "  }" fit four-space
			// levels onto two-space ones shifted by one, while the new
			// lines stepped by two (yaml-cpp); against "        x" / "    }"
			// in a four-space file, four-space levels onto two-space ones
			// shifted by two (linenoise). Either reading re-indented a new
			// function into the one above the intended place (measured on
			// real commits).
			if !m.oldTabs && !m.fileTabs && ou != fu && (sampleUnit > 0 && ou != sampleUnit || !fileShown[fu]) {
				continue
			}
			if d, ok := levelDelta(pairs, m); ok {
				m.delta = d
				if d == 0 && (m.oldUnit == 0 || m.oldUnit == 4 || m.oldUnit == 8) && (m.fileUnit == 0 || m.fileUnit == 4 || m.fileUnit == 8) {
					return m, m.fileTabs, true
				}
				if !found {
					first, found = m, true
				}
			}
		}
	}
	if found {
		return first, first.fileTabs, true
	}
	return indentMap{}, m.fileTabs, false
}

// prefixOf reads the old indentation as the file's with a common prefix
// added or removed.
func prefixOf(pairs []pair) (indentMap, bool) {
	p0 := pairs[0]
	if strings.HasSuffix(p0.file, p0.old) {
		pre := p0.file[:len(p0.file)-len(p0.old)]
		if allPairs(pairs, func(p pair) bool { return p.file == pre+p.old }) {
			return indentMap{kind: addPrefix, prefix: pre}, true
		}
	}
	if strings.HasSuffix(p0.old, p0.file) {
		pre := p0.old[:len(p0.old)-len(p0.file)]
		if allPairs(pairs, func(p pair) bool { return p.old == pre+p.file }) {
			return indentMap{kind: stripPrefix, prefix: pre}, true
		}
	}
	return indentMap{}, false
}

// readingsAgree reports whether the plausible readings of the old
// indentation (a common prefix, unless it clashes with the caller's
// style, and a shift of levels) write each of inds the same way. An old
// text whose lines all stand at one level tells no unit, and the readings
// can part on a deeper new line: two spaces over the file's four are a
// prefix of two, or a level.
func readingsAgree(pairs []pair, sample [][]string, fileUnit func() int, inds []string) bool {
	if len(pairs) == 0 {
		return true
	}
	var rs []indentMap
	if p, ok := prefixOf(pairs); ok && !styleClash(p.prefix, sample) {
		rs = append(rs, p)
	}
	if m, _, ok := levelShiftOf(pairs, sample, fileUnit); ok {
		rs = append(rs, m)
	}
	for _, ind := range inds {
		for _, r := range rs[min(1, len(rs)):] {
			if r.apply(ind) != rs[0].apply(ind) {
				return false
			}
		}
	}
	return true
}

// styleClash reports whether the caller indents in one style and the
// prefix is written in the other (spaces where the prefix is tabs, or the
// reverse). The caller's style is its old text's (sample[0]), or, when the
// old text has no indentation at all, its new text's: a caller who mixes
// both, or shows none, clashes with nothing.
func styleClash(prefix string, sample [][]string) bool {
	ps, _ := styleOf([]string{prefix})
	if ps == "" {
		return false
	}
	for _, inds := range sample {
		if cs, seen := styleOf(inds); seen {
			return cs != "" && cs != ps
		}
	}
	return false
}

// styleOf is "\t" when the indentations use tabs alone, " " when spaces
// alone, "" when both; seen reports whether any is not empty.
func styleOf(inds []string) (style string, seen bool) {
	tabs, spaces := false, false
	for _, ind := range inds {
		tabs = tabs || strings.Contains(ind, "\t")
		spaces = spaces || strings.Contains(ind, " ")
	}
	switch {
	case tabs && spaces:
		return "", true
	case tabs:
		return "\t", true
	case spaces:
		return " ", true
	}
	return "", false
}

// tabWidths are the widths a tab is counted as when the old text's
// indentation mixes tabs and spaces differently from the file's.
var tabWidths = [...]int{2, 4, 8}

// mixedTabs is the reading of last resort: lines whose indentation was
// written with spaces where the file has tabs (or the reverse) beside
// lines that kept the file's, as models copy some lines of a block and
// retype others. Counting a tab as w columns (tab stops every w), the
// block reads the same when every old indentation is exactly as wide as
// the file's; w must be the only one of 2, 4 and 8 under which it does,
// else the reading is open and the block is refused. In a file indented
// with spaces by a known unit (2, 4 or 8), a tab counts as that unit
// alone. New lines then take their width under w, written in the file's
// style.
//
// The block of the file may itself write a width otherwise than the
// file's style (tabs, then spaces below a tab, in a file with tabs; spaces
// in one without): a Markdown code sample pasted from two places, a raw
// string or a comment aligned with spaces in tab-indented code, C whose
// tabs are eight columns and whose levels four, read by a caller who
// counted a tab as four. A new line's indentation is then decided line by
// line (lineAdapter.mixedIndent). Only a caller that checks the new text
// can refuse a line that stays open, so unchecked, a block that writes
// some widths of a tab or more with tabs and others with spaces alone is
// refused, as before the line-by-line rule; a block that only writes some
// widths in another form takes the rule's decided lines and the file's
// style for the open ones.
func mixedTabs(pairs []pair, fileTabs bool, unit int, checked bool) (indentMap, bool) {
	tabs := false
	for _, p := range pairs {
		tabs = tabs || strings.Contains(p.old, "\t") || strings.Contains(p.file, "\t")
	}
	if !tabs {
		return indentMap{}, false
	}
	widths := tabWidths[:]
	if unit == 2 || unit == 4 || unit == 8 {
		widths = []int{unit}
	}
	found := 0
	for _, w := range widths {
		if allPairs(pairs, func(p pair) bool { return indent.Columns(p.old, w) == indent.Columns(p.file, w) }) {
			if found != 0 {
				return indentMap{}, false // two widths read it the same: open
			}
			found = w
		}
	}
	if found == 0 {
		return indentMap{}, false
	}
	m := indentMap{kind: tabWidth, tabW: found, fileTabs: fileTabs, kept: map[string]bool{}}
	for _, p := range pairs {
		if _, seen := m.kept[p.old]; !seen {
			m.kept[p.old] = true
		}
		// kept only if the file writes it so wherever the old text has it
		m.kept[p.old] = m.kept[p.old] && p.old == p.file
	}
	mb := &mixedBlock{forms: map[int][]string{}, oldForm: map[string]bool{}}
	uniform, tabbed, spaced := true, false, false
	for _, p := range pairs {
		mb.oldForm[p.old] = true
		c := indent.Columns(p.file, found)
		if !slices.Contains(mb.forms[c], p.file) {
			mb.forms[c] = append(mb.forms[c], p.file)
		}
		uniform = uniform && p.file == m.styled(c)
		switch {
		case strings.Contains(p.file, "\t"):
			tabbed = true
		case c >= found:
			spaced = true
		}
	}
	switch {
	case uniform:
		return m, true
	case tabbed && spaced && !checked:
		return indentMap{}, false
	}
	for ind := range m.kept {
		if len(mb.forms[indent.Columns(ind, found)]) > 1 {
			delete(m.kept, ind) // the block writes that width several ways
		}
	}
	m.mixed = mb
	return m, true
}

// styled writes c columns in the file's style, as tabW-wide tabs then
// spaces in a block with tabs, else as spaces.
func (m indentMap) styled(c int) string {
	if m.fileTabs {
		return tabStyle(c, m.tabW)
	}
	return strings.Repeat(" ", c)
}

// tabStyle writes c columns as tabs of w columns, then spaces.
func tabStyle(c, w int) string {
	return strings.Repeat("\t", c/w) + strings.Repeat(" ", c%w)
}

// levelDelta checks that every pair maps by the same shift of levels, with
// the same extra spaces, and returns the shift.
func levelDelta(pairs []pair, m indentMap) (int, bool) {
	delta, first := 0, true
	for _, p := range pairs {
		ol, oe, ok1 := parseIndent(p.old, m.oldTabs, m.oldUnit)
		fl, fe, ok2 := parseIndent(p.file, m.fileTabs, m.fileUnit)
		if !ok1 || !ok2 || oe != fe {
			return 0, false
		}
		if first {
			delta, first = fl-ol, false
		} else if fl-ol != delta {
			return 0, false
		}
	}
	return delta, true
}

func allPairs(ps []pair, f func(pair) bool) bool {
	for _, p := range ps {
		if !f(p) {
			return false
		}
	}
	return true
}

// parseIndent reads an indentation as levels of tabs (then extra spaces) or
// of unit spaces (then extra spaces below a unit).
func parseIndent(ind string, tabs bool, unit int) (level, extra int, ok bool) {
	if tabs {
		i := 0
		for i < len(ind) && ind[i] == '\t' {
			i++
		}
		rest := ind[i:]
		if strings.Trim(rest, " ") != "" {
			return 0, 0, false
		}
		return i, len(rest), true
	}
	if strings.Contains(ind, "\t") || unit <= 0 {
		return 0, 0, false
	}
	return len(ind) / unit, len(ind) % unit, true
}

// unitOf guesses the indentation unit of space-indented lines: the most
// common increase of width from one line to the next (the smaller on a
// tie) if it divides every width; else the greatest common divisor of the
// widths, else 0 (no indentation at all). steps reports whether the unit
// was seen as a step rather than guessed from widths alone.
func unitOf(seqs [][]string) (unit int, steps bool) {
	var count [17]int
	g := 0
	for _, seq := range seqs {
		prev := -1
		for _, ind := range seq {
			w := len(ind)
			g = gcd(g, w)
			if prev >= 0 && w > prev && w-prev < len(count) {
				count[w-prev]++
			}
			prev = w
		}
	}
	best := 0
	for d := 2; d < len(count); d++ { // a step of one space is alignment, not a unit
		if count[d] > count[best] {
			best = d
		}
	}
	if count[best] > 0 && g%best == 0 {
		return best, true
	}
	return g, false
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// apply maps one indentation of the caller's text (a new line's) the way
// the old text's indentation maps onto the file's.
func (m indentMap) apply(ind string) string {
	switch m.kind {
	case addPrefix:
		return m.prefix + ind
	case stripPrefix:
		if strings.HasPrefix(ind, m.prefix) {
			return ind[len(m.prefix):]
		}
		if strings.HasPrefix(m.prefix, ind) {
			return "" // dedented past the block's base: as far as it goes
		}
		return ind
	case levelShift:
		level, extra, ok := parseIndent(ind, m.oldTabs, m.oldUnit)
		if !ok {
			return ind
		}
		level += m.delta
		if level < 0 {
			level = 0
		}
		if m.fileTabs {
			return strings.Repeat("\t", level) + strings.Repeat(" ", extra)
		}
		return strings.Repeat(" ", level*m.fileUnit+extra)
	case tabWidth:
		if m.kept[ind] {
			return ind // copied as the file writes it
		}
		return m.styled(indent.Columns(ind, m.tabW))
	}
	return ind
}

// fileIndentUnit is the unit of the file's space indentation, as
// internal/indent reads it for every part of graft (bounded work), or 0
// if its first lines show none.
func fileIndentUnit(fl *lineindex.Index, w *work) int {
	n := min(fl.Count(), indent.MaxLines)
	if !w.spend(n) {
		return 0
	}
	return indent.Unit(n, func(i int) []byte { return fl.Text(i + 1) })
}
