package apply

import "github.com/graftdev/graft/internal/textedit"

// joinPieces is the concatenation of pieces (a content held as parts: see
// textedit.Parts) in fresh memory, which for a big content is asked to be
// backed by huge pages (bigbuf.go).
func joinPieces(pieces [][]byte) []byte {
	n := textedit.Len(pieces)
	return textedit.JoinInto(makeContent(n)[:n], pieces)
}
