// Package textdiff computes line differences: the one line diff of graft,
// used by the engine for its unified diffs and by the journal for undo's
// three-way merge. It is pure and imports nothing of graft, so that both
// sides can use it.
//
// Lines are compared with their line endings, so a changed ending or a
// missing final newline is a change. The algorithm is Myers' greedy
// O((N+M)·D) search on the part left after the common prefix and suffix are
// trimmed; past MaxCost differing lines it gives up on minimality and
// reports the middle as one replacement, which is still exact.
package textdiff

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"io"
	"math"
)

// Edit replaces lines [A0, A1) of the old text with lines [B0, B1) of the
// new one; line numbers are 0-based.
type Edit struct{ A0, A1, B0, B1 int }

// MaxCost bounds the edit distance the Myers search explores (its memory
// grows with the square).
const MaxCost = 2000

// Split splits content after each "\n", keeping the line endings; a last
// line without one is a line too.
func Split(content []byte) [][]byte {
	// Sized by a count first: appending to a slice of a million lines
	// would allocate four times its size on the way.
	lines := make([][]byte, 0, bytes.Count(content, []byte("\n"))+1)
	for len(content) > 0 {
		i := bytes.IndexByte(content, '\n')
		if i < 0 {
			return append(lines, content)
		}
		lines = append(lines, content[:i+1])
		content = content[i+1:]
	}
	return lines
}

// Lines returns the edits that turn the lines of a into the lines of b, in
// order and not touching one another.
func Lines(a, b []byte) []Edit {
	// Lines are held as the offsets they start at (4 bytes a line, where a
	// slice of each would take 24). Past 4 GiB (beyond any file graft
	// edits) the texts are one edit, as a diff that costs too much is.
	if int64(len(a)) >= math.MaxUint32 || int64(len(b)) >= math.MaxUint32 {
		return []Edit{{0, len(Split(a)), 0, len(Split(b))}}
	}
	xs, ys := starts(a), starts(b)
	x := func(i int) []byte { return a[xs[i]:xs[i+1]] }
	y := func(j int) []byte { return b[ys[j]:ys[j+1]] }
	a0, b0, a1, b1 := 0, 0, len(xs)-1, len(ys)-1
	for a0 < a1 && b0 < b1 && bytes.Equal(x(a0), y(b0)) {
		a0, b0 = a0+1, b0+1
	}
	for a0 < a1 && b0 < b1 && bytes.Equal(x(a1-1), y(b1-1)) {
		a1, b1 = a1-1, b1-1
	}
	switch {
	case a0 == a1 && b0 == b1:
		return nil
	case a0 == a1 || b0 == b1:
		return []Edit{{a0, a1, b0, b1}}
	}
	// Myers compares each line's hash, and the lines themselves only where
	// the hashes agree, so that the diff stays exact whatever collides. A
	// hash a line takes 4 bytes (two lines whose hashes agree by chance
	// cost one comparison of their bytes, never a wrong diff); numbering
	// the distinct lines through a map held a copy of every one of them
	// (twice the file for a rewrite of every line, whose search then gives
	// up at MaxCost anyway).
	seed := maphash.MakeSeed()
	xi := make([]uint32, a1-a0)
	for i := range xi {
		xi[i] = uint32(lineHash(seed, x(a0+i)))
	}
	yi := make([]uint32, b1-b0)
	for j := range yi {
		yi[j] = uint32(lineHash(seed, y(b0+j)))
	}
	same := func(i, j int) bool { return xi[i] == yi[j] && bytes.Equal(x(a0+i), y(b0+j)) }
	edits, ok := myers(len(xi), len(yi), same, MaxCost)
	if !ok {
		return []Edit{{a0, a1, b0, b1}}
	}
	for i := range edits {
		edits[i].A0 += a0
		edits[i].A1 += a0
		edits[i].B0 += b0
		edits[i].B1 += b0
	}
	return edits
}

// starts returns the offset each line of content starts at, then
// len(content): line i is content[s[i]:s[i+1]], as Split cuts it;
// content is shorter than 4 GiB.
func starts(content []byte) []uint32 {
	s := make([]uint32, 0, bytes.Count(content, []byte("\n"))+2)
	for at := 0; at < len(content); {
		s = append(s, uint32(at))
		i := bytes.IndexByte(content[at:], '\n')
		if i < 0 {
			at = len(content)
		} else {
			at += i + 1
		}
	}
	return append(s, uint32(len(content)))
}

// lineHash is the hash Lines compares lines by (a variable so that a test
// can make every line collide).
var lineHash = maphash.Bytes

// myers finds a shortest edit script from n lines to m lines, same(i, j)
// telling whether old line i equals new line j, giving up (ok false) when
// it would need more than maxD steps.
func myers(n, m int, same func(i, j int) bool, maxD int) (edits []Edit, ok bool) {
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
			for x < n && y < m && same(x, y) {
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

func backtrack(trace [][]int, x, y int) []Edit {
	var rev []Edit
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
			rev = append(rev, Edit{px, px, py, py + 1})
		} else {
			rev = append(rev, Edit{px, px + 1, py, py})
		}
		x, y = px, py
	}
	// Reverse, and merge adjacent single-line steps into runs.
	var out []Edit
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

// Writer is what WriteHunks writes to: a strings.Builder, a bufio.Writer,
// or a writer that streams the diff on (its errors are the writer's to
// keep: WriteHunks does not stop on them).
type Writer interface {
	io.Writer
	io.StringWriter
	io.ByteWriter
}

// WriteFile writes the unified diff of one file's old content a and new
// content b, as git writes a text file's: the "---" and "+++" names, then
// the hunks with three lines of context; nothing when no line changed.
func WriteFile(w Writer, oldName, newName string, a, b []byte) {
	edits := Lines(a, b)
	if len(edits) == 0 {
		return
	}
	fmt.Fprintf(w, "--- %s\n+++ %s\n", oldName, newName)
	la, lb := Split(a), Split(b)
	WriteHunks(w, edits, 3, len(la), func(i int) []byte { return la[i] }, func(i int) []byte { return lb[i] })
}

// WriteHunks writes edits (in order, as Lines returns them) as the "@@"
// hunks of a unified diff, with context unchanged lines around each change
// and changes closer than twice that joined into one hunk. nA is the
// number of old lines; a and b return old and new line i (0-based, with
// its line ending). A line without a final newline is followed by git's
// "\ No newline at end of file".
func WriteHunks(w Writer, edits []Edit, context, nA int, a, b func(i int) []byte) {
	for i := 0; i < len(edits); {
		j := i + 1
		for j < len(edits) && edits[j].A0-edits[j-1].A1 <= 2*context {
			j++
		}
		first, last := edits[i], edits[j-1]
		c0 := max(0, first.A0-context)
		c1 := min(nA, last.A1+context)
		n0 := first.B0 - (first.A0 - c0)
		n1 := last.B1 + (c1 - last.A1)
		fmt.Fprintf(w, "@@ -%s +%s @@\n", rangeHeader(c0, c1-c0), rangeHeader(n0, n1-n0))
		at := c0
		for _, e := range edits[i:j] {
			for ; at < e.A0; at++ {
				writeLine(w, ' ', a(at))
			}
			for l := e.A0; l < e.A1; l++ {
				writeLine(w, '-', a(l))
			}
			for l := e.B0; l < e.B1; l++ {
				writeLine(w, '+', b(l))
			}
			at = e.A1
		}
		for ; at < c1; at++ {
			writeLine(w, ' ', a(at))
		}
		i = j
	}
}

// rangeHeader is one side of a hunk header for lines [start, start+n),
// 0-based: "START,N" 1-based, "START" for one line, "START-1,0" for none.
func rangeHeader(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func writeLine(w Writer, sign byte, line []byte) {
	w.WriteByte(sign)
	w.Write(line)
	if len(line) == 0 || line[len(line)-1] != '\n' {
		w.WriteString("\n\\ No newline at end of file\n")
	}
}
