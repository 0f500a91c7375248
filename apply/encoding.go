package apply

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf8"

	"github.com/graftdev/graft/internal/charset"
	"github.com/graftdev/graft/internal/lineindex"
	"github.com/graftdev/graft/internal/textedit"
)

// How a file's encoding was determined, in the order graft asks (the
// first that answers wins). Files in UTF-8 say nothing.
const (
	fromBOM          = "from its byte order mark"
	fromAttributes   = "from .gitattributes working-tree-encoding"
	fromEditorConfig = "from .editorconfig charset"
	fromDeclaration  = "declared in the file"
	fromNothing      = "not UTF-8, and nothing names its encoding"
)

// encodingOf determines the encoding of the file at rel (abs on disk)
// whose content is data (nil for a file that does not exist yet): a byte
// order mark; git's working-tree-encoding attribute; the .editorconfig
// charset; for an existing file, a declaration in it (coding cookie, XML
// declaration, HTML meta charset), then valid UTF-8, then the detector.
// binary reports content that is binary whatever its encoding (a NUL in
// its first bytes, and no UTF-16 or UTF-32 named).
func (tx *Tx) encodingOf(rel, abs string, data []byte, exists bool) (enc *textedit.Encoding, from string, binary bool) {
	if exists {
		if e := textedit.SniffBOM(data); e != nil {
			return e, fromBOM, false
		}
	}
	if name := tx.e.store.WorkingTreeEncoding(rel); name != "" {
		e := textedit.LookupEncoding(name)
		if e == nil {
			e = textedit.UnsupportedEncoding(name)
		}
		// git's UTF-16 without an order ("UTF-16", "UTF-32") has a mark,
		// read above; one named without a mark is written without.
		return e, fromAttributes, exists && isBinary(data) && !e.Wide()
	}
	if cs := charset.EditorConfig(tx.e.store.Root(), abs); cs != "" {
		if e := editorConfigEncoding(cs); e != nil {
			if e == textedit.UTF8 && (!exists || utf8.Valid(data)) {
				return e, "", false // plain UTF-8: nothing to report
			}
			return e, fromEditorConfig, exists && isBinary(data) && !e.Wide()
		}
	}
	if !exists {
		return textedit.UTF8, "", false
	}
	if isBinary(data) {
		return textedit.UTF8, "", true
	}
	if name := charset.Declared(rel, data); name != "" {
		// A declaration read as ASCII cannot name UTF-16 or UTF-32; a name
		// graft does not know is no declaration.
		if e := textedit.LookupEncoding(name); e != nil && !e.Wide() {
			if e.IsUTF8() && !utf8.Valid(data) {
				return e, fromDeclaration, false
			}
			if !e.IsUTF8() {
				return e, fromDeclaration, false
			}
		}
	}
	if utf8.Valid(data) {
		return textedit.UTF8, "", false
	}
	if name, conf := charset.Detect(data); name != "" {
		if e := textedit.LookupEncoding(name); e != nil {
			return e, fmt.Sprintf("detected (confidence %.2f; declare it to be sure)", conf), false
		}
	}
	return textedit.Unknown, fromNothing, false
}

// editorConfigEncoding is the encoding of an .editorconfig charset: new
// files in utf-8-bom, utf-16le and utf-16be start with a byte order mark.
func editorConfigEncoding(cs string) *textedit.Encoding {
	switch cs {
	case "latin1":
		return textedit.LookupEncoding("ISO-8859-1")
	case "utf-8":
		return textedit.UTF8
	case "utf-8-bom":
		return textedit.UTF8.WithBOM()
	case "utf-16le":
		return textedit.UTF16LE.WithBOM()
	case "utf-16be":
		return textedit.UTF16BE.WithBOM()
	}
	return nil
}

// identity reports whether the file's text is its bytes (after a UTF-8
// byte order mark): UTF-8 that was valid when read, the common case,
// which needs no decoding.
func (f *TxFile) identity() bool {
	if f.notebook() {
		return false
	}
	return f.enc == nil || f.enc.IsUTF8() && f.enc != textedit.Unknown && f.validUTF8
}

// view is the view of the file's content so far, decoded from its
// encoding; cached until the content changes.
func (f *TxFile) view() textedit.View {
	if f.notebook() {
		return f.notebookView()
	}
	if f.identity() {
		return textedit.NewView(f.Content())
	}
	if f.cached == nil {
		if f.Exists && !f.stepped() {
			v := f.oldView()
			f.cached = &v
		} else {
			v := textedit.Decode(f.Content(), f.enc)
			v.From = f.encFrom
			f.cached = &v
		}
	}
	return *f.cached
}

// oldView is the view of the content the call began with (cached).
func (f *TxFile) oldView() textedit.View {
	if f.notebook() {
		return f.oldNotebookView()
	}
	if f.identity() {
		return textedit.NewView(f.Old)
	}
	if f.oldCached == nil {
		v := textedit.Decode(f.Old, f.enc)
		v.From = f.encFrom
		f.oldCached = &v
	}
	return *f.oldCached
}

// decode reads other content of the file (a version read earlier, the
// content on disk now) through its encoding, for diffs and messages.
func (f *TxFile) decode(b []byte) []byte {
	if f.notebook() {
		if v, err := textedit.NotebookView(b); err == nil {
			return v.Text
		}
		return b
	}
	if f.identity() {
		return b
	}
	return textedit.Decode(b, f.enc).Text
}

// Encoding names the file's encoding ("UTF-8", "windows-1252", ...), and
// how it was determined ("" for UTF-8 that nothing named).
func (f *TxFile) Encoding() (name, from string) {
	return f.enc.Name(), f.encFrom
}

// encodeWhole returns the bytes of a whole new content given as text: in
// the file's encoding, with the byte order mark its new files (or, for
// an existing file, it) start with. Binary content (OpenBinary) and
// UTF-8 files take the content as given.
func (f *TxFile) encodeWhole(content []byte) ([]byte, error) {
	if f.raw || f.enc == nil || f.enc.IsUTF8() && len(f.enc.BOM()) == 0 {
		return content, nil
	}
	if f.source != nil {
		// A rename or copy: the source's bytes when its text came through
		// unchanged, so that undecodable bytes are copied, not replaced.
		if bytes.Equal(content, f.source.text) {
			return f.source.data, nil
		}
		if f.source.bad {
			return nil, &Error{Code: CodeInvalid, Path: f.Rel, Msg: "the patch renames or copies a file with bytes that do not decode and changes it: graft cannot write the undecodable bytes again. Rename or copy it unchanged, then edit it"}
		}
	}
	v := textedit.NewFileView(f.enc)
	v.From = f.encFrom
	out, err := v.Encode(content)
	if err != nil {
		return nil, textedit.WithPath(err, f.Rel)
	}
	return out, nil
}

// renamed is the file a rename or copy takes its content from.
type renamed struct {
	text, data []byte
	bad        bool
}

// inheritEncoding makes f, the target of a rename or copy of src, keep
// src's encoding (and byte order mark), unless its own path names one.
func (f *TxFile) inheritEncoding(src *TxFile) {
	if src == nil || src.raw || !src.Exists || f.encFrom == fromAttributes || f.encFrom == fromEditorConfig {
		return
	}
	v := src.oldView()
	f.source = &renamed{text: v.Text, data: src.Old, bad: v.Undecodable() > 0}
	f.enc, f.encFrom, f.validUTF8 = src.enc, src.encFrom, src.validUTF8
	f.cached, f.oldCached = nil, nil
}

// checkDecodes refuses a step whose changes, next to bytes that do not
// decode, would make those bytes read differently: the new content must
// read as the text the changes make, character for character.
func (f *TxFile) checkDecodes(want []byte) error {
	f.cached = nil
	if got := f.view().Text; !bytes.Equal(got, want) {
		return &Error{Code: CodeInvalid, Path: f.Rel, Msg: "the edit is next to bytes that do not decode, and would make them read as something else: " +
			"change a wider range that leaves them apart, or declare the file's encoding (working-tree-encoding in .gitattributes)"}
	}
	return nil
}

// textResult is result for a file whose text is decoded: its diff and
// statistics are of the text, not of the bytes (diffs show what the
// encoding means, never U+FFFD for a byte it names).
func (f *TxFile) textResult(oldName, newName string) FileResult {
	var a, b []byte
	if f.Exists {
		a = f.oldView().Text
	}
	if !f.deleted {
		b = f.Text()
	}
	p := commonPrefix(a, b)
	q := commonSuffix(a[p:], b[p:])
	var ai, bi *lineindex.Index
	var edits []lineEdit
	base := 0
	if p == len(a) && p == len(b) {
		ai, bi = lineindex.New(a), lineindex.New(b)
	} else {
		sorted := []textedit.Change{{Start: p, End: len(a) - q, New: string(b[p : len(b)-q])}}
		if ws, we := hunkWindow(a, sorted); we-ws <= maxWindow {
			base = bytes.Count(a[:ws], []byte("\n"))
			ai, bi, edits = windowEdits(a, sorted, ws, we, base)
		} else {
			ai, bi = lineindex.New(a), lineindex.New(b)
			edits = editsFromHunks(ai, bi, sorted)
		}
	}
	return f.resultOf(oldName, newName, ai, bi, edits, base)
}

// encodingKey tells decoded texts apart in caches keyed by the bytes'
// blob id: "" for a file whose text is its bytes.
func (f *TxFile) encodingKey() string {
	if f.notebook() {
		return "ipynb"
	}
	if f.identity() {
		return ""
	}
	return f.enc.Name()
}

// resolveEncoding determines the encoding of a file that was read as plain
// ASCII, if it was not yet: such a file reads the same in every
// ASCII-compatible encoding, so the attribute and .editorconfig files
// that name it are read only when something needs the name (new text
// that is not ASCII, a whole new content, file_read).
func (f *TxFile) resolveEncoding() {
	if f.lazy != nil {
		lazy := f.lazy
		f.lazy = nil
		lazy()
	}
}

// resolveFor determines the encoding before changes that bring text
// other than ASCII.
func (f *TxFile) resolveFor(changes []textedit.Change) {
	if f.lazy == nil {
		return
	}
	for _, c := range changes {
		for i := 0; i < len(c.New); i++ {
			if c.New[i] >= utf8.RuneSelf || c.New[i] == 0 || c.New[i] == 0x1b {
				f.resolveEncoding()
				return
			}
		}
	}
}

// plainASCII reports whether data is 7-bit text without NUL or ESC (the
// escapes of the stateful encodings): the same text in every
// ASCII-compatible encoding.
func plainASCII(data []byte) bool {
	i := 0
	for ; i+8 <= len(data); i += 8 {
		if binary.LittleEndian.Uint64(data[i:])&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(data); i++ {
		if data[i] >= utf8.RuneSelf {
			return false
		}
	}
	return bytes.IndexByte(data, 0) < 0 && bytes.IndexByte(data, 0x1b) < 0
}
