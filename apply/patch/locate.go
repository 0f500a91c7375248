package patch

import (
	"errors"
	"fmt"
	"strings"

	"github.com/graftdev/graft/matcher"
)

// Method says how a hunk was located.
type Method string

// Location methods other than the matcher's fuzzy tiers (which appear as
// the tier's name).
const (
	Exact  Method = "exact"  // at the stated line, or the only place when none was stated
	Offset Method = "offset" // the only exact place, away from the stated line
)

// Placement says where one hunk landed and how it was found.
type Placement struct {
	// Hunk is the 1-based number of the hunk within its file.
	Hunk int
	// Line and EndLine are the 1-based first and last lines of the hunk's
	// old lines in the file it applied to (EndLine = Line-1 for a hunk
	// that only inserts: it goes before Line).
	Line, EndLine int
	Method        Method
	// Offset is the located line minus the stated line, for Offset.
	Offset int
	// Similarity is 1 for Exact and Offset, the matcher's for a fuzzy tier.
	Similarity float64
}

// String renders the placement as "exact", "offset +12" or
// "TIER (similarity 0.97)".
func (p Placement) String() string {
	switch p.Method {
	case Exact:
		return "exact"
	case Offset:
		return fmt.Sprintf("offset %+d", p.Offset)
	}
	return fmt.Sprintf("%s (similarity %.2f)", p.Method, p.Similarity)
}

// located is a hunk placed on lines [start, end) of a file.
type located struct {
	h          *Hunk
	index      int // 1-based hunk number
	start, end int
	place      Placement
	// adapted holds the added lines rewritten by the matcher for a fuzzy
	// tier, in order (context lines are taken from the file regardless);
	// nil means the hunk's own text.
	adapted []string
}

// maxListed bounds the places listed when a hunk fits several.
const maxListed = 5

// locate finds h in f at or after line lo (doc.go, "Location"). index is
// the hunk's number for messages.
func locate(f *fileLines, h *Hunk, index, lo int, opt Options) (*located, *Error) {
	old := h.OldLines()
	n := f.n()
	fail := func(kind error, line int, format string, args ...any) *Error {
		return &Error{Kind: kind, Hunk: index, PatchLine: h.Line, Line: line, Reason: fmt.Sprintf(format, args...)}
	}
	at := func(start int, m Method, offset int) *located {
		return &located{h: h, index: index, start: start, end: start + len(old),
			place: Placement{Hunk: index, Line: start + 1, EndLine: start + len(old), Method: m, Offset: offset, Similarity: 1}}
	}
	lo, err := applyAnchors(f, h, lo)
	if err != nil {
		err.Hunk, err.PatchLine = index, h.Line
		return nil, err
	}
	if len(old) == 0 {
		switch {
		case n == 0 && lo == 0:
			return at(0, Exact, 0), nil
		case h.AtEOF:
			return at(n, Exact, 0), nil
		}
		return nil, fail(ErrConflict, 0, "the hunk only adds lines and has no context lines, so nothing confirms where they go in this non-empty file: include a few unchanged lines around them")
	}
	stated := -1
	switch {
	case h.AtEOF:
		stated = n - len(old)
	case h.HasPos && h.HeaderOld == 0:
		stated = h.OldStart
	case h.HasPos:
		stated = h.OldStart - 1
	}
	if stated >= lo && f.matchAt(stated, old) {
		return at(stated, Exact, 0), nil
	}
	occ := f.findAll(old, lo, maxListed+1)
	if h.AtEOF {
		occ = filterEOF(occ, len(old), n)
	}
	switch {
	case len(occ) == 1 && stated < 0:
		return at(occ[0], Exact, 0), nil
	case len(occ) == 1:
		return at(occ[0], Offset, occ[0]-stated), nil
	case len(occ) > 1:
		e := fail(ErrAmbiguous, stated+1, "its context and removed lines appear %d%s times (at lines %s)%s; add context lines to tell them apart",
			len(occ), more(len(occ)), lineList(occ), statedNote(h, stated))
		e.Count = len(occ)
		for _, i := range occ[:min(len(occ), maxListed)] {
			e.Candidates = append(e.Candidates, matcher.Candidate{Line: i + 1, EndLine: i + len(old), Similarity: 1,
				Text: string(f.content[f.offset(i):f.offset(i+len(old))]), Reason: "one of several exact matches"})
		}
		return nil, e
	}
	if opt.ExactOnly {
		return nil, fail(ErrConflict, stated+1, "its context and removed lines are not in the file%s", after(lo))
	}
	return locateFuzzy(f, h, index, lo, stated, opt)
}

// locateFuzzy hands the hunk's old lines to the matcher's fuzzy tiers,
// searching from line lo, and checks that what it found is whole lines,
// as many as the hunk has.
func locateFuzzy(f *fileLines, h *Hunk, index, lo, stated int, opt Options) (*located, *Error) {
	old := h.OldLines()
	base := f.offset(lo)
	region := f.content[base:]
	if f.noFinal == 1 && len(region) > 0 {
		// let the block's last line end the way the patch wrote it
		region = append(region[:len(region):len(region)], f.dominantEOL()...)
	}
	eol := f.dominantEOL()
	var ob, nb strings.Builder
	for _, l := range old {
		ob.WriteString(l.Text)
		ob.WriteString(eol)
	}
	// Only the added lines are adapted (context lines are copied from the
	// file), by Match.AdaptAdded: an added line is what the patch says,
	// re-indented, retyped and stripped of the caller's added trailing
	// white space by the tier as an edit's changed line is, never another
	// line's bytes.
	var added []Line
	for _, l := range h.Lines {
		if l.Op == Add {
			added = append(added, l)
		}
	}
	for i, l := range added {
		if i > 0 {
			nb.WriteByte('\n')
		}
		nb.WriteString(l.Text)
	}
	// The hunk's new side is the edit's new text: the matcher's guards
	// (already applied, stray blank lines, open typography) and its reading
	// of indentation weigh it exactly as they do for an edit, so a hunk
	// lands wherever the equivalent edit would.
	var ns strings.Builder
	for _, l := range h.NewLines() {
		ns.WriteString(l.Text)
		ns.WriteString(eol)
	}
	mo := matcher.Options{Budget: opt.Budget, NewText: ns.String()}
	if stated >= lo {
		mo.Hint = stated - lo + 1
	}
	m, err := matcher.Find(region, ob.String(), mo)
	if err != nil {
		return nil, refusal(err, h, index, lo, stated)
	}
	end := min(base+m.End, len(f.content))
	s, e := f.lineOf(base+m.Start), f.lineOf(max(base+m.Start, end-1))
	startOK := s < f.n() && base+m.Start == f.start[s]
	if s < f.n() && base+m.Start > f.start[s] && base+m.Start >= f.end[s] && s+1 < f.n() {
		s++ // the span starts at a line break: a stray blank line matched it
		startOK = true
	}
	fail := func(reason string) *Error {
		return &Error{Kind: ErrConflict, Hunk: index, PatchLine: h.Line, Line: s + 1, Reason: reason}
	}
	if s < f.n() && e < f.n() && e-s+1 < len(old) {
		// the matcher's stray-blank-lines tier: the old side has blank
		// lines at its ends that the file does not
		if t, ok := dropStrayBlanks(h, f, s, e); ok {
			h, old = t, t.OldLines()
		}
	}
	switch {
	case s >= f.n() || e >= f.n():
		return nil, fail(fmt.Sprintf("the nearest match (%s) lies past the end of the file", m.Tier))
	case !startOK || (end != f.next[e] && end != f.end[e]) || e < s:
		return nil, fail(fmt.Sprintf("the nearest match (%s, line %d) is not whole lines", m.Tier, s+1))
	case e-s+1 != len(old):
		return nil, fail(fmt.Sprintf("the nearest match (%s, lines %d-%d) has %d lines, the hunk's old side %d", m.Tier, s+1, e+1, e-s+1, len(old)))
	case h.AtEOF && e != f.n()-1:
		return nil, fail(fmt.Sprintf("the hunk must end the file (*** End of File), but its match (%s) ends at line %d of %d", m.Tier, e+1, f.n()))
	}
	adapted := []string{}
	if len(added) > 0 {
		adapted = strings.Split(m.AdaptAdded(nb.String()), "\n")
		if len(adapted) != len(added) {
			return nil, fail(fmt.Sprintf("re-indenting the added lines for %s changed their number", m.Tier))
		}
		for i, a := range adapted {
			adapted[i] = strings.TrimSuffix(a, "\r")
		}
	}
	l := &located{h: h, index: index, start: s, end: e + 1, adapted: adapted,
		place: Placement{Hunk: index, Line: s + 1, EndLine: e + 1, Method: Method(m.Tier), Similarity: m.Similarity}}
	if stated >= 0 {
		l.place.Offset = s - stated
	}
	return l, nil
}

// refusal turns a matcher refusal into an *Error with file line numbers.
func refusal(err error, h *Hunk, index, lo, stated int) *Error {
	e := &Error{Kind: ErrConflict, Hunk: index, PatchLine: h.Line, Line: stated + 1, Err: err}
	var r *matcher.Refusal
	if errors.As(err, &r) {
		for _, c := range r.Candidates {
			c.Line += lo
			c.EndLine += lo
			e.Candidates = append(e.Candidates, c)
		}
		if errors.Is(err, matcher.ErrAmbiguous) {
			e.Kind, e.Count = ErrAmbiguous, r.Count
			e.Reason = fmt.Sprintf("its context and removed lines fit %d places (%s)%s", r.Count, r.Tier, statedNote(h, stated))
			return e
		}
	}
	e.Reason = "its context and removed lines are not in the file" + after(lo)
	if r != nil && r.Reason != "" {
		e.Reason += ": " + r.Reason
	}
	return e
}

// applyAnchors moves lo past the first line equal to each Codex anchor in
// turn (exactly, else ignoring surrounding blanks). Several equal anchor
// lines are fine: the hunk must follow at least the first, which is all
// this assumes.
func applyAnchors(f *fileLines, h *Hunk, lo int) (int, *Error) {
	for _, a := range h.Anchors {
		found := -1
		for pass := 0; pass < 2 && found < 0; pass++ {
			for i := lo; i < f.n(); i++ {
				t := string(f.text(i))
				if t == a || (pass == 1 && strings.TrimSpace(t) == strings.TrimSpace(a)) {
					found = i
					break
				}
			}
		}
		if found < 0 {
			return 0, &Error{Kind: ErrConflict, Reason: fmt.Sprintf("the anchor line @@ %s is not in the file%s", strings.TrimSpace(a), after(lo))}
		}
		lo = found + 1
	}
	return lo, nil
}

func filterEOF(occ []int, m, n int) []int {
	var out []int
	for _, i := range occ {
		if i+m == n {
			out = append(out, i)
		}
	}
	return out
}

func lineList(occ []int) string {
	var s []string
	for _, i := range occ[:min(len(occ), maxListed)] {
		s = append(s, fmt.Sprint(i+1))
	}
	return strings.Join(s, ", ")
}

func more(n int) string {
	if n > maxListed {
		return " or more"
	}
	return ""
}

func after(lo int) string {
	if lo > 0 {
		return fmt.Sprintf(" after line %d (where the previous hunk ends)", lo)
	}
	return ""
}

func statedNote(h *Hunk, stated int) string {
	if stated >= 0 && h.HasPos {
		return fmt.Sprintf(", none at the stated line %d", stated+1)
	}
	return ""
}

// dropStrayBlanks returns h without the blank old lines at either end of
// its old side that the file lines s..e lack, when the rest matches those
// lines (blanks aside) one for one. Dropped lines are context or removed
// blank lines, so the hunk's meaning is unchanged.
func dropStrayBlanks(h *Hunk, f *fileLines, s, e int) (*Hunk, bool) {
	old := h.OldLines()
	n := e - s + 1
	d := len(old) - n
	blank := func(ls []Line) bool {
		for _, l := range ls {
			if strings.TrimSpace(l.Text) != "" {
				return false
			}
		}
		return true
	}
	// Whether a blank old line the file lacks is stray, or stands for lines
	// the model skipped, is the matcher's stray-blank-lines guard's call,
	// made before this runs: here the hunk only drops the lines it found.
	for lead := 0; lead <= d; lead++ {
		trail := d - lead
		if !blank(old[:lead]) || !blank(old[len(old)-trail:]) {
			continue
		}
		ok := true
		for i := 0; i < n && ok; i++ {
			ok = strings.TrimSpace(old[lead+i].Text) == strings.TrimSpace(string(f.text(s+i)))
		}
		if !ok {
			continue
		}
		t := *h
		t.Lines = nil
		k := 0
		for _, l := range h.Lines {
			if l.Op != Add {
				k++
				if k <= lead || k > len(old)-trail {
					continue
				}
			}
			t.Lines = append(t.Lines, l)
		}
		return &t, true
	}
	return nil, false
}
