package snippet

// Anchoring: where a region's unchanged first and last lines stand in the
// file, by which tier, and what a region's new lines become there.

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/graftdev/graft/internal/lineindex"
	"github.com/graftdev/graft/matcher"
)

// anchor is a located run of a region's lines.
type anchor struct {
	n         int // region lines in it
	line      int // first file line (0-based)
	m         matcher.Match
	found     bool
	ambiguous *matcher.Refusal
	ambN      int // lines of the longest block that stood several times
	// alts are the two readings of a head whose first line stands once
	// as sent and whose first lines stand once elsewhere shifted.
	alts       []anchor
	candidates []matcher.Candidate
}

// locate finds lines as a unique block of whole lines in the file from
// line from on (before line to, if to ≥ 0).
func locate(content []byte, fl *lineindex.Index, text string, from, to int, opt matcher.Options) (matcher.Match, int, error) {
	base := fl.Start(from + 1)
	limit := len(content)
	if to >= 0 && to < fl.Count() {
		limit = fl.Start(to + 1)
	}
	o := opt
	o.WholeLines = true
	o.NewText = ""
	m, err := matcher.Find(content[base:limit], text, o)
	if err != nil {
		return matcher.Match{}, 0, err
	}
	line := fl.LineAt(base+m.Start) - 1
	return m, line, nil
}

// standsOnce reports whether line stands once in the file from line from
// on, by a tier anchors use.
func standsOnce(content []byte, fl *lineindex.Index, line string, from int, opt matcher.Options) bool {
	if !strings.HasSuffix(line, "\n") {
		line += "\n"
	}
	m, _, err := locate(content, fl, line, from, -1, opt)
	return err == nil && anchorTier(m.Tier)
}

// anchorTier reports whether an anchor may be found by tier t: exactly,
// or through the tiers that only forgive line endings, trailing white
// space and a constant indentation shift. The tiers that forgive blank
// lines, typography or escaping are not used for anchors: a blank line or
// a changed character in a region's edge is a change to place, not a
// slip to forgive.
func anchorTier(t matcher.Tier) bool {
	switch t {
	case matcher.Exact, matcher.LineEndings, matcher.TrailingSpace, matcher.Indentation:
		return true
	}
	return false
}

// grow finds an anchor: block(n) is the region's first (or last) n lines;
// it grows n while the block stays found uniquely at the same place (the
// same first line for a head, the same last line for a tail) by the same
// tier, and while the block is ambiguous, until one place remains.
func grow(content []byte, fl *lineindex.Index, block func(n int) string, limit, from int, isTail, shift, convert bool, opt matcher.Options) anchor {
	var best anchor
	for n := 1; n <= min(limit, maxAnchor); n++ {
		text := block(n)
		if best.ambiguous != nil && !best.found && newLineBlank(text, isTail) {
			// A blank line does not tell places apart: it may be new.
			continue
		}
		m, line, err := locate(content, fl, text, from, -1, opt)
		var ref *matcher.Refusal
		switch {
		case err == nil && anchorTier(m.Tier):
			if m.Tier == matcher.Indentation && !oneShift(text, fl, line) {
				// The matcher fits these lines to the file only by
				// scaling their indentation (levels of another width),
				// not by one shift: the line that breaks the shift is
				// not the anchor's, and re-indenting the region as the
				// block was read would leave some of its lines where
				// the snippet has them.
				return best
			}
			if m.Tier == matcher.TrailingSpace && !oneSlip(text, fl, line) {
				// Likewise trailing white space: a model's slip adds the
				// same to every line; a line with another addition is
				// not the anchor's (it may be a new line that differs
				// from the file's next by a trailing space).
				return best
			}
			if m.Tier == matcher.Indentation && n < min(limit, maxAnchor) && convertedBeforeExact(text, block(n+1), fl, line, isTail) {
				// The line the block grew by is the file's only with its
				// tabs written as spaces (or the reverse), and the
				// region's next line, with the block's shift, is that
				// file line as it stands: the anchor ends before it.
				return best
			}
			a := anchor{n: n, line: line, m: m, found: true}
			if best.found && anchorPlace(a, isTail) != anchorPlace(best, isTail) {
				if shift && best.n == 1 && len(words(block(1))) == 0 && m.Tier == matcher.Indentation && nonBlankLines(text) >= 2 && showsShift(text, fl, line) {
					// A brace that stands once at the margin is no place
					// of its own when it and the next line stand once
					// elsewhere with their indentation shifted: the
					// region was sent without its common indentation.
					best = a
					continue
				}
				if shift && best.n == 1 && best.m.Tier == matcher.Exact && m.Tier == matcher.Indentation && nonBlankLines(text) >= 2 && showsShift(text, fl, line) {
					// One line that stands once exactly, and a longer
					// block that stands once elsewhere with its
					// indentation shifted: the region, sent without its
					// common indentation, reads both ways.
					return anchor{alts: []anchor{best, a}, ambiguous: &matcher.Refusal{Kind: matcher.ErrAmbiguous, Count: 2, Tier: matcher.Indentation,
						Reason: "its first line stands once as sent, and its first lines stand once elsewhere with their indentation shifted",
						Candidates: []matcher.Candidate{
							fileText(content, fl, best.line, best.line+best.n, "the line as sent"),
							fileText(content, fl, line, line+len(splitKeep(text)), "the lines with their indentation shifted")}}}
				}
				return best
			}
			if best.found && m.Tier != best.m.Tier && (best.m.Tier != matcher.Exact || m.Tier != matcher.Indentation ||
				!convert || indented(block(best.n)) || newLineBlank(text, isTail) || !converted(text, fl, line, block(min(limit, maxAnchor)), isTail)) {
				// From exact to a looser tier at the same place is allowed
				// only where the exact lines could not show a shift (they
				// have no indentation, like a function's first and last
				// lines): then the indented lines show how the region
				// differs (by its indentation, in a line that is not blank
				// and is indented in the file too: tabs written as spaces
				// or the reverse; a line indented where the file's is not
				// is a new line, not a slip).
				// Indented lines that matched exactly say there is no
				// shift, and a line that then differs is a change.
				return best
			}
			if !best.found && best.ambiguous != nil && best.ambiguous.Tier != m.Tier &&
				(!shift || best.ambiguous.Tier != matcher.Exact || m.Tier != matcher.Indentation || nonBlankLines(text) < 2 || !showsShift(text, fl, line)) {
				// The shorter block stood several times by one tier; a
				// looser tier cannot be what tells its places apart. But
				// with shift, a block of two lines or more that stands
				// once with its indentation shifted as a whole is the
				// region sent without its common indentation: its first
				// line (a "}" that stands exactly at the margin
				// elsewhere) was never a place of its own. (Not for a
				// tail after a head: the head said how the region
				// stands, and the tail is read in the file's terms.)
				return best
			}
			best = a
			continue
		case err == nil:
			// Found only by a tier anchors do not use.
		case errors.As(err, &ref) && errors.Is(err, matcher.ErrAmbiguous):
			if !best.found {
				best.ambiguous, best.ambN = ref, n
				continue
			}
		case errors.As(err, &ref) && !best.found && best.ambiguous == nil && n == 1:
			best.candidates = ref.Candidates
		}
		break
	}
	return best
}

// pairHead places a head that stands several times (h, not found) by
// the region's tail. The tail, grown from the region's end as when no
// head is found, must stand once after the previous region; a reading
// of the head (one of its places, or, for a head whose first line
// stands once as sent and whose first lines stand once elsewhere
// shifted, each of the two) is kept where it ends before the tail and,
// the region re-indented as that reading was found, the tail read after
// it in the file's terms is that same tail without a shift of its own.
// Exactly one reading may be kept: the pair (head, tail) is then unique
// with one shift, as a head's block of whole lines must be unique. The
// returned tail carries the head's ambiguity, for the refusal if the
// tail later found after the head is not that tail.
func pairHead(content []byte, fl *lineindex.Index, r Region, h anchor, cursor int, convert bool, opt matcher.Options) (anchor, anchor, bool) {
	probe := tail(content, fl, r, cursor, len(r.Lines), true, convert, opt)
	if !probe.found {
		return h, anchor{}, false
	}
	readings := h.alts
	if len(readings) == 0 && h.ambN > 0 && anchorTier(h.ambiguous.Tier) {
		// The head's places before the tail, by the tier that found
		// them several times: more than one there, and the pair is not
		// unique.
		block := strings.Join(r.Lines[:h.ambN], "")
		m, line, err := locate(content, fl, block, cursor, probe.line, opt)
		if err != nil || m.Tier != h.ambiguous.Tier {
			return h, anchor{}, false
		}
		readings = []anchor{{n: h.ambN, line: line, m: m, found: true}}
	}
	var kept []anchor
	for _, a := range readings {
		if a.n+probe.n > len(r.Lines) || a.line+a.n > probe.line {
			continue
		}
		lines := r.Lines
		if a.m.Tier != matcher.Exact {
			text := strings.Join(r.Lines[:a.n], "")
			if a.m.Tier == matcher.Indentation && !oneShift(text, fl, a.line) {
				continue
			}
			lines = splitKeep(reindent(a.m, strings.Join(r.Lines, "")))
			if len(lines) != len(r.Lines) {
				continue
			}
		}
		t := tail(content, fl, Region{Lines: lines, Line: r.Line}, a.line+a.n, len(lines)-a.n, false, convert, opt)
		if t.found && t.line+t.n == probe.line+probe.n && t.m.Tier != matcher.Indentation {
			kept = append(kept, a)
		}
	}
	if len(kept) != 1 {
		return h, anchor{}, false
	}
	probe.ambiguous = h.ambiguous
	return kept[0], probe, true
}

// shorterHeads reads region r once more with heads shorter than h, which
// stands exactly (r as sent, or, where a looser tier found an anchor, r
// read in the file's terms) and was grown as far as the file's lines go: a region
// that inserts a block copied from the code around it (an assertion
// repeated and changed) has new lines that are the file's next lines too,
// and the head grows through them, so that its tail stands further on, or
// nowhere after it. Each shorter head that stands once, exactly, at h's
// place and that the region's tail follows directly, exactly (the region
// inserts between them and removes nothing), is a reading. It returns the
// longest such reading, how many there are, and whether two of them end
// the region at different file lines (they give different files).
func shorterHeads(content []byte, fl *lineindex.Index, r Region, h anchor, cursor int, convert bool, opt matcher.Options) (rh, rt anchor, n int, split bool) {
	L := len(r.Lines)
	// follows reports whether some last lines of the region are the
	// file's lines from line at on, as they are: a byte comparison that
	// spares the matcher a search of the file for every shorter head
	// (most regions have no such reading, and a refusal's path runs this
	// too: models often misremember a region's last line).
	follows := func(at int) bool {
		for t := 1; t <= L-1 && at+t <= fl.Count(); t++ {
			k := 0
			for k < t && strings.TrimRight(r.Lines[L-t+k], "\r\n") == string(fl.Text(at+k+1)) {
				k++
			}
			if k == t {
				return true
			}
		}
		return false
	}
	end := -1
	for k := h.n - 1; k >= 1; k-- {
		if !follows(h.line + k) {
			continue
		}
		text := strings.Join(r.Lines[:k], "")
		if nonBlankLines(text) == 0 {
			continue
		}
		m, line, err := locate(content, fl, text, cursor, -1, opt)
		if err != nil || m.Tier != matcher.Exact || line != h.line {
			continue
		}
		t := tail(content, fl, r, h.line+k, L-k, false, convert, opt)
		if !t.found || t.m.Tier != matcher.Exact || t.line != h.line+k {
			continue
		}
		switch e := t.line + t.n; {
		case end < 0:
			end, rh, rt = e, h, t
			rh.n, rh.m = k, m
		case e != end:
			split = true
		}
		n++
	}
	return rh, rt, n, split
}

// pairsElsewhere reports whether region r, whose lines stand together
// from file line at, has its first and last lines at another pair of
// places in the file after line cursor, the first before the last (white
// space at their ends aside): only then could the region also be read as
// deleting the lines between them. A first line that stands again only
// after the region's last line (a docstring's quotes), or a last line
// that stands again only before its first, pairs with nothing else.
func pairsElsewhere(fl *lineindex.Index, r Region, cursor, at int) bool {
	first, last := strings.TrimSpace(r.Lines[0]), strings.TrimSpace(r.Lines[len(r.Lines)-1])
	end := at + len(r.Lines) - 1
	firstOther := -1 // the first line's first other place
	maxLast := end   // the last line's last place
	for i := cursor; i < fl.Count(); i++ {
		l := strings.TrimSpace(string(fl.Text(i + 1)))
		switch {
		case l == last && i != end && i > at:
			return true // the region's first line, and the last line further on
		case l == last:
			maxLast = max(maxLast, i)
		}
		if l == first && i != at && firstOther < 0 {
			firstOther = i
		}
	}
	// Another place of the first line, and a place of the last after it.
	return firstOther >= 0 && firstOther < maxLast
}

func nonBlankLines(text string) int {
	n := 0
	for _, l := range splitKeep(text) {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// anchorPlace is the file line an anchor is tied to: a head's first line,
// a tail's last.
func anchorPlace(a anchor, isTail bool) int {
	if isTail {
		return a.line + a.n - 1
	}
	return a.line
}

// head grows the region's leading anchor.
func head(content []byte, fl *lineindex.Index, r Region, from, limit int, convert bool, opt matcher.Options) anchor {
	return grow(content, fl, func(n int) string { return strings.Join(r.Lines[:n], "") }, min(len(r.Lines), limit), from, false, true, convert, opt)
}

// tail grows the region's trailing anchor, from its last line back, at
// most limit lines, located from line from on.
func tail(content []byte, fl *lineindex.Index, r Region, from, limit int, shift, convert bool, opt matcher.Options) anchor {
	L := len(r.Lines)
	return grow(content, fl, func(n int) string {
		text := strings.Join(r.Lines[L-n:], "")
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		return text
	}, limit, from, true, shift, convert, opt)
}

// planRegion places region r (the i-th, 0-based) in the file from line
// cursor on. Its anchors are read as sent first: where that places the
// region, its new lines are written as sent. Only where it does not is
// the region read once more with its anchors grown from exact lines into
// lines whose indentation the model wrote in the other character (tabs as
// spaces or the reverse, throughout the region), and then its new lines
// are re-indented as those lines were found. So behind anchors that stand
// exactly, no indentation is changed.
func planRegion(content []byte, fl *lineindex.Index, r Region, i, cursor int, opt matcher.Options, atStart, atEnd bool) (*placed, int, *refusal) {
	rep, end, rf := placeRegion(content, fl, r, i, cursor, opt, atStart, atEnd, false)
	if rf == nil || rf.Why.Kind() != ErrNotFound && rf.Why.Kind() != ErrAmbiguous {
		return rep, end, rf
	}
	if rep2, end2, rf2 := placeRegion(content, fl, r, i, cursor, opt, atStart, atEnd, true); rf2 == nil {
		return rep2, end2, nil
	}
	return rep, end, rf
}

func placeRegion(content []byte, fl *lineindex.Index, r Region, i, cursor int, opt matcher.Options, atStart, atEnd, convert bool) (*placed, int, *refusal) {
	fail := func(why Reason, format string, args ...any) *refusal {
		return &refusal{Why: why, Region: i, Line: r.Line, Reason: fmt.Sprintf(format, args...)}
	}
	N := fl.Count()
	h := head(content, fl, r, cursor, len(r.Lines), convert, opt)
	if h.found && h.n == len(r.Lines) {
		// The whole region stands in the file: nothing changes here. But a
		// region without a change is also how a deletion of the lines
		// between its first and last lines would look: it is taken as
		// unchanged only when its first and its last line each stand once
		// (after the previous region), so that no other reading places
		// them apart. A region that drops the lines up to the file's edge
		// (below) does change something, and is read as its lines stand
		// together, as any region with a change is.
		// Without a marker at the snippet's start (end), the file's lines
		// before (after) the region are lines it removes, under the
		// deletion rule; where the rule refuses them, the refusal is that
		// the snippet does not reach the file's edge.
		var edge *refusal
		blankEnd := atEnd && h.line+h.n < N && blankFrom(fl, h.line+h.n)
		from, to := h.line, h.line+h.n
		if atStart && h.line != 0 {
			edge, from = notAtStart(fail, h.line+1), 0
		}
		if atEnd && h.line+h.n != N && !blankEnd {
			edge, to = notAtEnd(fail, h.line+h.n, N), N
		}
		if edge != nil && (h.m.Tier != matcher.Exact || nonBlankIn(fl, from, h.line)+nonBlankIn(fl, h.line+h.n, to) > maxUnaccounted) {
			return nil, 0, edge
		}
		// Found with its indentation shifted, the region may still differ
		// from the file once re-indented (white space at a line's end, a
		// line of white space only): those lines, a to b, are its change,
		// and a region with a change is read as its lines stand together.
		var ls []string
		a, b := -1, -1
		if h.m.Tier == matcher.Indentation {
			ls = splitKeep(reindent(h.m, strings.Join(r.Lines, "")))
			for k := 0; k < len(ls) && len(ls) == len(r.Lines); k++ {
				if strings.TrimRight(ls[k], "\r\n") != string(fl.Text(h.line+k+1)) {
					if a < 0 {
						a = k
					}
					b = k
				}
			}
		}
		L := len(r.Lines)
		_, _, e1 := locate(content, fl, r.Lines[0], cursor, -1, opt)
		_, _, e2 := locate(content, fl, strings.TrimSuffix(r.Lines[L-1], "\n")+"\n", cursor, -1, opt)
		if edge == nil && !blankEnd && a < 0 && L > 1 && (e1 != nil || e2 != nil) && pairsElsewhere(fl, r, cursor, h.line) {
			return nil, 0, fail(UnchangedTwice, "it changes nothing, and its first or last line stands more than once in the file, so it could also mean deleting lines between them (graft does not delete lines a snippet does not show): show the change the region makes, or use edit to delete lines")
		}
		if edge != nil {
			// The region stands exactly: its lines are the file's, and
			// the lines outside it up to the file's edge go.
			if blankEnd {
				to = N
			}
			rep := &placed{start: fl.Start(from + 1), end: fl.Start(min(to, N) + 1), text: string(content[fl.Start(h.line+1):fl.Start(min(h.line+h.n, N)+1)]), region: i,
				line: from + 1, last: to, tier: h.m.Tier, similarity: h.m.Similarity,
				from: from, to: to, newLines: r.Lines, lines: r.Lines, headAt: h.line, snippetLine: r.Line, edge: edge}
			if to == N {
				rep.end = len(content)
			}
			return rep, to, nil
		}
		if a >= 0 {
			from, to, end := h.line+a, h.line+b+1, h.line+h.n
			if blankEnd {
				to, end = N, N
			}
			rep := &placed{start: fl.Start(from + 1), end: fl.Start(min(to, N) + 1), text: strings.Join(ls[a:b+1], ""), region: i,
				line: from + 1, last: to, tier: h.m.Tier, similarity: h.m.Similarity,
				from: from, to: to, newLines: ls[a : b+1], lines: ls, headAt: h.line, snippetLine: r.Line}
			if to == N {
				rep.end = len(content)
			}
			return rep, end, nil
		}
		if blankEnd {
			// Only blank lines follow it, and the snippet ends where the
			// file's code ends: it drops them.
			from := h.line + h.n
			return &placed{start: fl.Start(from + 1), end: len(content), region: i, line: from + 1, last: N,
				tier: h.m.Tier, similarity: h.m.Similarity, from: from, to: N, lines: r.Lines, headAt: h.line, snippetLine: r.Line}, N, nil
		}
		return nil, h.line + h.n, nil
	}
	var paired *anchor // the tail that placed a head standing several times
	if !h.found && h.ambiguous != nil && !atStart {
		if ph, pt, ok := pairHead(content, fl, r, h, cursor, convert, opt); ok {
			paired, h = &pt, ph
		}
	}
	tailFrom := cursor
	if h.found {
		tailFrom = h.line + h.n
	}
	// A head found with its indentation shifted (or its trailing white
	// space or line endings forgiven) says how the whole region differs
	// from the file: the region is rewritten that way once, so that its
	// tail and new lines are read in the file's terms (and a tail is not
	// taken at some other place where the unshifted text happens to stand).
	adapted := false
	sent := r // the region as the snippet has it
	if h.found && h.m.Tier != matcher.Exact {
		lines := splitKeep(reindent(h.m, strings.Join(r.Lines, "")))
		if len(lines) != len(r.Lines) {
			return nil, 0, fail(Unshiftable, "its lines could not be re-indented line for line as its first lines were found: send the region with the file's indentation")
		}
		if k := shiftDisagrees(r.Lines, lines, strings.Join(r.Lines[:h.n], ""), fl, h.line, h.m.Tier); k >= 0 {
			return nil, 0, fail(Unshiftable, "its first lines were found with their indentation shifted, but its line %d (%q) reads two ways: with that shift, or re-indented as the file's indentation levels go: send the region with the file's indentation", r.Line+k, clip(r.Lines[k]))
		}
		r.Lines = lines
		adapted = true
	}
	t := tail(content, fl, r, tailFrom, len(r.Lines)-h.n, !h.found, convert, opt)
	if paired != nil && (!t.found || t.line+t.n != paired.line+paired.n) {
		// Read in the file's terms after the head, the tail is not the
		// one that told the head's places apart (it needs a shift of
		// its own, or stands elsewhere): the head's places stay
		// ambiguous.
		return nil, 0, &refusal{Why: AnchorTwice, Region: i, Line: r.Line, Count: paired.ambiguous.Count,
			Reason:     fmt.Sprintf("its first lines stand %d times in the file and the lines after them are new: show more unchanged lines before the change", paired.ambiguous.Count),
			Candidates: shift(paired.ambiguous.Candidates, cursor)}
	}
	if h.found && t.found && h.m.Tier == matcher.Exact && t.m.Tier == matcher.TrailingSpace {
		// The tail carries trailing white space that the file's lines do
		// not, while the head stands exactly: where the head with that
		// slip taken off stands too, at another place before the tail,
		// the region's first lines read two ways (the model's slip on
		// every line, or lines of the file that end in that white space).
		if slip := trailingSlip(fl, r, anchor{}, t); slip != "" {
			var b strings.Builder
			for _, l := range r.Lines[:h.n] {
				b.WriteString(strings.TrimSuffix(strings.TrimRight(l, "\r\n"), slip) + "\n")
			}
			if m, line, err := locate(content, fl, b.String(), cursor, t.line, opt); err == nil && m.Tier == matcher.Exact && line != h.line {
				return nil, 0, &refusal{Why: EndsEitherWay, Region: i, Line: r.Line, Count: 2,
					Reason: fmt.Sprintf("its first lines stand at line %d as sent and, without the trailing white space its last lines add to the file's, at line %d, so they do not say where the region starts: send the region's lines as the file has them", h.line+1, line+1)}
			}
		}
	}
	if t.found && h.found && h.line > cursor && !atEnd && !standsOnce(content, fl, r.Lines[0], cursor, opt) {
		// A tail that stands once after the head but also before it (after
		// the previous region) is unique only because of where the search
		// starts. Where the head's first line stands once, the head is
		// where the region starts, and the tail after it is the one the
		// file's order allows. But a head told apart from its other places
		// only by the lines it grew by may have grown through new lines
		// that happen to stand later in the file (a block moved): then the
		// tail standing before it says the region's ends could be read
		// either way, and it is refused.
		L := len(r.Lines)
		text := strings.Join(r.Lines[L-t.n:], "")
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		// Only a place found by the tier that found the tail counts: an
		// exact tail does not stand where its lines stand only shifted.
		m, line, err := locate(content, fl, text, cursor, h.line, opt)
		var ref *matcher.Refusal
		if err == nil && m.Tier == t.m.Tier || errors.As(err, &ref) && errors.Is(err, matcher.ErrAmbiguous) && ref.Tier == t.m.Tier {
			if err != nil {
				line = cursor
			}
			return nil, 0, &refusal{Why: EndsEitherWay, Region: i, Line: r.Line, Count: 2,
				Reason: fmt.Sprintf("its last lines stand after its first lines (line %d) but also before them (near line %d), so they do not say where the region ends: show more unchanged lines before the end of the region", t.line+1, line+1)}
		}
	}
	if !h.found && !t.found {
		e := fail(NoAnchor, "neither its first nor its last lines are in the file after line %d, so nothing says where it goes: start and end each region with unchanged lines of the file", cursor)
		if h.ambiguous != nil || t.ambiguous != nil {
			ref := h.ambiguous
			if ref == nil {
				ref = t.ambiguous
			}
			e.Why, e.Count = AnchorTwice, ref.Count
			e.Reason = fmt.Sprintf("its unchanged lines stand %d times in the file (after line %d) and nothing tells them apart: show more unchanged lines around the change", ref.Count, cursor)
			e.Candidates = shift(ref.Candidates, cursor)
		} else {
			e.Candidates = shift(h.candidates, cursor)
		}
		return nil, 0, e
	}
	if h.ambiguous != nil && !h.found && !atStart {
		return nil, 0, &refusal{Why: AnchorTwice, Region: i, Line: r.Line, Count: h.ambiguous.Count,
			Reason:     fmt.Sprintf("its first lines stand %d times in the file and the lines after them are new: show more unchanged lines before the change", h.ambiguous.Count),
			Candidates: shift(h.ambiguous.Candidates, cursor)}
	}
	if t.ambiguous != nil && !t.found && !atEnd {
		return nil, 0, &refusal{Why: AnchorTwice, Region: i, Line: r.Line, Count: t.ambiguous.Count,
			Reason:     fmt.Sprintf("its last lines stand %d times in the file after its first lines and the lines before them are new: show more unchanged lines after the change", t.ambiguous.Count),
			Candidates: shift(t.ambiguous.Candidates, tailFrom)}
	}

	// Both ends must be anchored, but where the snippet has no marker: a
	// region's line that is not in the file may be new code or a line the
	// model misremembered, and only an anchor on the far side tells.
	if !h.found && !atStart {
		e := fail(NoAnchor, "its first line %q is not in the file after line %d: start the region with unchanged lines of the file (a region inserting new lines shows the line before them and the line after)", clip(r.Lines[0]), cursor)
		e.Candidates = shift(h.candidates, cursor)
		if t.found {
			// The file's text where the region's first lines should be:
			// the lines before its last lines.
			a := max(cursor, t.line-len(r.Lines)+t.n)
			e.Candidates = append(e.Candidates, fileText(content, fl, a, t.line+t.n, "the file's lines up to where the region's last lines stand"))
		}
		return nil, 0, e
	}
	if t.ambiguous == nil && !atEnd && h.found && paired == nil {
		// Shorter heads the tail follows directly: where the head leaves
		// the tail no place after it, they alone can place the region, and
		// they do where they all end it at one line; where the tail stands
		// after the head, they must end it there too, or the region reads
		// two ways (the head grown through lines it inserts, and the lines
		// between it and the tail gone) and is refused. A region whose
		// head or tail was found by a looser tier (its indentation shifted,
		// trailing white space or line endings forgiven; the region then
		// read in the file's terms) has the same two readings, so the same
		// refusal; but its shorter heads do not place it where its tail
		// stands nowhere after the head (tried for shifted regions:
		// FuzzOneChange found blank-line regions so placed past the
		// file's end).
		rh, rt, n, split := shorterHeads(content, fl, r, h, cursor, convert, opt)
		switch {
		case split || n > 0 && t.found && rt.line+rt.n != t.line+t.n:
			return nil, 0, &refusal{Why: EndsEitherWay, Region: i, Line: r.Line, Count: 2,
				Reason: fmt.Sprintf("its first lines stand at line %d, and the lines after them read both as the file's next lines and as lines it inserts, so they do not say where the region ends: show the unchanged lines after the change", h.line+1)}
		case n > 0 && !t.found && !adapted:
			h, t = rh, rt
		}
	}
	if !t.found && t.ambiguous == nil && atStart && h.found && h.m.Tier != matcher.Exact {
		// Without a marker at the snippet's start the region begins where
		// the file does; a head that stands only shifted, further down,
		// with no tail after it, is a changed first line that happens to
		// stand shifted elsewhere (a key repeated in a nested block). Read
		// without it, as sent, the tail alone places the region's end.
		if t2 := tail(content, fl, sent, cursor, len(sent.Lines), true, convert, opt); t2.found {
			r, adapted, h, t = sent, false, anchor{}, t2
		}
	}
	if !t.found && !atEnd {
		e := fail(NoAnchor, "its last line %q is not in the file after its first lines: end the region with unchanged lines of the file (a region inserting new lines shows the line before them and the line after)", clip(r.Lines[len(r.Lines)-1]))
		e.Candidates = shift(t.candidates, tailFrom)
		if h.found {
			// The file's text where the region's last lines should be:
			// the lines after its first lines.
			e.Candidates = append(e.Candidates, fileText(content, fl, h.line, min(fl.Count(), h.line+len(r.Lines)), "the file's lines from where the region's first lines stand"))
		}
		return nil, 0, e
	}
	// The file lines [from, to) are replaced by the region's lines
	// [h.n, len-t.n); a snippet without a marker at its start (end)
	// reaches the file's start (end).
	from, to := 0, N
	hn := h.n // the head's lines that stay the file's
	if adapted && h.m.Tier == matcher.Indentation {
		// Re-indented by the shift the head was found with, a head line
		// that still differs from the file's line (white space at its
		// end, a line of white space only) is the region's own: the
		// region is written from there.
		for k := 0; k < h.n; k++ {
			if strings.TrimRight(r.Lines[k], "\r\n") != strings.TrimRight(string(fl.Text(h.line+k+1)), "\r\n") {
				hn = k
				break
			}
		}
	}
	if h.found {
		from = h.line + hn
	}
	if t.found {
		to = t.line
	}
	// Without a marker at the snippet's start (end), the file's lines
	// before its first (after its last) lines are lines the region
	// removes, under the deletion rule, where its anchors stand exactly
	// (so its first and last lines are written as the file has them);
	// where the rule refuses them, the refusal is that the snippet does
	// not reach the file's edge.
	var edge *refusal
	exact := (!h.found || h.m.Tier == matcher.Exact) && (!t.found || t.m.Tier == matcher.Exact)
	headAt := from - hn
	if atStart && h.found && h.line != 0 {
		edge = notAtStart(fail, h.line+1)
		if !exact || nonBlankIn(fl, 0, h.line) > maxUnaccounted {
			return nil, 0, edge
		}
		from, hn = 0, 0
	}
	tn := t.n // the tail's lines that stay the file's
	if atEnd && t.found && t.line+t.n < N && blankFrom(fl, t.line+t.n) {
		// Only blank lines follow the last lines: the snippet ends where
		// the file's code ends, and drops them (blank lines hold no
		// code; the region is written to the file's end).
		to, tn = N, 0
	}
	if atEnd && t.found && t.line+t.n != N && tn > 0 {
		edge = notAtEnd(fail, t.line+t.n, N)
		if !exact || nonBlankIn(fl, t.line+t.n, N) > maxUnaccounted {
			return nil, 0, edge
		}
		to, tn = N, 0
	}
	newLines := r.Lines[hn : len(r.Lines)-tn]
	// Re-indent the new lines as the anchor was found (the head's, else
	// the tail's), giving lines equal to the anchor's the file's bytes.
	text := strings.Join(newLines, "")
	adapt := h.m
	switch {
	case !h.found || h.m.Tier == matcher.Exact && t.found && t.m.Tier == matcher.Indentation && !indented(strings.Join(sent.Lines[:h.n], "")):
		// No head, or an exact head of top-level lines (which cannot show
		// a shift) and a tail that shows the region's indentation
		// shifted: the tail says how.
		adapt = t.m
	case h.m.Tier == matcher.Exact && t.found && t.m.Tier == matcher.Indentation:
		// An exact head with indented lines shows that the region is sent
		// with the file's indentation, so last lines that stand only
		// shifted are lines the region re-indents (a body wrapped in a
		// new block), not an anchor that says how to re-indent the rest.
		// Without a marker at the snippet's end, where those lines end
		// the file (blank lines aside), the file's end ends the region,
		// and the lines are written as sent, those included; with a
		// marker, nothing else says where the region ends. (The tail still
		// counts as found for the rules below: one line found shifted is
		// weak.)
		if !atEnd || to != N && t.line+t.n != N {
			return nil, 0, fail(MixedShift, "its first lines stand in the file as sent and its last lines only with their indentation shifted, so its last lines do not say where it ends: show unchanged lines after the change, indented as in the file")
		}
		to, tn = N, 0
		newLines = r.Lines[hn:]
		text = strings.Join(newLines, "")
	}
	if h.found && t.found && t.m.Tier == matcher.Indentation && adapted {
		// Re-indented as its first lines were found, the region's last
		// lines still need a shift of their own: its lines do not share
		// one. (Last lines that then differ only by trailing white space
		// or line endings are the file's, as anchors are.)
		return nil, 0, fail(MixedShift, "its first lines were found with a shift of their indentation and its last lines need another: send the region as the file has it")
	}
	if !adapted {
		text = reindent(adapt, text)
	}
	// One line found with its indentation shifted is weak: it may be a new
	// line that happens to read like a file line. It places the region
	// only when the other end shows the same shift (the region as sent
	// does not stand in the file as it is there).
	weak := func(a anchor, block string) bool {
		return a.found && (a.m.Tier == matcher.Indentation || a.m.Tier == matcher.TrailingSpace) && nonBlankLines(block) < 2
	}
	L := len(sent.Lines)
	weakHead := weak(h, strings.Join(sent.Lines[:h.n], ""))
	if weakHead || weak(t, strings.Join(r.Lines[L-t.n:], "")) {
		tier := t.m.Tier
		if weakHead {
			tier = h.m.Tier
		}
		other := !h.found || !t.found
		if h.found && t.found {
			tailSent := strings.Join(sent.Lines[L-t.n:], "")
			if !strings.HasSuffix(tailSent, "\n") {
				tailSent += "\n"
			}
			m, _, err := locate(content, fl, tailSent, t.line, t.line+t.n, opt)
			headSent := strings.Join(sent.Lines[:h.n], "")
			hm, _, herr := locate(content, fl, headSent, h.line, h.line+h.n, opt)
			other = err == nil && m.Tier == tier && herr == nil && hm.Tier == tier
		}
		if !other {
			if tier == matcher.TrailingSpace {
				return nil, 0, fail(WeakShift, "it is placed by one line whose trailing white space differs from the file's, and its other end does not show the same difference, so that line may be new: show more unchanged lines, as the file has them")
			}
			return nil, 0, fail(WeakShift, "it is placed by one line whose indentation differs from the file's, and its other end does not show the same shift, so that line may be new: show more unchanged lines, indented as in the file")
		}
	}
	if h.found && h.m.Tier == matcher.TrailingSpace || t.found && t.m.Tier == matcher.TrailingSpace {
		// The region's anchors differ from the file in trailing white
		// space only: the model does not carry it, so its unchanged lines
		// keep the file's. Otherwise the region's bytes are taken as sent
		// (trailing white space it changes is a change).
		if adapted && h.m.Tier == matcher.TrailingSpace {
			// Its lines as sent, not as the matcher rewrote them for the
			// head: that took the slip off once where every head line
			// carried it, and it is taken off here, once.
			text = strings.Join(sent.Lines[hn:len(sent.Lines)-tn], "")
		}
		text = keepFileBytes(fl, from, to, text, trailingSlip(fl, sent, h, t))
	}
	rep := &placed{start: fl.Start(from + 1), end: fl.Start(min(to, N) + 1), text: text, region: i,
		line: from + 1, last: max(from, to), tier: adapt.Tier, similarity: adapt.Similarity,
		from: from, to: to, newLines: newLines, lines: r.Lines, headAt: headAt, snippetLine: r.Line, edge: edge}
	if to == N && rep.end < len(content) {
		rep.end = len(content)
	}
	if h.found && t.found && looser(t.m.Tier, h.m.Tier) {
		rep.tier, rep.similarity = t.m.Tier, t.m.Similarity
	}
	end := to
	if t.found && to != N {
		end = t.line + t.n
	}
	return rep, end, nil
}

// nonBlankIn is how many of the file's lines [from, to) (0-based) are not
// blank.
func nonBlankIn(fl *lineindex.Index, from, to int) int {
	n := 0
	for i := from; i < to && i < fl.Count(); i++ {
		if len(bytes.TrimSpace(fl.Text(i+1))) > 0 {
			n++
		}
	}
	return n
}

// notAtStart and notAtEnd are the refusals of a snippet without a marker
// at its start (end) whose region does not reach the file's edge: its
// first lines stand at file line at (1-based), its last lines end at line
// at of n.
func notAtStart(fail func(Reason, string, ...any) *refusal, at int) *refusal {
	return fail(NotAtEdge, "the snippet has no marker at its start, so it must begin where the file begins, but its first lines stand at line %d: add a marker such as \"%s\" before them", at, markerHint)
}

func notAtEnd(fail func(Reason, string, ...any) *refusal, at, n int) *refusal {
	return fail(NotAtEdge, "the snippet has no marker at its end, so it must end where the file ends, but its last lines stand at line %d of %d: add a marker such as \"%s\" after them", at, n, markerHint)
}

func looser(a, b matcher.Tier) bool { return a != matcher.Exact && b == matcher.Exact }

func shift(cs []matcher.Candidate, lines int) []matcher.Candidate {
	out := make([]matcher.Candidate, len(cs))
	for i, c := range cs {
		c.Line += lines
		c.EndLine += lines
		out[i] = c
	}
	return out
}

// newLineBlank reports whether the line an anchor's block grew by (its
// last line for a head, its first for a tail) is blank.
func newLineBlank(block string, isTail bool) bool {
	ls := splitKeep(block)
	l := ls[len(ls)-1]
	if isTail {
		l = ls[0]
	}
	return strings.TrimSpace(l) == ""
}

// indented reports whether a non-blank line of block starts with white
// space.
func indented(block string) bool {
	for _, l := range splitKeep(block) {
		if strings.TrimSpace(l) != "" && (l[0] == ' ' || l[0] == '\t') {
			return true
		}
	}
	return false
}

// converted reports whether the line an anchor grew by (the block's last
// line for a head, its first for a tail; the block was found from file
// line line on) reads as the file line it was found at with its
// indentation written in another character: both are
// indented, with different first characters, and no line of the region
// (whole) is indented with the file's character (a model that writes tabs
// as spaces does so throughout).
func converted(block string, fl *lineindex.Index, line int, whole string, isTail bool) bool {
	ls := splitKeep(block)
	sent, at := ls[len(ls)-1], line+len(ls)-1 // a head grows by its last line
	if isTail {
		sent, at = ls[0], line
	}
	if at >= fl.Count() {
		return false
	}
	file := fl.Text(at + 1)
	ind := func(l []byte) bool { return len(l) > 0 && (l[0] == ' ' || l[0] == '\t') }
	if !ind([]byte(sent)) || !ind(file) || sent[0] == file[0] {
		return false
	}
	for _, l := range splitKeep(whole) {
		if l != "" && l[0] == file[0] {
			return false
		}
	}
	return true
}

// fileText is file lines [a, b) as a refusal's candidate.
func fileText(content []byte, fl *lineindex.Index, a, b int, reason string) matcher.Candidate {
	b = max(a, min(b, fl.Count()))
	return matcher.Candidate{Line: a + 1, EndLine: b, Text: string(content[fl.Start(a+1):fl.Start(b+1)]), Reason: reason}
}

// blankFrom reports whether the file's lines from 0-based line i on are
// all blank.
func blankFrom(fl *lineindex.Index, i int) bool {
	for ; i < fl.Count(); i++ {
		if len(bytes.TrimSpace(fl.Text(i+1))) > 0 {
			return false
		}
	}
	return true
}
