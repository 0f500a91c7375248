package apply

import (
	"unsafe"

	"github.com/graftdev/graft/internal/textedit"
)

// joinPieces is the concatenation of pieces (a content held as parts: see
// textedit.Parts) in fresh memory, which for a big content is asked to be
// backed by huge pages (bigbuf.go).
func joinPieces(pieces [][]byte) []byte {
	n := textedit.Len(pieces)
	return textedit.JoinInto(makeContent(n)[:n], pieces)
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
