package apply

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/graftdev/graft/internal/textedit"

	"github.com/graftdev/graft/gitstore/textdiff"
	"github.com/graftdev/graft/internal/lineindex"
)

// lineEdit replaces old lines [A0, A1) with new lines [B0, B1); line
// numbers are 1-based.
type lineEdit struct{ A0, A1, B0, B1 int }

// Diff returns line-level hunks that turn a into b, so that
// textedit.Splice(a, Diff(a, b)) == b. Lines are compared with their line endings, so
// a changed ending or a removed final newline is a change.
func Diff(a, b []byte) []textedit.Change {
	ai, bi := lineindex.New(a), lineindex.New(b)
	edits := diffLines(ai, 1, ai.Count()+1, bi, 1, bi.Count()+1)
	return hunksOf(ai, bi, edits)
}

func hunksOf(ai, bi *lineindex.Index, edits []lineEdit) []textedit.Change {
	hunks := make([]textedit.Change, len(edits))
	for i, e := range edits {
		hunks[i] = textedit.Change{Start: ai.Start(e.A0), End: ai.Start(e.A1),
			New: string(bi.Content()[bi.Start(e.B0):bi.Start(e.B1)])}
	}
	return hunks
}

// diffLines compares old lines [a0, a1) with new lines [b0, b1), with
// textdiff, the one line diff that undo's merge uses too.
func diffLines(ai *lineindex.Index, a0, a1 int, bi *lineindex.Index, b0, b1 int) []lineEdit {
	es := textdiff.Lines(ai.Content()[ai.Start(a0):ai.Start(a1)], bi.Content()[bi.Start(b0):bi.Start(b1)])
	out := make([]lineEdit, len(es))
	for i, e := range es {
		out[i] = lineEdit{e.A0 + a0, e.A1 + a0, e.B0 + b0, e.B1 + b0}
	}
	return out
}

// editsFromHunks computes the line edits of applying sorted hunks to old,
// giving new: each hunk is widened to whole lines (in both contents),
// touching or overlapping ranges are merged, and each range is diffed by
// line, so the work is proportional to what changed, not to the file.
func editsFromHunks(ai, bi *lineindex.Index, sorted []textedit.Change) []lineEdit {
	return hunkRegionsOf(ai, sorted).edits(ai, bi)
}

// hunkRegions are the ranges of old lines that sorted hunks touch, merged
// where they touch or overlap: what editsFromHunks diffs by line. They
// need the hunks no more once made.
type hunkRegions struct {
	rs    []hunkRegion
	shift int // new-old offset after the last hunk
}

// hunkRegion is an old byte range, and the new-old offset at its start.
type hunkRegion struct{ ls, le, shift int }

func hunkRegionsOf(ai *lineindex.Index, sorted []textedit.Change) hunkRegions {
	var regions []hunkRegion
	shift := 0
	for _, h := range sorted {
		ls := ai.Start(ai.LineAt(h.Start))
		le := h.End
		if l := ai.LineAt(h.End); h.End < len(ai.Content()) && ai.Start(l) != h.End {
			le = ai.End(l)
		}
		// The new text must end on a line boundary too: if it does not,
		// take in the rest of the old line it runs into.
		tail := ai.Content()[h.End:le]
		if le < len(ai.Content()) && !endsLine(h.New, tail, ai.Content()[ls:h.Start]) {
			le = ai.End(ai.LineAt(le))
		}
		if n := len(regions); n > 0 && ls <= regions[n-1].le {
			regions[n-1].le = max(regions[n-1].le, le)
		} else {
			regions = append(regions, hunkRegion{ls, le, shift})
		}
		shift += len(h.New) - (h.End - h.Start)
	}
	return hunkRegions{regions, shift}
}

// edits diffs each region by line.
func (h hunkRegions) edits(ai, bi *lineindex.Index) []lineEdit {
	// A region's shift at its end is the shift before the next region.
	var edits []lineEdit
	regions := h.rs
	for i, r := range regions {
		endShift := h.shift
		if i+1 < len(regions) {
			endShift = regions[i+1].shift
		}
		a0, a1 := lineAtBoundary(ai, r.ls), lineAtBoundary(ai, r.le)
		b0, b1 := lineAtBoundary(bi, r.ls+r.shift), lineAtBoundary(bi, r.le+endShift)
		edits = append(edits, diffLines(ai, a0, a1, bi, b0, b1)...)
	}
	return edits
}

// endsLine reports whether the text that replaces a hunk's bytes, followed
// by the kept tail, ends at a line boundary (or is empty with its prefix
// ending at one).
func endsLine(newText string, tail, head []byte) bool {
	if len(tail) > 0 {
		return tail[len(tail)-1] == '\n'
	}
	if newText != "" {
		return newText[len(newText)-1] == '\n'
	}
	return len(head) == 0 || head[len(head)-1] == '\n'
}

// lineAtBoundary is the number of the line starting at off, or count()+1
// at the end of the content.
func lineAtBoundary(ix *lineindex.Index, off int) int {
	if off >= len(ix.Content()) {
		return ix.Count() + 1
	}
	return ix.LineAt(off)
}

// contextLines is the number of unchanged lines shown around a change.
const contextLines = 3

// unified renders line edits as a unified diff of oldName and newName
// ("/dev/null" for a missing side). It returns "" when there are no edits.
func unified(oldName, newName string, ai, bi *lineindex.Index, edits []lineEdit) string {
	return unifiedAt(oldName, newName, ai, bi, edits, 0)
}

// unifiedAt is unified for indexes of windows that start after base
// lines of both contents (hunkWindow), with edits numbered in the whole
// contents.
func unifiedAt(oldName, newName string, ai, bi *lineindex.Index, edits []lineEdit, base int) string {
	return newUnified(oldName, newName, ai, bi, edits, base).String()
}

// unifiedDiff is a unified diff before it is written: the two contents'
// line indexes and the line edits between them. Its String is the diff
// every result holds; a result that is streamed holds the value instead
// (FileResult.WriteDiff), so that a diff as big as the file is written
// from the contents as it goes out, never held whole. Both are written by
// the one writeTo, so they are the same bytes.
type unifiedDiff struct {
	// mode is the "old mode"/"new mode" lines of a file whose mode the
	// call changes, written before the hunks.
	mode             string
	oldName, newName string
	ai, bi           *lineindex.Index
	es               []textdiff.Edit // 0-based, in the whole contents
	base             int             // lines before the indexed windows
	// size is the diff's length once measured (-1 before), head its
	// first bytes as measured.
	size int
	head string
}

func newUnified(oldName, newName string, ai, bi *lineindex.Index, edits []lineEdit, base int) *unifiedDiff {
	es := make([]textdiff.Edit, len(edits))
	for i, e := range edits {
		es[i] = textdiff.Edit{A0: e.A0 - 1, A1: e.A1 - 1, B0: e.B0 - 1, B1: e.B1 - 1}
	}
	return &unifiedDiff{oldName: oldName, newName: newName, ai: ai, bi: bi, es: es, base: base, size: -1}
}

func (d *unifiedDiff) line(ix *lineindex.Index) func(int) []byte {
	return func(i int) []byte { return ix.Content()[ix.Start(i+1-d.base):ix.End(i+1-d.base)] }
}

// estimate is about the diff's length, a little over it: what a builder
// is grown to up front rather than doubling its way there (a copy of the
// diff at each step).
func (d *unifiedDiff) estimate() int {
	la, lb := d.line(d.ai), d.line(d.bi)
	size := len(d.mode)
	for _, e := range d.es {
		size += 128 + 2*contextLines*64
		for i := e.A0; i < e.A1; i++ {
			size += len(la(i)) + 1
		}
		for i := e.B0; i < e.B1; i++ {
			size += len(lb(i)) + 1
		}
	}
	return size
}

// writeTo writes the diff: the mode lines, then, when a line changed,
// the file names and the hunks ("" when nothing did).
func (d *unifiedDiff) writeTo(w textdiff.Writer) {
	w.WriteString(d.mode)
	if len(d.es) == 0 {
		return
	}
	fmt.Fprintf(w, "--- %s\n+++ %s\n", d.oldName, d.newName)
	textdiff.WriteHunks(w, d.es, contextLines, d.ai.Count()+d.base, d.line(d.ai), d.line(d.bi))
}

// String is the whole diff.
func (d *unifiedDiff) String() string {
	if len(d.es) == 0 {
		return d.mode
	}
	var b strings.Builder
	b.Grow(d.estimate())
	d.writeTo(&b)
	return b.String()
}

// measure writes the diff to count its bytes, keeping its first n.
func (d *unifiedDiff) measure(n int) {
	if d.size >= 0 && (len(d.head) >= n || len(d.head) == d.size) {
		return
	}
	m := &measuring{keep: n}
	d.writeTo(m)
	d.size, d.head = m.n, string(m.head)
}

// measuring is a textdiff.Writer that counts what it is given and keeps
// its first keep bytes.
type measuring struct {
	n    int
	keep int
	head []byte
}

func (m *measuring) Write(p []byte) (int, error) {
	if room := m.keep - len(m.head); room > 0 {
		m.head = append(m.head, p[:min(room, len(p))]...)
	}
	m.n += len(p)
	return len(p), nil
}

func (m *measuring) WriteString(s string) (int, error) {
	if room := m.keep - len(m.head); room > 0 {
		m.head = append(m.head, s[:min(room, len(s))]...)
	}
	m.n += len(s)
	return len(s), nil
}

func (m *measuring) WriteByte(c byte) error {
	if len(m.head) < m.keep {
		m.head = append(m.head, c)
	}
	m.n++
	return nil
}

// hunkWindow is the part [ws, we) of old that a diff of sorted hunks
// shows: from contextLines+1 lines before the first hunk's line to
// contextLines+3 lines after the end of the last (the line the last hunk
// ends in, the next one, which editsFromHunks takes in when the new text
// does not end a line, and the context), in whole lines.
func hunkWindow(old []byte, sorted []textedit.Change) (ws, we int) {
	ws = lineindex.StartBefore(old, sorted[0].Start, contextLines+1)
	we = sorted[len(sorted)-1].End
	for i := 0; i < contextLines+3 && we < len(old); i++ {
		j := bytes.IndexByte(old[we:], '\n')
		if j < 0 {
			return ws, len(old)
		}
		we += j + 1
	}
	return ws, we
}

// windowEdits diffs sorted hunks on old's window [ws, we) and its new
// form only (the contents agree outside it): the windows' indexes and the
// line edits, numbered in the whole contents (base lines precede ws).
func windowEdits(old []byte, sorted []textedit.Change, ws, we, base int) (ai, bi *lineindex.Index, edits []lineEdit) {
	shifted := make([]textedit.Change, len(sorted))
	for i, h := range sorted {
		h.Start, h.End = h.Start-ws, h.End-ws
		shifted[i] = h
	}
	win := old[ws:we]
	parts, _ := textedit.Parts(win, shifted) // validated with the whole content
	ai, bi = lineindex.New(win), lineindex.New(joinPieces(parts))
	edits = editsFromHunks(ai, bi, shifted)
	for i := range edits {
		edits[i].A0 += base
		edits[i].A1 += base
		edits[i].B0 += base
		edits[i].B1 += base
	}
	return ai, bi, edits
}
