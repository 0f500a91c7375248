package apply

import (
	"cmp"
	"fmt"
	"slices"
	"unsafe"
)

// Hunk is the one value every operation becomes: replace the bytes
// [Start, End) of a file's content, as it was when the call began, with
// New. A zero-width hunk (Start == End) inserts.
type Hunk struct {
	Start, End int
	New        string
	// Edit names the operation that produced the hunk, for messages
	// ("replacements[2]"); Desc says what it targets ("lines 5-7").
	Edit, Desc string
}

func (h Hunk) label() string {
	switch {
	case h.Edit == "":
		return h.Desc
	case h.Desc == "":
		return h.Edit
	}
	return h.Edit + " (" + h.Desc + ")"
}

// overlapMessage says that hunk w overlaps h, for an error that names w's
// Edit already: w's own label is not repeated ("replacements[0]: lines
// 5-7 and replacements[1] (line 6) overlap").
func overlapMessage(w, h Hunk) string {
	subject := w.Desc
	if w.Edit == "" {
		subject = w.label()
	}
	if subject == "" {
		return "overlaps " + h.label()
	}
	return fmt.Sprintf("%s and %s overlap", subject, h.label())
}

// Apply returns content with hunks applied. The hunks all refer to content
// as it is; they are validated together first — each must lie inside
// content, and no two may overlap (an insertion may touch a replaced range
// at either end, not fall inside it) — then the result is built in one
// pass. Insertions at the same offset keep their given order. The error is
// an *Error with CodeInvalid naming both overlapping operations.
func Apply(content []byte, hunks []Hunk) ([]byte, error) {
	pieces, err := applyParts(content, hunks)
	if err != nil {
		return nil, err
	}
	return joinPieces(pieces), nil
}

// applyParts is Apply's result as parts to be concatenated, in order:
// spans of content and the hunks' new texts, which must not be written
// to (they may be a string's bytes).
func applyParts(content []byte, hunks []Hunk) ([][]byte, error) {
	sorted, err := sortHunks(len(content), hunks)
	if err != nil {
		return nil, err
	}
	pieces := make([][]byte, 0, 2*len(sorted)+1)
	at := 0
	for _, h := range sorted {
		pieces = append(pieces, content[at:h.Start], unsafe.Slice(unsafe.StringData(h.New), len(h.New)))
		at = h.End
	}
	return append(pieces, content[at:]), nil
}

// joinPieces is the concatenation of pieces, in fresh memory.
func joinPieces(pieces [][]byte) []byte {
	size := piecesLen(pieces)
	out := makeContent(size)[:size]
	if size < parallelCopy {
		copyPieces(out, pieces, 0, size)
		return out
	}
	// A big result is mostly the first touch of fresh memory (a page fault
	// per 4 KiB): each half is copied on its own core.
	half := size / 2
	done := make(chan struct{})
	go func() {
		defer close(done)
		copyPieces(out, pieces, half, size)
	}()
	copyPieces(out, pieces, 0, half)
	<-done
	return out
}

// piecesLen is the length of the concatenation of pieces.
func piecesLen(pieces [][]byte) int {
	n := 0
	for _, p := range pieces {
		n += len(p)
	}
	return n
}

// parallelCopy is the result size from which Apply copies in two halves.
const parallelCopy = 4 << 20

// copyPieces writes the bytes [from, to) of the concatenation of pieces
// into out[from:to].
func copyPieces(out []byte, pieces [][]byte, from, to int) {
	pos := 0 // where the current piece starts in the result
	for _, p := range pieces {
		end := pos + len(p)
		if end > from && pos < to {
			lo, hi := max(from, pos), min(to, end)
			copy(out[lo:hi], p[lo-pos:hi-pos])
		}
		if end >= to {
			return
		}
		pos = end
	}
}

// sortHunks returns the hunks ordered by position, after checking bounds
// and overlaps. The input slice is not modified.
func sortHunks(size int, hunks []Hunk) ([]Hunk, error) {
	for _, h := range hunks {
		if h.Start < 0 || h.End < h.Start || h.End > size {
			return nil, invalidf("", h.Edit, "range %d-%d outside the content (%d bytes)", h.Start, h.End, size)
		}
	}
	sorted := slices.Clone(hunks)
	slices.SortStableFunc(sorted, func(a, b Hunk) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
	})
	widest := -1 // index of the hunk reaching furthest so far
	for i, h := range sorted {
		if widest >= 0 {
			w := sorted[widest]
			if h.Start < w.End {
				return nil, &Error{Code: CodeInvalid, Edit: w.Edit, Msg: overlapMessage(w, h)}
			}
		}
		if widest < 0 || h.End > sorted[widest].End {
			widest = i
		}
	}
	return sorted, nil
}
