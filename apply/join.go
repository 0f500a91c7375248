package apply

import (
	"strings"
	"unsafe"

	"github.com/graftdev/graft/internal/textedit"
)

// joinPieces is the concatenation of pieces (a content held as parts: see
// textedit.Parts) in fresh memory, which for a big content is asked to be
// backed by huge pages (bigbuf.go).
func joinPieces(pieces [][]byte) []byte {
	n := textedit.Len(pieces)
	if n >= hugeThreshold {
		return textedit.JoinInto(makeContent(n)[:n], pieces)
	}
	// A content is only read once made (see stringBytes), so a smaller
	// one is joined in a strings.Builder, whose memory is not cleared
	// first: a step of multi_edit makes the file's content anew, and
	// clearing it was a third of the cost.
	var b strings.Builder
	b.Grow(n)
	for _, p := range pieces {
		b.Write(p)
	}
	return stringBytes(b.String())
}

// stringBytes is s's bytes, without a copy: a file the call creates takes
// the request's decoded text as its content rather than a second copy of
// it (a 60 MB create held the argument and its copy until the call
// ended). The bytes are a string's, so they must never be written to, and
// they are not: a TxFile never changes a content in place (a later step
// splices into fresh memory, textedit.Splice; an encoding or a byte order
// mark makes a new content, encodeWhole), the store only hashes and
// writes Change.New, and the slice's capacity is its length, so an append
// to it copies.
func stringBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
