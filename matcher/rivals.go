package matcher

import (
	"bytes"
	"slices"
)

// The line tiers compare whole lines, but the exact tier does not: an old
// text may begin inside a line and, when it does not end with a line
// break, end inside one, as an exact occurrence may. So a block the line
// tiers found as whole lines is not the only reading of the old text when
// the same lines, read that way, also stand elsewhere with the old text's
// first line ending another line (say "x := f()" for an old "f()") or its
// last line beginning one ("return n" in "return nil"). Had the old text
// been copied without the slip the tier forgives, the exact tier would
// have found both and refused; a fuzzy tier must not pick either.
//
// partialRivals lists the places other than the candidate at line p where
// the variant's lines stand under the tier of level lvl with a first line
// that ends a file line and a last line that begins one (whole lines in
// between). An old first line that starts with white space is read both
// ways from the indentation tier on: as starting at a line's indentation,
// as the tier reads it, and as typed, white space included, inside a line,
// as an exact match would read it. A last line followed by a line break
// ends at a line's end.
func (s *searcher) partialRivals(v variant, p, lvl int) []int {
	old := v.lines
	n, N := len(old), s.fl.Count()
	r := newPartialReading(v, lvl)
	lines := N
	if !v.endsNL && len(s.content) > 0 && s.content[len(s.content)-1] == '\n' {
		lines++ // an exact match's last line may begin after the final line break
	}
	var out []int
	if n >= 3 {
		// The whole middle lines filter by their loose key: a pass over
		// the keys (an integer compare a line, charged a quarter unit),
		// then a check where the key matches.
		if !s.w.spend(N/4 + 1) {
			return nil // s.w.out tells the caller
		}
		k := looseKey(old[1])
		for q := 1; q+n-1 <= lines; q++ {
			if s.keys[q] != k || q-1 == p {
				continue
			}
			if !s.w.spend(n) {
				return nil
			}
			if s.partialAt(r, q-1) {
				out = append(out, q-1)
			}
		}
		return out
	}
	if lvl < levelTypography {
		// A rival's last line holds the old text's last line as the tier
		// reads it: search the content for it, as the exact tier searches,
		// and check the lines where it stands. The search is charged a
		// unit per 100 bytes: over 50 MB it took 7 ms where indexing and
		// the candidates' pass took 45 ms for 3.3 million units.
		if needle := r.last; len(needle) > 0 {
			if !s.w.spend(len(s.content)/100 + 1) {
				return nil
			}
			rare := rarestByte(needle)
			for from := 0; from < len(s.content); {
				i := index(s.content[from:], needle, rare)
				if i < 0 {
					break
				}
				l := s.lineOf(from + i)
				if !s.w.spend(n) {
					return nil
				}
				if q := l - (n - 1); q >= 0 && q != p && s.partialAt(r, q) {
					out = append(out, q)
				}
				from = s.fl.End(l + 1)
			}
			return out
		}
	}
	// Typography folds what a byte search would compare, and an empty last
	// line stands everywhere: every line is checked.
	if !s.w.spend(N) {
		return nil
	}
	for q := 0; q+n <= lines; q++ {
		if q != p && s.partialAt(r, q) {
			out = append(out, q)
		}
	}
	return out
}

// lineOf is the 0-based line holding byte offset off.
func (s *searcher) lineOf(off int) int {
	return s.fl.LineAt(off) - 1
}

// partialReading is a variant's lines as partialRivals reads them at one
// tier, the parts that partialAt compares made once.
type partialReading struct {
	v   variant
	lvl int
	// anchoredStart: the first line starts with white space, read (from
	// the indentation tier on) as starting at a line's indentation too.
	anchoredStart bool
	// first is the first line as typed, white space at its start
	// included: it may stand at the end of a file line (or, for a one-line
	// old text without a final break, anywhere in one), as an exact match
	// may place it. firstAnchored is it without that white space; last is
	// the last line without its indentation, what a rival's last line
	// holds.
	first, firstAnchored, last []byte
}

func newPartialReading(v variant, lvl int) *partialReading {
	old := v.lines
	return &partialReading{v: v, lvl: lvl,
		anchoredStart: lvl >= levelIndent && indentOf(old[0]) != "",
		first:         loosen(lvl, []byte(old[0]), false, false),
		firstAnchored: loosen(lvl, []byte(old[0]), true, false),
		last:          loosen(lvl, []byte(old[len(old)-1]), true, false),
	}
}

// partialAt reports whether the variant's lines stand at file line q
// under the reading r.
func (s *searcher) partialAt(r *partialReading, q int) bool {
	old, lvl, endsNL := r.v.lines, r.lvl, r.v.endsNL
	n := len(old)
	first, last := s.lineText(q), s.lineText(q+n-1)
	if n == 1 {
		if r.anchoredStart {
			f := loosen(lvl, first, true, !endsNL)
			if endsNL && bytes.Equal(f, r.firstAnchored) || !endsNL && bytes.HasPrefix(f, r.firstAnchored) {
				return true
			}
		}
		f := loosen(lvl, first, false, !endsNL)
		if endsNL {
			return bytes.HasSuffix(f, r.first)
		}
		return bytes.Contains(f, r.first)
	}
	if endsNL {
		if !wholeAt(lvl, last, old[n-1]) {
			return false
		}
	} else if !bytes.HasPrefix(loosen(lvl, last, true, true), r.last) {
		return false
	}
	if !bytes.HasSuffix(loosen(lvl, first, false, false), r.first) && !(r.anchoredStart && wholeAt(lvl, first, old[0])) {
		return false
	}
	for i := 1; i < n-1; i++ {
		if !wholeAt(lvl, s.fl.Text(q+i+1), old[i]) {
			return false
		}
	}
	return true
}

// wholeAt reports whether file line f equals old line o under level lvl.
func wholeAt(lvl int, f []byte, o string) bool {
	switch {
	case string(f) == o:
		return true
	case lvl >= levelTrailing && string(rtrim(f)) == rtrim(o):
		return true
	case lvl >= levelIndent && string(rtrim(ltrim(f))) == rtrim(ltrim(o)):
		return true
	}
	return lvl >= levelTypography && foldEqual(rtrim(ltrim(f)), rtrim(ltrim(o)))
}

// loosen is a line as level lvl compares a part of it: from the trailing
// white-space tier on without white space at its end (when the part ends
// where the line does; keepEnd says it may not), from the indentation tier
// on without its indentation (when the part starts where the line does:
// atStart), and under the typography tier with typographic punctuation
// folded.
func loosen(lvl int, l []byte, atStart, keepEnd bool) []byte {
	if lvl >= levelTrailing && !keepEnd {
		l = rtrim(l)
	}
	if lvl >= levelIndent && atStart {
		l = ltrim(l)
	}
	if lvl >= levelTypography {
		l = bytes.Map(foldRune, l)
	}
	return l
}

// lineText is file line i without its line break, or nothing for the
// empty line after a final line break (i == the number of lines).
func (s *searcher) lineText(i int) []byte {
	if i == s.fl.Count() {
		return nil
	}
	return s.fl.Text(i + 1)
}

// rivalsRefusal is the ambiguity of the block found and its rivals (file
// lines ps, 0-based), saying why the rivals count.
func (s *searcher) rivalsRefusal(v variant, tier Tier, ps []int) *Refusal {
	slices.Sort(ps)
	r := s.ambiguousAt(v, tier, ps)
	r.Reason = "the old text also stands where its first line ends a line or its last line begins one, as an exact match may; " + r.Reason
	return r
}
