package textedit

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// Location says where one operation landed and how it was found: the
// record a call's result lists per operation.
type Location struct {
	// Edit names the operation ("replacements[1]", "hunk 2", "region 1");
	// empty for one-edit tools.
	Edit string `json:"edit,omitempty"`
	// Line and EndLine are where the operation's old text or lines were,
	// in the text as that operation saw it (1-based, inclusive).
	Line    int `json:"line"`
	EndLine int `json:"end_line"`
	// Method is "exact", "lines" (given by line number), "regex",
	// "symbol", "create", "overwrite", or the matcher's fuzzy tier.
	Method string `json:"located"`
	// Similarity is 1 for exact and line-number matches.
	Similarity float64 `json:"similarity"`
	// Reindented says how graft re-indented the new lines, if it did.
	Reindented string `json:"reindented,omitempty"`
	// Symbol is the full name path of the declaration an edit by symbol
	// took when the caller named it otherwise (a method by its own name).
	Symbol string `json:"symbol,omitempty"`
	// Dropped names the lines of the text (as Line does: "7, 9-10") that
	// the operation removed without showing them or anything like them:
	// a snippet's region may so delete a line or two, and a marker the
	// model forgot deletes lines so too, so the caller is told which.
	Dropped string `json:"dropped,omitempty"`
}

// LineList names lines (0-based, in order) as Dropped does, as a reader
// counts them, runs joined: "7, 9-10" ("" for none). DroppedLines reads
// it back.
func LineList(ls []int) string {
	var b strings.Builder
	for k := 0; k < len(ls); {
		j := k
		for j+1 < len(ls) && ls[j+1] == ls[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		if j > k {
			fmt.Fprintf(&b, "%d-%d", ls[k]+1, ls[j]+1)
		} else {
			fmt.Fprintf(&b, "%d", ls[k]+1)
		}
		k = j + 1
	}
	return b.String()
}

// DroppedLines is Dropped as line numbers, in order ("7, 9-10" is 7, 9,
// 10); nil for none.
func (l Location) DroppedLines() []int {
	var out []int
	for _, part := range strings.Split(l.Dropped, ",") {
		a, b, isRange := strings.Cut(strings.TrimSpace(part), "-")
		from, err := strconv.Atoi(a)
		if err != nil {
			continue
		}
		to := from
		if isRange {
			if to, err = strconv.Atoi(b); err != nil {
				continue
			}
		}
		for n := from; n <= to; n++ {
			out = append(out, n)
		}
	}
	return out
}

// Change is the one located-change value: replace the bytes [Start, End)
// of the text a step began with by New, and where and how the operation
// that made it was located. A zero-width change inserts.
//
// An operation may need several changes (a symbol deleted from a JSON
// object also drops a comma); the first carries the operation's Method
// and the others leave it empty, so that a result lists each operation
// once ([Change.Location]).
type Change struct {
	Start, End int
	New        string
	// Edit names the operation that made the change ("replacements[2]");
	// Desc says what it targets ("lines 5-7"), for messages.
	Edit, Desc string
	// Line and EndLine are where the operation's old text or lines were,
	// in the text it was located in; Method how it was found ("exact",
	// "lines", a fuzzy tier, ...; "" for a change that completes another
	// of the same operation); Similarity 1 unless a fuzzy tier found it;
	// Reindented how its new lines were re-indented, if they were;
	// Symbol the declaration's full path when named otherwise; Dropped the
	// lines it removed unshown (Location.Dropped).
	Line, EndLine int
	Method        string
	Similarity    float64
	Reindented    string
	Symbol        string
	Dropped       string
}

// Location is the change's record for a result.
func (c Change) Location() Location {
	return Location{Edit: c.Edit, Line: c.Line, EndLine: c.EndLine, Method: c.Method, Similarity: c.Similarity, Reindented: c.Reindented, Symbol: c.Symbol, Dropped: c.Dropped}
}

// Located returns c with its Location set from l (l's Edit included).
func (c Change) Located(l Location) Change {
	c.Edit, c.Line, c.EndLine, c.Method, c.Similarity, c.Reindented, c.Symbol, c.Dropped = l.Edit, l.Line, l.EndLine, l.Method, l.Similarity, l.Reindented, l.Symbol, l.Dropped
	return c
}

// Label names the change for a message: "replacements[0] (lines 5-7)".
func (c Change) Label() string {
	switch {
	case c.Edit == "":
		return c.Desc
	case c.Desc == "":
		return c.Edit
	}
	return c.Edit + " (" + c.Desc + ")"
}

// Locate gives an operation's changes its Location: the first carries
// it, the others complete it (their Method is left empty, so that a
// result lists the operation once). The slice is changed in place and
// returned.
func Locate(changes []Change, loc Location) []Change {
	for i := range changes {
		l := loc
		if i > 0 {
			l.Method = ""
		}
		changes[i] = changes[i].Located(l)
	}
	return changes
}

// overlapMessage says that change w overlaps c, for an error that names
// w's Edit already: w's own label is not repeated ("replacements[0]:
// lines 5-7 and replacements[1] (line 6) overlap").
func overlapMessage(w, c Change) string {
	subject := w.Desc
	if w.Edit == "" {
		subject = w.Label()
	}
	if subject == "" {
		return "overlaps " + c.Label()
	}
	return fmt.Sprintf("%s and %s overlap", subject, c.Label())
}

// Check returns the changes ordered by position, after checking that each
// lies inside a text of size bytes and that no two overlap (an insertion
// may touch a replaced range at either end, not fall inside it);
// insertions at the same offset keep their given order. The input slice
// is not modified; changes given in order already come back as they are,
// the same slice (a replaceAll of every line of a big file is 750,000 of
// them, not copied a second time). The error is an *Error with
// CodeInvalid naming both overlapping operations.
func Check(size int, changes []Change) ([]Change, error) {
	for _, c := range changes {
		if c.Start < 0 || c.End < c.Start || c.End > size {
			return nil, &Error{Code: CodeInvalid, Edit: c.Edit, Msg: fmt.Sprintf("range %d-%d outside the content (%d bytes)", c.Start, c.End, size)}
		}
	}
	byPosition := func(a, b Change) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
	}
	sorted := changes
	if !slices.IsSortedFunc(changes, byPosition) {
		sorted = slices.Clone(changes)
		slices.SortStableFunc(sorted, byPosition)
	}
	widest := -1 // index of the change reaching furthest so far
	for i, c := range sorted {
		if widest >= 0 {
			if w := sorted[widest]; c.Start < w.End {
				return nil, &Error{Code: CodeInvalid, Edit: w.Edit, Msg: overlapMessage(w, c)}
			}
		}
		if widest < 0 || c.End > sorted[widest].End {
			widest = i
		}
	}
	return sorted, nil
}

// Splice returns text with changes applied, in fresh memory. The changes
// all refer to text as it is and are validated together first (Check).
func Splice(text []byte, changes []Change) ([]byte, error) {
	pieces, err := Parts(text, changes)
	if err != nil {
		return nil, err
	}
	return Join(pieces), nil
}

// Parts is Splice's result as parts to be concatenated, in order: spans
// of text and the changes' new texts, which must not be written to (they
// may be a string's bytes). A big file is written and hashed from its
// parts without a second copy of its unchanged bytes.
func Parts(text []byte, changes []Change) ([][]byte, error) {
	sorted, err := Check(len(text), changes)
	if err != nil {
		return nil, err
	}
	return parts(text, sorted), nil
}

// PartsOf is Parts of changes already sorted and checked (Check's or
// Compose's result), without checking them again: a file edited in many
// steps is not sorted once per step.
func PartsOf(text []byte, sorted []Change) [][]byte { return parts(text, sorted) }

// parts is Parts of changes already sorted and checked.
func parts(text []byte, sorted []Change) [][]byte {
	pieces := make([][]byte, 0, 2*len(sorted)+1)
	at := 0
	for _, c := range sorted {
		pieces = append(pieces, text[at:c.Start], unsafe.Slice(unsafe.StringData(c.New), len(c.New)))
		at = c.End
	}
	return append(pieces, text[at:])
}

// Join is the concatenation of pieces, in fresh memory.
func Join(pieces [][]byte) []byte {
	return JoinInto(make([]byte, Len(pieces)), pieces)
}

// JoinInto writes the concatenation of pieces into out, which must be
// Len(pieces) long, and returns it: the caller chooses the memory (a big
// file's buffer backed by huge pages).
func JoinInto(out []byte, pieces [][]byte) []byte {
	size := len(out)
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

// Len is the length of the concatenation of pieces.
func Len(pieces [][]byte) int {
	n := 0
	for _, p := range pieces {
		n += len(p)
	}
	return n
}

// parallelCopy is the result size from which Join copies in two halves.
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

// Compose returns the changes of base that make what applying first to
// base and then next to the result makes: first are sorted, checked
// changes of base (Check's result); next are checked changes of
// Splice(base, first). The result is sorted. Where a change of next
// touches or overlaps text a change of first wrote, the two become one
// change spanning both (its Location is the earlier step's, and its New
// the text both steps leave there); elsewhere a change of next is moved
// to base's offsets as it is.
//
// Compose is how a file edited in several steps (multi_edit's edits to
// one file, SEARCH/REPLACE blocks, a patch that names a file twice) stays
// one set of changes against the text the call began with, so that every
// format's result is diffed and written the same way.
func Compose(base []byte, first, next []Change) []Change {
	return ComposeInto(nil, base, first, next)
}

// ComposeInto is Compose appending its result to dst, which must not
// share memory with first or next: a caller composing step after step
// swaps two buffers instead of allocating one per step.
func ComposeInto(dst []Change, base []byte, first, next []Change) []Change {
	if len(first) == 0 {
		return append(dst, next...)
	}
	if len(next) == 0 {
		return append(dst, first...)
	}
	// Where first[k] lies in the intermediate text: at its start plus d,
	// the growth of first[:k] (dI for first[i] below).
	msOf := func(k, d int) (int, int) {
		ms := first[k].Start + d
		return ms, ms + len(first[k].New)
	}
	growth := func(c Change) int { return len(c.New) - (c.End - c.Start) }
	dI := 0
	out := dst
	i, j := 0, 0
	shift := 0 // len(New)-len(old) of first[:i]
	for i < len(first) || j < len(next) {
		// Take the next change in the intermediate text's order, then grow
		// a cluster of changes of both steps that overlap or touch it.
		var ms, me int
		takeFirst := false
		if i < len(first) {
			fs, _ := msOf(i, dI)
			takeFirst = j >= len(next) || fs <= next[j].Start
		}
		if takeFirst {
			ms, me = msOf(i, dI)
		} else {
			ms, me = next[j].Start, next[j].End
		}
		fi, nj := i, j // the cluster's changes: first[fi:i], next[nj:j]
		for {
			grew := false
			for i < len(first) {
				fs, fe := msOf(i, dI)
				if fs > me || fe < ms {
					break
				}
				me, ms = max(me, fe), min(ms, fs)
				dI += growth(first[i])
				i++
				grew = true
			}
			for j < len(next) && next[j].Start <= me && next[j].End >= ms {
				if next[j].End > me {
					me = next[j].End
				}
				j++
				grew = true
			}
			if !grew {
				break
			}
		}
		if i == fi {
			// Changes of next alone, on text first left as it was.
			for _, c := range next[nj:j] {
				c.Start -= shift
				c.End -= shift
				out = append(out, c)
			}
			continue
		}
		if j == nj {
			out = append(out, first[fi:i]...)
			shift = dI
			continue
		}
		// One change: base's bytes from the cluster's start to its end,
		// replaced by the intermediate text there with next applied.
		startShift := shift
		var mid []byte // the intermediate text [ms, me)
		at := ms
		for k := fi; k < i; k++ {
			c := first[k]
			// kept text of base between at and the change's start
			mid = append(mid, base[at-shift:c.Start]...)
			mid = append(mid, c.New...)
			at = c.Start + shift + len(c.New)
			shift += growth(c)
		}
		mid = append(mid, base[at-shift:me-shift]...)
		var b []byte
		at = 0
		for _, c := range next[nj:j] {
			b = append(b, mid[at:c.Start-ms]...)
			b = append(b, c.New...)
			at = c.End - ms
		}
		b = append(b, mid[at:]...)
		merged := first[fi]
		merged.Start = ms - startShift
		merged.End = me - shift
		merged.New = string(b)
		if merged.Method == "" {
			merged = merged.Located(next[nj].Location())
		}
		out = append(out, merged)
	}
	return out
}
