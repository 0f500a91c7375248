package textedit

import (
	"bytes"
	"strings"
)

// bom is the UTF-8 byte order mark.
var bom = []byte{0xEF, 0xBB, 0xBF}

// View is a file's text as every format reads, locates and changes it,
// and the one mapping from that text back to the file's bytes.
//
// The mapping today: a UTF-8 byte order mark at the start belongs to the
// file, not to its first line. The text leaves it out, so that no read
// shows it, no old text or patch line must carry it, and no change moves
// it (an insertion at the top goes after it) or drops it (line 1
// replaced or the whole file overwritten keeps it). Every other byte maps
// to itself, so a change of [Start, End) of the text is the change of
// [Start+len(Prefix), End+len(Prefix)) of the bytes.
type View struct {
	// Text is what formats see.
	Text []byte
	// Prefix is the bytes of the file before Text (the mark, or nothing).
	Prefix []byte
}

// NewView returns the view of a file's bytes. Text shares data's memory.
func NewView(data []byte) View {
	if bytes.HasPrefix(data, bom) {
		return View{Text: data[len(bom):], Prefix: data[:len(bom)]}
	}
	return View{Text: data}
}

// Bytes maps changes of the view's text to changes of the file's bytes.
// The slice is changed in place and returned.
func (v View) Bytes(changes []Change) []Change {
	if len(v.Prefix) == 0 {
		return changes
	}
	for i := range changes {
		changes[i].Start += len(v.Prefix)
		changes[i].End += len(v.Prefix)
		// New text at the top that brings the mark again (a whole file
		// sent back as read with it) does not get a second one.
		if changes[i].Start == len(v.Prefix) && strings.HasPrefix(changes[i].New, string(v.Prefix)) {
			changes[i].New = changes[i].New[len(v.Prefix):]
		}
	}
	return changes
}

// Encode returns the bytes of a file whose text is text: the prefix,
// then the text. A new text that starts with the mark already (a whole
// file sent back as read with its mark) does not get a second one.
func (v View) Encode(text []byte) []byte {
	if len(v.Prefix) == 0 || bytes.HasPrefix(text, v.Prefix) {
		return text
	}
	out := make([]byte, 0, len(v.Prefix)+len(text))
	return append(append(out, v.Prefix...), text...)
}
