package snippet

// Why a region is refused: a small set of kinds, each the answer to one
// question of the rules (package doc), that tests and the engine check
// with errors.Is or ReasonOf rather than by the message.

import (
	"errors"

	"github.com/graftdev/graft/internal/textedit"
)

// Reason is the kind of a refusal. A refused Plan returns a
// *textedit.Error whose Err is the Reason: errors.Is(err, NoAnchor) picks
// one, and errors.Is(err, ErrDeletes) (or ErrEnds, ErrNotFound,
// ErrAmbiguous) the group it belongs to.
type Reason int

// The reasons a region is refused: first where it stands (anchoring),
// then what it would delete.
const (
	// NoAnchor: its first or last lines (or both) are not in the file
	// after the previous region, so nothing places that end.
	NoAnchor Reason = iota + 1
	// AnchorTwice: its unchanged lines stand several times and nothing
	// tells the places apart.
	AnchorTwice
	// UnchangedTwice: it changes nothing, and its first or last line
	// stands several times, so it could also mean deleting lines between
	// them.
	UnchangedTwice
	// EndsEitherWay: its last lines stand after its first lines and also
	// before them, so they do not say where it ends.
	EndsEitherWay
	// NotAtEdge: the snippet has no marker at its start (end), so it
	// must reach the file's start (end), and it does not.
	NotAtEdge
	// WeakShift: one end is one line found only by its indentation, and
	// the other end does not show the same shift.
	WeakShift
	// Unshiftable: its lines cannot be re-indented line for line as its
	// first lines were found.
	Unshiftable
	// MixedShift: its first lines were found with their indentation
	// shifted, and its last lines, re-indented so, need another shift.
	MixedShift
	// DeletesUnlike: it would remove lines it does not show that the
	// snippet does not account for (package doc, parts 1 to 3), a
	// definition with its body, a declaration whose name is still used,
	// or a block with unrelated new lines in its place.
	DeletesUnlike
	// CutsBlock: it would remove a block's opening line and leave the
	// block's body where it is, past the region.
	CutsBlock
	// UnpairedBrackets: the lines it removes and the lines it puts in
	// their place do not open and close the same number of brackets.
	UnpairedBrackets
)

var reasonText = map[Reason]string{
	NoAnchor:         "an end of the region is not in the file",
	AnchorTwice:      "the region's unchanged lines stand more than once",
	UnchangedTwice:   "the region changes nothing and its ends stand more than once",
	EndsEitherWay:    "the region's last lines stand before its first lines too",
	NotAtEdge:        "the snippet does not reach the file's edge it claims to",
	WeakShift:        "one line found by its indentation only places the region",
	Unshiftable:      "the region cannot be re-indented line for line",
	MixedShift:       "the region's ends differ from the file in different ways",
	DeletesUnlike:    "the region would delete lines like none of its new lines",
	CutsBlock:        "the region would delete a block's opening line and keep its body",
	UnpairedBrackets: "the region's removed and new lines do not pair their brackets",
}

func (r Reason) Error() string { return reasonText[r] }

// Kind is the group of the reason: ErrNotFound, ErrAmbiguous, ErrEnds or
// ErrDeletes.
func (r Reason) Kind() error {
	switch r {
	case NoAnchor, WeakShift, Unshiftable:
		return ErrNotFound
	case AnchorTwice, UnchangedTwice, EndsEitherWay, MixedShift:
		return ErrAmbiguous
	case NotAtEdge:
		return ErrEnds
	}
	return ErrDeletes
}

// Is matches the reason's group, so that errors.Is(err, ErrDeletes) holds
// for every reason a region would delete lines.
func (r Reason) Is(target error) bool { return target == r.Kind() }

// ReasonOf is the reason of a refusal Plan returned, or 0.
func ReasonOf(err error) Reason {
	var r Reason
	if errors.As(err, &r) {
		return r
	}
	return 0
}

// Kinds of refusal. Not found and ambiguous are graft's shared sentinels
// (internal/textedit); the two others are conflicts of their own, which
// the refusal's error matches with errors.Is beside textedit.ErrConflict.
var (
	ErrNotFound  = textedit.ErrNotFound
	ErrAmbiguous = textedit.ErrAmbiguous
	ErrDeletes   = textedit.Kind("region would delete lines it does not show", textedit.ErrConflict)
	ErrEnds      = textedit.Kind("snippet does not reach the file's end", textedit.ErrConflict)
)
