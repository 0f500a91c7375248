package apply

import (
	"bytes"
	"fmt"
	"strings"
)

// lineEdit replaces old lines [A0, A1) with new lines [B0, B1); line
// numbers are 1-based.
type lineEdit struct{ A0, A1, B0, B1 int }

// maxDiffCost bounds the Myers search (the edit distance D it may explore,
// squared is its memory). Past it, the differing middle is reported as one
// replacement: still exact, only less minimal.
const maxDiffCost = 2000

// Diff returns line-level hunks that turn a into b, so that
// Apply(a, Diff(a, b)) == b. Lines are compared with their line endings, so
// a changed ending or a removed final newline is a change.
func Diff(a, b []byte) []Hunk {
	ai, bi := newLineIndex(a), newLineIndex(b)
	edits := diffLines(ai, 1, ai.count()+1, bi, 1, bi.count()+1)
	return hunksOf(ai, bi, edits)
}

func hunksOf(ai, bi *lineIndex, edits []lineEdit) []Hunk {
	hunks := make([]Hunk, len(edits))
	for i, e := range edits {
		hunks[i] = Hunk{Start: ai.start(e.A0), End: ai.start(e.A1),
			New: string(bi.content[bi.start(e.B0):bi.start(e.B1)])}
	}
	return hunks
}

// diffLines compares old lines [a0, a1) with new lines [b0, b1).
func diffLines(ai *lineIndex, a0, a1 int, bi *lineIndex, b0, b1 int) []lineEdit {
	eq := func(i, j int) bool {
		return bytes.Equal(ai.content[ai.start(i):ai.end(i)], bi.content[bi.start(j):bi.end(j)])
	}
	for a0 < a1 && b0 < b1 && eq(a0, b0) {
		a0, b0 = a0+1, b0+1
	}
	for a0 < a1 && b0 < b1 && eq(a1-1, b1-1) {
		a1, b1 = a1-1, b1-1
	}
	if a0 == a1 && b0 == b1 {
		return nil
	}
	if a0 == a1 || b0 == b1 {
		return []lineEdit{{a0, a1, b0, b1}}
	}
	// Number the distinct lines so that Myers compares integers.
	ids := map[string]int{}
	id := func(ix *lineIndex, n int) int {
		s := string(ix.content[ix.start(n):ix.end(n)])
		v, ok := ids[s]
		if !ok {
			v = len(ids)
			ids[s] = v
		}
		return v
	}
	x := make([]int, a1-a0)
	for i := range x {
		x[i] = id(ai, a0+i)
	}
	y := make([]int, b1-b0)
	for j := range y {
		y[j] = id(bi, b0+j)
	}
	edits, ok := myers(x, y, maxDiffCost)
	if !ok {
		return []lineEdit{{a0, a1, b0, b1}}
	}
	for i := range edits {
		edits[i].A0 += a0
		edits[i].A1 += a0
		edits[i].B0 += b0
		edits[i].B1 += b0
	}
	return edits
}

// myers finds a shortest edit script from a to b with Myers' greedy
// O((N+M)·D) algorithm, giving up (ok false) when D would pass maxD. The
// edits it returns use 0-based, half-open line ranges.
func myers(a, b []int, maxD int) (edits []lineEdit, ok bool) {
	n, m := len(a), len(b)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int // trace[d] is v[off-d-1 : off+d+2] before step d
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m), true
			}
		}
	}
	return nil, false
}

func backtrack(trace [][]int, x, y int) []lineEdit {
	var rev []lineEdit
	for d := len(trace) - 1; d > 0; d-- {
		vp := trace[d] // v before step d; index k maps to vp[k+d+1]
		at := func(k int) int { return vp[k+d+1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1 // came down: an insertion
		} else {
			pk = k - 1 // came right: a deletion
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py { // the snake of equal lines after the step
			x, y = x-1, y-1
		}
		if pk == k+1 {
			rev = append(rev, lineEdit{px, px, py, py + 1})
		} else {
			rev = append(rev, lineEdit{px, px + 1, py, py})
		}
		x, y = px, py
	}
	// Reverse and merge adjacent single-line steps into runs.
	var out []lineEdit
	for i := len(rev) - 1; i >= 0; i-- {
		e := rev[i]
		if n := len(out); n > 0 && out[n-1].A1 == e.A0 && out[n-1].B1 == e.B0 {
			out[n-1].A1, out[n-1].B1 = e.A1, e.B1
			continue
		}
		out = append(out, e)
	}
	return out
}

// editsFromHunks computes the line edits of applying sorted hunks to old,
// giving new: each hunk is widened to whole lines (in both contents),
// touching or overlapping ranges are merged, and each range is diffed by
// line, so the work is proportional to what changed, not to the file.
func editsFromHunks(ai, bi *lineIndex, sorted []Hunk) []lineEdit {
	type region struct{ ls, le, shift int } // old byte range, and new-old offset at ls
	var regions []region
	shift := 0
	for _, h := range sorted {
		ls := ai.start(ai.lineAt(h.Start))
		le := h.End
		if l := ai.lineAt(h.End); h.End < len(ai.content) && ai.start(l) != h.End {
			le = ai.end(l)
		}
		// The new text must end on a line boundary too: if it does not,
		// take in the rest of the old line it runs into.
		tail := ai.content[h.End:le]
		if le < len(ai.content) && !endsLine(h.New, tail, ai.content[ls:h.Start]) {
			le = ai.end(ai.lineAt(le))
		}
		if n := len(regions); n > 0 && ls <= regions[n-1].le {
			regions[n-1].le = max(regions[n-1].le, le)
		} else {
			regions = append(regions, region{ls, le, shift})
		}
		shift += len(h.New) - (h.End - h.Start)
	}
	// A region's shift at its end is the shift before the next region.
	var edits []lineEdit
	for i, r := range regions {
		endShift := shift
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
func lineAtBoundary(ix *lineIndex, off int) int {
	if off >= len(ix.content) {
		return ix.count() + 1
	}
	return ix.lineAt(off)
}

// contextLines is the number of unchanged lines shown around a change.
const contextLines = 3

// unified renders line edits as a unified diff of oldName and newName
// ("/dev/null" for a missing side). It returns "" when there are no edits.
func unified(oldName, newName string, ai, bi *lineIndex, edits []lineEdit) string {
	if len(edits) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", oldName, newName)
	for i := 0; i < len(edits); {
		j := i + 1
		for j < len(edits) && edits[j].A0-edits[j-1].A1 <= 2*contextLines {
			j++
		}
		first, last := edits[i], edits[j-1]
		c0 := max(1, first.A0-contextLines)
		c1 := min(ai.count()+1, last.A1+contextLines)
		n0 := first.B0 - (first.A0 - c0)
		n1 := last.B1 + (c1 - last.A1)
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", rangeHeader(c0, c1-c0), rangeHeader(n0, n1-n0))
		at := c0
		for _, e := range edits[i:j] {
			for ; at < e.A0; at++ {
				writeLine(&b, ' ', ai, at)
			}
			for l := e.A0; l < e.A1; l++ {
				writeLine(&b, '-', ai, l)
			}
			for l := e.B0; l < e.B1; l++ {
				writeLine(&b, '+', bi, l)
			}
			at = e.A1
		}
		for ; at < c1; at++ {
			writeLine(&b, ' ', ai, at)
		}
		i = j
	}
	return b.String()
}

func rangeHeader(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

func writeLine(b *strings.Builder, sign byte, ix *lineIndex, n int) {
	b.WriteByte(sign)
	line := ix.content[ix.start(n):ix.end(n)]
	b.Write(line)
	if len(line) == 0 || line[len(line)-1] != '\n' {
		b.WriteString("\n\\ No newline at end of file\n")
	}
}
