package syntax

import (
	"bytes"
	"slices"
	"strings"
)

// The preprocessor's conditionals, for test 3 of "What a compiler may
// accept" in the package documentation: C's and C++'s grammars read
// directive lines only where a declaration or a statement may stand, while
// the preprocessor runs before the compiler's parser and takes them out
// wherever they stand (an #ifdef around one row of a table, an #if whose
// two branches each open the brace one "}" closes).

// ppLine is a directive line: src[start:end] (continuations included,
// its line break not), name its directive ("ifdef", "include").
type ppLine struct {
	start, end int
	name       string
}

// conditional reports whether name is a directive of an #if chain.
func conditional(name string) bool {
	switch name {
	case "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif":
		return true
	}
	return false
}

// directiveLines returns the directive lines of C or C++ source, in order:
// lines whose first token is #, outside comments and literals.
func directiveLines(src []byte) []ppLine {
	var out []ppLine
	scanC(src, func(t cToken) {
		if t.kind == cDirective {
			from := bytes.LastIndexByte(src[:t.at], '\n') + 1
			out = append(out, ppLine{start: from, end: t.end, name: directive(src[t.at+1 : t.end])})
		}
	})
	return out
}

// condition returns the text after a directive's name, comments and
// line continuations taken out: an #if's expression, an #ifdef's name.
func condition(src []byte, l ppLine) string {
	text := src[l.start:l.end]
	text = text[bytes.IndexByte(text, '#')+1:]
	text = bytes.TrimLeft(text, " \t")[len(l.name):]
	if i := bytes.Index(text, []byte("//")); i >= 0 {
		text = text[:i]
	}
	if i := bytes.Index(text, []byte("/*")); i >= 0 {
		text = text[:i]
	}
	return strings.TrimSpace(strings.ReplaceAll(string(text), "\\\n", " "))
}

// literalCondition returns 0 or 1 for an #if or #elif whose condition is
// that literal (#if 0 around code set aside, #if 1 around code kept), and
// -1 otherwise: the one choice the preprocessor makes the same way in
// every configuration.
func literalCondition(src []byte, l ppLine) int {
	if l.name == "if" || l.name == "elif" {
		switch condition(src, l) {
		case "0":
			return 0
		case "1":
			return 1
		}
	}
	return -1
}

// wellFormed reports whether a conditional directive line has what its
// directive needs: an expression after #if and #elif, one name after
// #ifdef, #ifndef and their #elif forms. (Other lines are reported by the
// grammar, which reads them on their own.)
func wellFormed(src []byte, l ppLine) bool {
	if !conditional(l.name) || l.name == "else" || l.name == "endif" {
		return true
	}
	cond := condition(src, l)
	if l.name == "if" || l.name == "elif" {
		return cond != ""
	}
	if cond == "" || !isIdentStart(cond[0]) {
		return false
	}
	for i := 1; i < len(cond); i++ {
		if !isIdentByte(cond[i]) {
			return false
		}
	}
	return true
}

// maxReadings bounds the readings of a file: a chain of more branches
// than that has the ones past it read in no reading.
const maxReadings = 4

// readingSet is the readings of C or C++ source as its preprocessor may
// leave it (see newReadings), made one at a time into a caller's buffer:
// a reading is a copy of the file, and a file may be megabytes.
type readingSet struct {
	src    []byte
	lines  []ppLine
	blankL []bool  // blankL[i]: lines[i] is blanked in every reading
	chains [][]int // each chain's directives, as indexes into lines
	may    [][]int // each chain's branches some build may take
	n      int     // how many readings
	never  []span  // code no build reads
}

// newReadings reads C or C++ source as its preprocessor may leave it. In
// every reading the chains' directive lines are blanked (offsets kept),
// and so is every other directive line that parses on its own (alone
// reports whether the line src[start:end] does), so that a well-formed
// #include, #pragma or #define stands nowhere the grammar cannot place it
// while a malformed one stays to be reported. Each chain keeps one branch
// a reading and blanks the others: reading k keeps its k-th branch that
// may be taken, or its last when it has fewer (the first reading keeps
// every first branch; the second, for chains of two, every #else). A chain
// without #else keeps its one branch in every reading, so its code is
// always read; #if 0 is never read, and neither are #if 1's alternatives,
// in any build. A chain one of whose branches holds the span hold (the
// edit) keeps that branch in every reading: the edit is read where a build
// that compiles it reads it. There are n readings; n <= 0 asks for as many
// as the chains that overlap hold have branches (one where none does: the
// file's own chains, read alike before and after, need one reading, not
// more). ok is false when the chains do not nest (an #else or #endif with
// no #if, an #if left open, an #elif after #else) or a condition is
// missing, which no compiler accepts. Source without directives is its
// own one reading.
func newReadings(src []byte, hold span, alone func(start, end int) bool, n int) (*readingSet, bool) {
	rs := &readingSet{src: src, lines: directiveLines(src), n: max(n, 1)}
	lines := rs.lines
	var open []int // indexes into chains
	for i, l := range lines {
		if !wellFormed(src, l) {
			return nil, false
		}
		switch l.name {
		case "if", "ifdef", "ifndef":
			rs.chains = append(rs.chains, []int{i})
			open = append(open, len(rs.chains)-1)
		case "elif", "elifdef", "elifndef", "else", "endif":
			if len(open) == 0 {
				return nil, false
			}
			ch := rs.chains[open[len(open)-1]]
			if lines[ch[len(ch)-1]].name == "else" && l.name != "endif" {
				return nil, false
			}
			rs.chains[open[len(open)-1]] = append(ch, i)
			if l.name == "endif" {
				open = open[:len(open)-1]
			}
		}
	}
	if len(open) > 0 {
		return nil, false
	}
	rs.blankL = make([]bool, len(lines))
	for i, l := range lines {
		rs.blankL[i] = conditional(l.name) || alone(l.start, l.end)
	}
	rs.may = make([][]int, len(rs.chains))
	wide := 1 // the most branches of a chain that overlaps hold
	for c, ch := range rs.chains {
		for b := 0; b+1 < len(ch); b++ {
			from, to := lines[ch[b]].end, lines[ch[b+1]].start
			lit := literalCondition(src, lines[ch[b]])
			if lit == 0 {
				rs.never = append(rs.never, span{from, to})
				continue
			}
			if m := rs.may[c]; len(m) > 0 && literalCondition(src, lines[ch[m[len(m)-1]]]) == 1 {
				rs.never = append(rs.never, span{from, to})
				continue
			}
			if from <= hold.start && hold.end <= to {
				rs.may[c] = []int{b} // the edit's branch, in every reading
				for b++; b+1 < len(ch); b++ {
					rs.never = append(rs.never, span{lines[ch[b]].end, lines[ch[b+1]].start})
				}
				break
			}
			rs.may[c] = append(rs.may[c], b)
		}
		if lines[ch[0]].start < hold.end && hold.start < lines[ch[len(ch)-1]].end {
			wide = max(wide, min(len(rs.may[c]), maxReadings))
		}
	}
	if n <= 0 {
		rs.n = wide
	}
	return rs, true
}

// fill makes reading k (0 <= k < n) in dst, grown as needed, and returns
// it.
func (rs *readingSet) fill(k int, dst []byte) []byte {
	r := append(dst[:0], rs.src...)
	for i, l := range rs.lines {
		if rs.blankL[i] {
			blankSpan(r, l.start, l.end)
		}
	}
	for c, ch := range rs.chains {
		keep := -1
		if m := rs.may[c]; len(m) > 0 {
			keep = m[min(k, len(m)-1)]
		}
		for b := 0; b+1 < len(ch); b++ {
			if b != keep {
				blankSpan(r, rs.lines[ch[b]].end, rs.lines[ch[b+1]].start)
			}
		}
	}
	return r
}

// covered reports whether every character of src[s.start:s.end] that some
// build reads (outside never and directive lines, not white space) stands
// in one of the readings: whether the readings read all of the edit. buf
// is scratch space.
func (rs *readingSet) covered(s span, buf []byte) bool {
	src := rs.src
	read := make([]bool, s.end-s.start)
	for k := 0; k < rs.n; k++ {
		buf = rs.fill(k, buf)
		for i := s.start; i < s.end; i++ {
			if buf[i] == src[i] {
				read[i-s.start] = true
			}
		}
	}
	// Code no build reads, and directive lines, need no reading.
	mark := func(n span) {
		for i := max(n.start, s.start); i < min(n.end, s.end); i++ {
			read[i-s.start] = true
		}
	}
	for _, n := range rs.never {
		mark(n)
	}
	for _, l := range rs.lines {
		mark(span{l.start, l.end})
	}
	for i := s.start; i < s.end; i++ {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			continue
		}
		if !read[i-s.start] {
			return false
		}
	}
	return true
}

// blankSpan turns src[from:to] into spaces, line breaks kept.
func blankSpan(src []byte, from, to int) {
	for i := from; i < to; i++ {
		if src[i] != '\n' && src[i] != '\r' {
			src[i] = ' '
		}
	}
}

// maxAlone bounds how many directive lines an edit wrote are parsed on
// their own; past it, the rest stay where they stand.
const maxAlone = 64

// readWithoutDirectives is test 3: it reads before and after as the
// preprocessor may leave them (readings; before read the same way, the
// k-th reading of each compared) and checks that the readings of after
// hold all of the edit that a build may compile. settled is false when that tells nothing:
// after has no directive to take out, conditionals that do not nest, or
// a reading of before that does not parse either. Otherwise broken holds
// the added errors of a reading that test 2's words do not account for,
// and is nil when every reading is accounted for, with words the words
// dropped in any and explained the added errors of the first reading
// they account for (nil when no reading adds one). addedOf compares a variant of before with one of
// after: their added errors, whether before parsed clean where it
// matters, and the bytes parsed; trialOf does the same for test 2's word
// trials on a reading (check has them read the window only where it can).
func readWithoutDirectives(c *checker, rule *wordRule, before, after []byte,
	addedOf, trialOf func(before, after []byte) ([]diag, bool, int, error)) (settled bool, broken, explained []diag, words []string, err error) {
	// A directive line the edit did not write is the file's, blanked in
	// both versions alike (an error it has is an old one); one it wrote
	// is blanked only where it parses on its own, at most maxAlone of
	// them parsed.
	ch := change{afterEnd: len(after)}
	if before != nil {
		ch = changeOf(before, after)
	}
	parsed := 0
	alone := func(start, end int) bool {
		if end < ch.start || start >= ch.afterEnd {
			return true
		}
		if parsed >= maxAlone {
			return false
		}
		parsed++
		ds, err := c.diagnose(after[start:end])
		return err == nil && len(ds) == 0
	}
	edit := span{ch.start, ch.afterEnd}
	ra, ok := newReadings(after, edit, alone, 0)
	if !ok {
		return false, nil, nil, nil, nil
	}
	if !slices.Contains(ra.blankL, true) {
		// No line is blanked, so no chain either (its directives would
		// be): nothing for the preprocessor to take out.
		return false, nil, nil, nil, nil
	}
	bufA := make([]byte, 0, len(after))
	if !ra.covered(edit, bufA) {
		return false, nil, nil, nil, nil // some of the edit is in no reading
	}
	var rb *readingSet
	var bufB []byte
	if before != nil {
		if rb, ok = newReadings(before, span{ch.start, ch.beforeEnd}, func(int, int) bool { return true }, ra.n); !ok {
			return false, nil, nil, nil, nil
		}
		bufB = make([]byte, 0, len(before))
	}
	scratch := make([]byte, len(after))
	for k := 0; k < ra.n; k++ {
		a := ra.fill(k, bufA)
		var b []byte
		if rb != nil {
			b = rb.fill(k, bufB)
			if bytes.Equal(b, a) {
				continue
			}
		}
		added, clean, _, err := addedOf(b, a)
		if err != nil {
			return false, nil, nil, nil, err
		}
		if !clean {
			// before does not parse this way either: its old errors may
			// hide new ones, and the reading proves nothing.
			return false, nil, nil, nil, nil
		}
		if len(added) == 0 {
			continue
		}
		copy(scratch, a)
		w, err := unknownWords(rule, b, a, scratch, added, func(x []byte) ([]diag, int, error) {
			ds, _, cost, err := trialOf(b, x)
			return ds, cost, err
		})
		if err != nil {
			return false, nil, nil, nil, err
		}
		if w == nil {
			return true, added, nil, nil, nil // this reading's, at after's offsets
		}
		if explained == nil {
			explained = added
		}
		for _, x := range w {
			if !slices.Contains(words, x) {
				words = append(words, x)
			}
		}
	}
	return true, nil, explained, words, nil
}
