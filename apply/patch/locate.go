package patch

import (
	"errors"
	"fmt"
	"strings"

	"github.com/graftdev/graft/internal/lineindex"
	"github.com/graftdev/graft/internal/textedit"
	"github.com/graftdev/graft/matcher"
)

// exact is the method of a hunk whose lines stand in the file as the
// patch has them (line endings aside), at its stated line or away from it:
// the matcher's exact tier, which every format reports the same way.
const exact = string(matcher.Exact)

// located is a hunk placed on the bytes [start, end) of a content, which
// are its lines [first, first+lines).
type located struct {
	h            *Hunk
	index        int // 1-based hunk number
	start, end   int
	first, lines int
	place        textedit.Location
	// adapted holds the added lines rewritten by the matcher for a fuzzy
	// tier, in order (context lines are taken from the file regardless);
	// nil means the hunk's own text.
	adapted []string
	// asEdit: the hunk is a SEARCH/REPLACE block, landed as a string edit
	// (the matcher's Adapt of the whole new side), and newText is that.
	asEdit  bool
	newText string
}

// locate finds h in content at or after byte lo, the start of line loLine
// (0-based), and returns it as an edit (doc.go, "Location"). index is the
// hunk's number for messages; asEdit lands the hunk as a string edit
// (SEARCH/REPLACE).
func locate(content []byte, h *Hunk, index, lo, loLine int, asEdit bool, opt Options) (*located, *failure) {
	old := h.OldLines()
	fail := func(kind error, line int, format string, args ...any) *failure {
		return &failure{Kind: kind, Hunk: index, PatchLine: h.Line, Line: line, Reason: fmt.Sprintf(format, args...)}
	}
	lo, loLine, err := applyAnchors(content, h, lo, loLine)
	if err != nil {
		err.Hunk, err.PatchLine = index, h.Line
		return nil, err
	}
	n := lineindex.New(content).Count()
	at := func(start, end, first int) *located {
		l := &located{h: h, index: index, start: start, end: end, first: first, lines: len(old), asEdit: asEdit,
			place: textedit.Location{Edit: hunkName(index), Line: first + 1, EndLine: first + len(old), Method: exact, Similarity: 1}}
		if asEdit {
			l.newText = sideText(h.NewLines())
		}
		return l
	}
	if len(old) == 0 {
		switch {
		case len(content) == 0 && lo == 0:
			return at(0, 0, 0), nil
		case h.AtEOF:
			return at(len(content), len(content), n), nil
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
	if stated >= loLine {
		off := lineindex.Skip(content, lo, stated-loLine)
		if end, ok := linesAt(content, off, old); ok {
			return at(off, end, stated), nil
		}
	}
	return locateMatch(content, h, index, lo, loLine, stated, asEdit, opt)
}

// locateMatch hands the hunk's old lines to the matcher (exact tier, then
// the fuzzy ones), searching from byte lo (line loLine) on, and checks
// that what it found is whole lines, as many as the hunk has.
func locateMatch(content []byte, h *Hunk, index, lo, loLine, stated int, asEdit bool, opt Options) (*located, *failure) {
	old := h.OldLines()
	eol := textedit.EOL(content, lo)
	region := content[lo:]
	if len(region) > 0 && region[len(region)-1] != '\n' {
		// let the block's last line end the way the patch wrote it
		region = append(region[:len(region):len(region)], eol...)
	}
	var ob strings.Builder
	for _, l := range old {
		ob.WriteString(l.Text)
		ob.WriteString(eol)
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
	// A diff's hunk says which lines are context (copied from the file,
	// below); a SEARCH/REPLACE block, a string edit, does not.
	mo := matcher.Options{ExactOnly: opt.ExactOnly, Budget: opt.Budget, NewText: ns.String(), WholeLines: true, ContextKnown: !asEdit}
	if h.Unchanged {
		// Nothing to tell apart from an edit already made: located as a
		// string edit's unchanged member is, by its old text alone.
		mo.NewText = ""
	}
	if stated >= loLine {
		mo.Hint = stated - loLine + 1
	}
	m, err := matcher.Find(region, ob.String(), mo)
	if errors.Is(err, matcher.ErrNotFound) {
		// Not as whole lines: as the equivalent string edit, which may
		// find the old side starting at the line break before its first
		// line (a blank first line that was the previous line's end).
		mo.WholeLines = false
		if m2, err2 := matcher.Find(region, ob.String(), mo); err2 == nil {
			m, err = m2, nil
		}
	}
	if err != nil {
		return nil, refusal(err, h, index, loLine, stated)
	}
	start, end := lo+m.Start, min(lo+m.End, len(content))
	if start > 0 && content[start-1] != '\n' {
		if te, nx := lineindex.LineAt(content, start); te == start && nx > start && nx < len(content) {
			start = nx // the block starts at a line break: a stray blank line matched it
			m.Line++
			if asEdit {
				// As a string edit, the block's first (empty) line was the
				// previous line's end, and so is its new side's.
				if t, ok := dropLeadingBreak(h); ok {
					h, old = t, t.OldLines()
				}
			}
		}
	}
	first := loLine + m.Line - 1
	fail := func(reason string) *failure {
		return &failure{Kind: ErrConflict, Hunk: index, PatchLine: h.Line, Line: first + 1, Reason: reason}
	}
	var file []string // the lines of the block found
	for off := start; off < end; {
		te, nx := lineindex.LineAt(content, off)
		file = append(file, string(content[off:te]))
		off = nx
	}
	if len(file) < len(old) {
		// the matcher's stray-blank-lines tier: the old side has blank
		// lines at its ends that the file does not
		if t, ok := dropStrayBlanks(h, file); ok {
			h, old = t, t.OldLines()
		}
	}
	switch {
	case start > 0 && content[start-1] != '\n' || end < len(content) && content[end-1] != '\n':
		return nil, fail(fmt.Sprintf("the nearest match (%s, line %d) is not whole lines", m.Tier, first+1))
	case len(file) != len(old):
		return nil, fail(fmt.Sprintf("the nearest match (%s, lines %d-%d) has %d lines, the hunk's old side %d", m.Tier, first+1, first+len(file), len(file), len(old)))
	case h.AtEOF && end != len(content):
		return nil, fail(fmt.Sprintf("the hunk must end the file (*** End of File), but its match (%s) ends at line %d of %d", m.Tier, first+len(file), lineindex.New(content).Count()))
	}
	l := &located{h: h, index: index, start: start, end: end, first: first, lines: len(old), asEdit: asEdit,
		place: textedit.Location{Edit: hunkName(index), Line: first + 1, EndLine: first + len(old), Method: string(m.Tier), Similarity: m.Similarity}}
	if m.Tier == matcher.Exact || m.Tier == matcher.LineEndings {
		// Exact, line endings aside: the hunk's own text.
		l.place.Method, l.place.Similarity = exact, 1
		if asEdit {
			l.newText = m.Adapt(sideText(h.NewLines()))
		}
		return l, nil
	}
	if asEdit {
		// A SEARCH/REPLACE block is a string edit: its new side is adapted
		// as an edit's new text is.
		l.newText = m.Adapt(sideText(h.NewLines()))
		l.adapted = []string{}
		return l, nil
	}
	// Only the added lines are taken from the adaptation (context lines
	// are copied from the file), by Match.AdaptKept: an added line is what
	// the patch says, re-indented, retyped and stripped of the caller's
	// added trailing white space by the tier as an edit's changed line is,
	// never another line's bytes; the hunk says which new lines are its
	// context, so an added line is read against the removed lines it
	// stands among, as the equivalent edit reads it.
	var (
		side  []string
		kept  []int
		isAdd []bool
		oi    int
		nAdd  int
	)
	for _, hl := range h.Lines {
		switch hl.Op {
		case Delete:
			oi++
		case Context:
			side, kept, isAdd = append(side, hl.Text), append(kept, oi), append(isAdd, false)
			oi++
		case Add:
			side, kept, isAdd = append(side, hl.Text), append(kept, -1), append(isAdd, true)
			nAdd++
		}
	}
	l.adapted = []string{}
	if nAdd > 0 {
		all := strings.Split(m.AdaptKept(strings.Join(side, "\n"), kept, len(old)), "\n")
		if len(all) != len(side) {
			return nil, fail(fmt.Sprintf("re-indenting the added lines for %s changed their number", m.Tier))
		}
		for j, a := range all {
			if isAdd[j] {
				l.adapted = append(l.adapted, strings.TrimSuffix(a, "\r"))
			}
		}
	}
	return l, nil
}

// sideText joins lines with "\n", the last one ending with "\n" when the
// patch gave it a line ending.
func sideText(ls []Line) string {
	var b strings.Builder
	for i, l := range ls {
		b.WriteString(l.Text)
		if i < len(ls)-1 || l.EOL != "" {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// edit renders a located hunk as the bytes that replace its block (doc.go,
// "Bytes"): context lines are copied from the file; added lines take the
// patch's line endings when the hunk's old lines matched the file's endings
// exactly, else the endings of the file lines around them.
func (l *located) edit(content []byte) textedit.Change {
	w := &writer{eol: textedit.EOL(content, l.start)}
	// A block that starts after a last line without a line ending (an
	// insertion at the end) gives that line one first.
	w.pending = l.start > 0 && content[l.start-1] != '\n'
	// Added lines take the line ending of the place they land (the one
	// policy, textedit.EOL); an empty file has none to give, so they keep
	// the patch's own.
	near := textedit.EOL(content, l.start)
	if len(content) == 0 {
		near = ""
	}
	keep := l.adapted == nil && l.end > l.start
	if keep {
		off := l.start
		for _, ol := range l.h.OldLines() {
			fe := eolAt(content, off)
			if ol.EOL != fe && !(ol.EOL == "\n" && fe == "") {
				keep = false
				break
			}
			_, off = lineindex.LineAt(content, off)
		}
	}
	switch {
	case l.asEdit && keep:
		for _, nl := range l.h.NewLines() {
			w.line(nl.Text, nl.EOL)
		}
	case l.asEdit:
		text := l.newText
		if near != "" {
			text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", near)
		}
		w.raw([]byte(text))
	default:
		off, ai := l.start, 0
		for _, hl := range l.h.Lines {
			switch hl.Op {
			case Context, Delete:
				te, nx := lineindex.LineAt(content, off)
				if nx > te {
					near = string(content[te:nx])
				}
				if hl.Op == Context {
					w.raw(content[off:nx])
				}
				off = nx
			case Add:
				text := hl.Text
				if l.adapted != nil {
					text = l.adapted[ai]
				}
				eol := hl.EOL
				if eol != "" && !keep && near != "" {
					eol = near
				}
				w.line(text, eol)
				ai++
			}
		}
	}
	if w.pending && l.end < len(content) {
		w.buf = append(w.buf, w.eol...)
	}
	return textedit.Change{Start: l.start, End: l.end, New: string(w.buf), Desc: lineDesc(l.place.Line, max(l.place.Line, l.place.EndLine))}.Located(l.place)
}

// hunkName names a file's index-th hunk in messages and results.
func hunkName(index int) string { return fmt.Sprintf("hunk %d", index) }

// lineDesc says which lines a change targets.
func lineDesc(first, last int) string {
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d-%d", first, last)
}

// refusal turns a matcher refusal into an *failure with file line numbers.
func refusal(err error, h *Hunk, index, loLine, stated int) *failure {
	e := &failure{Kind: ErrConflict, Hunk: index, PatchLine: h.Line, Line: stated + 1, Err: err}
	var r *matcher.Refusal
	if errors.As(err, &r) {
		var lines []string
		for _, c := range r.Candidates {
			c.Line += loLine
			c.EndLine += loLine
			e.Candidates = append(e.Candidates, c)
			lines = append(lines, fmt.Sprint(c.Line))
		}
		if errors.Is(err, matcher.ErrAmbiguous) {
			e.Kind, e.Count = ErrAmbiguous, r.Count
			if r.Tier == matcher.Exact {
				e.Reason = fmt.Sprintf("its context and removed lines appear %d times (at lines %s)%s; add context lines to tell them apart",
					r.Count, strings.Join(lines, ", "), statedNote(h, stated))
			} else {
				e.Reason = fmt.Sprintf("its context and removed lines fit %d places (%s)%s", r.Count, r.Tier, statedNote(h, stated))
			}
			return e
		}
	}
	e.Reason = "its context and removed lines are not in the file" + after(loLine)
	if r != nil && r.Reason != "" {
		e.Reason += ": " + r.Reason
	}
	return e
}

// applyAnchors moves lo (the start of line loLine) past the first line
// equal to each Codex anchor in turn (exactly, else ignoring surrounding
// blanks). Several equal anchor lines are fine: the hunk must follow at
// least the first, which is all this assumes.
func applyAnchors(content []byte, h *Hunk, lo, loLine int) (int, int, *failure) {
	for _, a := range h.Anchors {
		found, foundLine := -1, 0
		for pass := 0; pass < 2 && found < 0; pass++ {
			for off, i := lo, loLine; off < len(content); i++ {
				te, nx := lineindex.LineAt(content, off)
				t := string(content[off:te])
				if t == a || (pass == 1 && strings.TrimSpace(t) == strings.TrimSpace(a)) {
					found, foundLine = nx, i+1
					break
				}
				off = nx
			}
		}
		if found < 0 {
			return 0, 0, &failure{Kind: ErrConflict, Reason: fmt.Sprintf("the anchor line @@ %s is not in the file%s", strings.TrimSpace(a), after(loLine))}
		}
		lo, loLine = found, foundLine
	}
	return lo, loLine, nil
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

// dropLeadingBreak returns h without its old side's first line, which is
// empty, and without its new side's first line when that is empty too:
// a SEARCH/REPLACE block read as the string edit it is, found starting at
// the line break that ends the line before the block, so that both sides'
// first line breaks are that line's end. A new side that starts with a
// line of text would join the line before: not this case (false).
func dropLeadingBreak(h *Hunk) (*Hunk, bool) {
	oldAt, newAt := -1, -1
	for i, l := range h.Lines {
		if oldAt < 0 && l.Op != Add {
			oldAt = i
		}
		if newAt < 0 && l.Op != Delete {
			newAt = i
		}
	}
	if oldAt < 0 || newAt < 0 || h.Lines[oldAt].Text != "" || h.Lines[newAt].Text != "" {
		return nil, false
	}
	t := *h
	t.Lines = nil
	for i, l := range h.Lines {
		if i != oldAt && i != newAt {
			t.Lines = append(t.Lines, l)
		}
	}
	return &t, true
}

// dropStrayBlanks returns h without the blank old lines at either end of
// its old side that the block found (file, its lines) lacks, when the
// rest matches those lines (blanks aside) one for one. Dropped lines are
// context or removed blank lines, so the hunk's meaning is unchanged.
func dropStrayBlanks(h *Hunk, file []string) (*Hunk, bool) {
	old := h.OldLines()
	n := len(file)
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
			ok = strings.TrimSpace(old[lead+i].Text) == strings.TrimSpace(file[i])
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
