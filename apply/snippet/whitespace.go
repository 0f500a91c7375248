package snippet

import (
	"strings"

	"github.com/graftdev/graft/internal/indent"
	"github.com/graftdev/graft/internal/lineindex"
	"github.com/graftdev/graft/matcher"
)

// How a region's white space differs from the file's: one shift of
// indentation (oneShift, shiftOf), tabs written as spaces (asWide), a
// trailing slip (oneSlip, trailingSlip, keepFileBytes), and the region
// re-indented as its anchor was found (reindent).

// oneShift reports whether the block's lines, standing in the file from
// 0-based line at, differ from the file's lines by one shift of their
// indentation: every line that is not blank has the same white space
// added before its indentation, or the same removed. Lines whose
// indentation and the file's are not one the other's suffix (tabs written
// as spaces, or the reverse) are not read here: they are the matcher's
// conversion, and say nothing against a shift where they are as wide as
// the file's lines at some tab width (asWide).
func oneShift(block string, fl *lineindex.Index, at int) bool {
	_, one := shiftAt(block, fl, at)
	return one
}

// shiftAt is oneShift's reading: whether the block's lines keep one shift
// (one), and whether that shift is some white space added or removed
// (shifted); lines whose indentation differs from the file's only by tabs
// written as spaces, or the reverse, show none.
func shiftAt(block string, fl *lineindex.Index, at int) (shifted, one bool) {
	added, removed, one, _ := shiftOf(block, fl, at)
	return one && (added != "" || removed != ""), one
}

// shiftOf is the shift itself: the white space every line of the block
// needs added before its indentation to be the file's line (added), or
// removed from its start (removed); one reports whether there is one such
// shift for all the lines that show one, and converted whether some line
// shows none (its indentation written in the other character).
func shiftOf(block string, fl *lineindex.Index, at int) (added, removed string, one, converted bool) {
	const unset = "\x00"
	added, removed = unset, unset
	var convs [][2]string // the lines that show no shift: their indentation and the file's
	defer func() {
		// A line that shows no shift is read as tabs written as spaces
		// (or the reverse) only where it is that: as wide as the file's
		// line, with the shift, at some tab width (2, 4 or 8). One
		// space for two tabs is no conversion: the line breaks the
		// shift.
		for _, c := range convs {
			if one && !asWide(c[0], c[1], added, removed) {
				added, removed, one = "", "", false
			}
		}
	}()
	for k, l := range splitKeep(block) {
		body := strings.TrimRight(l, "\r\n")
		if strings.TrimSpace(body) == "" || at+k >= fl.Count() {
			continue
		}
		file := string(fl.Text(at + k + 1))
		si, fi := body[:indentWidth(body)], file[:indentWidth(file)]
		var a, r string
		switch {
		case strings.HasSuffix(fi, si):
			a = fi[:len(fi)-len(si)]
		case strings.HasSuffix(si, fi):
			r = si[:len(si)-len(fi)]
		default:
			converted = true
			convs = append(convs, [2]string{si, fi})
			continue
		}
		if added == unset {
			added, removed = a, r
			continue
		}
		if a != added || r != removed {
			return "", "", false, converted
		}
	}
	if added == unset {
		return "", "", true, converted
	}
	return added, removed, true, converted
}

// shiftDisagrees returns the first of the region's lines (sent) whose
// indentation, as the matcher re-indented it (got), is not the sent
// indentation with the one shift its head (standing at file line at)
// shows, or -1. The matcher reads indentation as levels and tab widths,
// which is right for a block written in another unit or character (a head
// line with tabs written as spaces shows that, and then levels decide); a
// head found with one shift and no such line says the region was sent
// shifted by it. Where the two give a line different indentation, the
// region leaves it open.
func shiftDisagrees(sent, got []string, head string, fl *lineindex.Index, at int, tier matcher.Tier) int {
	if tier != matcher.Indentation {
		return -1
	}
	added, removed, one, converted := shiftOf(head, fl, at)
	if !one || converted || added == "" && removed == "" {
		return -1 // no shift, or tabs written as spaces: levels are the reading
	}
	for k, l := range sent {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := l[:indentWidth(l)]
		want := added + ind
		if removed != "" {
			var ok bool
			if want, ok = strings.CutPrefix(ind, removed); !ok {
				continue // dedented past the shift: the matcher's reading alone
			}
		}
		if g := got[k]; g[:indentWidth(g)] != want {
			return k
		}
	}
	return -1
}

// convertedBeforeExact reports whether the line a block grew by (its last
// for a head, its first for a tail; the block found from file line at)
// reads as the file's line only with its indentation written in the other
// character, while the region's next line beyond it (the line by which
// wider, the block one line longer, would grow) is that same file line
// exactly once the block's one shift is applied. The region then reads two
// ways: the grown line the file's, converted, and the next line new; or the
// grown line new and the next line the file's. The second needs no
// conversion (a model that writes tabs as spaces does so throughout, and a
// new line beside its twin is what an insertion looks like), so the anchor
// ends before the grown line and that line is read as new.
func convertedBeforeExact(block, wider string, fl *lineindex.Index, at int, isTail bool) bool {
	ls, ws := splitKeep(block), splitKeep(wider)
	if len(ws) != len(ls)+1 {
		return false
	}
	grown, next, fileAt := ls[len(ls)-1], ws[len(ws)-1], at+len(ls)-1
	if isTail {
		grown, next, fileAt = ls[0], ws[0], at
	}
	if fileAt >= fl.Count() || strings.TrimSpace(grown) == "" {
		return false
	}
	file := strings.TrimRight(string(fl.Text(fileAt+1)), "\r")
	g := strings.TrimRight(grown, "\r\n")
	si, fi := g[:indentWidth(g)], file[:indentWidth(file)]
	if strings.HasSuffix(fi, si) || strings.HasSuffix(si, fi) {
		return false // a shift, not a conversion
	}
	added, removed, one, _ := shiftOf(block, fl, at)
	if !one {
		return false
	}
	nx := strings.TrimRight(next, "\r\n")
	if removed != "" {
		var ok bool
		if nx, ok = strings.CutPrefix(nx, removed); !ok {
			return false
		}
	}
	return added+nx == file
}

// asWide reports whether indentation si, with the shift (added, or
// removed), is as wide as fi at a tab width of 2, 4 or 8.
func asWide(si, fi, added, removed string) bool {
	for _, w := range []int{2, 4, 8} {
		if indent.Columns(added+si, w)-indent.Columns(removed, w) == indent.Columns(fi, w) || indent.Columns(si, w) == indent.Columns(fi, w) {
			return true
		}
	}
	return false
}

// oneSlip reports whether the block's lines, standing in the file from
// 0-based line at, add the same trailing white space to the file's lines
// wherever they add any, the slip. Where no line adds any, lines that
// drop the file's say nothing against it. Where one does, every other
// line must be the file's line plus the slip, or the file's line as it
// is where that does not end in the slip's white space: a line that adds
// none but ends in it ("0 " where the file has "0 " and the slip is a
// space) reads two ways, the file's line sent without the slip or a new
// line "0" sent with it, and so does one that drops or changes the
// file's trailing white space ("0 " where the file has "0\f": the file's
// line, its form feed dropped, or a new "0"). Such an anchor ends before
// it, the line read as new.
func oneSlip(block string, fl *lineindex.Index, at int) bool {
	type line struct{ body, file string }
	var ls []line
	slip := ""
	for k, l := range splitKeep(block) {
		body := strings.TrimRight(l, "\r\n")
		if strings.TrimSpace(body) == "" || at+k >= fl.Count() {
			continue
		}
		file := strings.TrimRight(string(fl.Text(at+k+1)), "\r")
		ls = append(ls, line{body, file})
		add, ok := strings.CutPrefix(body, file)
		if !ok || add == "" {
			continue
		}
		if slip != "" && add != slip {
			return false
		}
		slip = add
	}
	if slip == "" {
		return true
	}
	for _, l := range ls {
		if l.body != l.file+slip && (l.body != l.file || strings.HasSuffix(l.body, slip)) {
			return false
		}
	}
	return true
}

// showsShift reports whether the block, found by its indentation at file
// line at, is the region sent with its indentation shifted: one shift,
// and not an empty one (a line or two with tabs written as spaces is the
// matcher's conversion, which the second reading of a region is for).
func showsShift(block string, fl *lineindex.Index, at int) bool {
	shifted, one := shiftAt(block, fl, at)
	return shifted && one
}

// keepFileBytes is for a region whose anchors were found only by
// forgiving trailing white space: its lines that stand unchanged in the
// file's lines [from, to) (paired in order: where the model added a slip
// to every anchor line, a line that is the file's plus the slip; else
// trailing white space and line endings aside) get the file's own bytes,
// as the matcher keeps unchanged lines of an edit, and its new lines lose
// the slip.
func keepFileBytes(fl *lineindex.Index, from, to int, text, slip string) string {
	if text == "" {
		return text
	}
	nl := splitKeep(text)
	key := func(s string) string { return strings.TrimRight(s, " \t\r\n") }
	ok := make([]string, 0, to-from)
	for i := from; i < to && i < fl.Count(); i++ {
		ok = append(ok, key(string(fl.Text(i+1))))
	}
	var pairs [][2]int
	if slip == "" {
		nk := make([]string, len(nl))
		for j, l := range nl {
			nk[j] = key(l)
		}
		pairs = lcs(ok, nk)
	} else {
		// With the model's slip known, a line is the file's line where
		// it is that line plus the slip, exactly: "0  " is the file's
		// "0 " slipped, and "0 " beside it a new "0"; a line that drops
		// or changes the file's trailing white space changes it, and is
		// written as sent (the slip aside).
		eo, en := make([]string, len(ok)), make([]string, len(nl))
		for i := range ok {
			eo[i] = strings.TrimRight(string(fl.Text(from+i+1)), "\r")
		}
		for j, l := range nl {
			en[j] = strings.TrimSuffix(strings.TrimRight(l, "\r\n"), slip)
		}
		pairs = lcs(eo, en)
	}
	paired := make([]bool, len(nl))
	for _, p := range pairs {
		if ok[p[0]] == "" {
			continue // a blank line: written as sent, but for the slip
		}
		paired[p[1]] = true
		line := string(fl.Content()[fl.Start(from+p[0]+1):fl.End(from+p[0]+1)])
		if !strings.HasSuffix(line, "\n") && strings.HasSuffix(nl[p[1]], "\n") {
			line += "\n"
		}
		nl[p[1]] = line
	}
	// The region's other lines are new: where the model added the same
	// trailing white space to every anchor line, that slip is taken off
	// the new lines that carry it too.
	for j, l := range nl {
		body := strings.TrimRight(l, "\r\n")
		if !paired[j] && slip != "" && strings.HasSuffix(body, slip) {
			nl[j] = strings.TrimSuffix(body, slip) + l[len(body):]
		}
	}
	return strings.Join(nl, "")
}

// trailingSlip is the trailing white space the model added to every
// non-blank anchor line of r (found by the trailing white space tier), or
// "" when the anchors do not all show the same addition.
func trailingSlip(fl *lineindex.Index, r Region, h, t anchor) string {
	slip, seen := "", false
	check := func(regionLine string, fileLine int) bool {
		got := strings.TrimRight(regionLine, "\r\n")
		want := string(fl.Text(fileLine + 1))
		if strings.TrimSpace(got) == "" {
			return true
		}
		add, ok := strings.CutPrefix(got, want)
		switch {
		case !ok || strings.Trim(add, " \t") != "" || seen && add != "" && add != slip:
			return false
		case add != "":
			slip, seen = add, true
		}
		return true
	}
	if h.found {
		for k := 0; k < h.n; k++ {
			if !check(r.Lines[k], h.line+k) {
				return ""
			}
		}
	}
	if t.found {
		L := len(r.Lines)
		for k := 0; k < t.n; k++ {
			if !check(r.Lines[L-t.n+k], t.line+k) {
				return ""
			}
		}
	}
	return slip
}

// reindent is m.Adapt(text) for a region's lines; but where m found an
// indentation difference, that difference is all it applies: each line
// gets the indentation Adapt gives it and keeps the rest as sent
// (trailing white space the region changes is a change), and a line of
// white space only is written as sent (it has no code to indent).
func reindent(m matcher.Match, text string) string {
	out := m.Adapt(text)
	if m.Tier != matcher.Indentation {
		return out
	}
	sent, got := splitKeep(text), splitKeep(out)
	if len(sent) != len(got) {
		return out
	}
	for j, l := range sent {
		body := strings.TrimRight(l, "\r\n")
		eol := got[j][len(strings.TrimRight(got[j], "\r\n")):]
		if strings.TrimSpace(body) == "" {
			got[j] = body + eol
			continue
		}
		g := strings.TrimRight(got[j], "\r\n")
		got[j] = g[:indentWidth(g)] + body[indentWidth(body):] + eol
	}
	return strings.Join(got, "")
}
