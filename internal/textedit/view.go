package textedit

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/transform"
)

// bom is the UTF-8 byte order mark.
var bom = bomUTF8

// View is a file's text as every format reads, locates and changes it,
// and the one mapping from that text back to the file's bytes.
//
// A byte order mark at the start belongs to the file, not to its first
// line. The text leaves it out (Prefix holds it), so that no read shows
// it, no old text or patch line must carry it, and no change moves it (an
// insertion at the top goes after it) or drops it (line 1 replaced or the
// whole file overwritten keeps it).
//
// The rest of the file is decoded from its [Encoding] into UTF-8 text.
// For a UTF-8 file every byte maps to itself. For any other encoding the
// view keeps, while it decodes, an offset map: character boundaries every
// few KiB (text offset and byte offset), from which a text offset is
// mapped by decoding forward, and every run of bytes that did not decode.
// A change of [Start, End) of the text becomes the change of exactly the
// bytes those characters came from, its new text encoded in the file's
// encoding, so every byte outside an edited range stays as it was by
// construction. Bytes that do not decode (a file in two encodings, or in
// an encoding nobody named) show as U+FFFD, one per byte or sequence; a
// change that touches them is refused, since graft cannot know what they
// mean, while changes elsewhere land.
type View struct {
	// Text is what formats see.
	Text []byte
	// Prefix is the bytes of the file before Text (a byte order mark, or
	// nothing).
	Prefix []byte
	// Encoding is the file's encoding; nil is UTF-8.
	Encoding *Encoding
	// From says how the encoding was determined, for messages: "from
	// .gitattributes working-tree-encoding", "detected ...", ... ("" for
	// UTF-8).
	From string

	// body is the file's bytes after Prefix.
	body []byte
	// marks are character boundaries, the first at 0, about markBytes of
	// the file apart; nil when every byte maps to itself.
	marks []mark
	// bads are the undecodable runs, in order.
	bads []bad
	// nb, for a notebook, is its structure (notebook.go).
	nb *Notebook
}

// mark is a character boundary: text offset t is byte offset b.
type mark struct{ t, b int }

// bad is one undecodable run: bw bytes at b, shown as U+FFFD at text
// offset t.
type bad struct{ t, b, bw int }

// markBytes is how far apart marks are: a text offset is mapped by
// decoding at most this many bytes.
const markBytes = 4 << 10

// NewView returns the view of a UTF-8 file's bytes. Text shares data's
// memory.
func NewView(data []byte) View {
	v := View{Text: data, body: data}
	if bytes.HasPrefix(data, bom) {
		v.Prefix, v.Text, v.body = data[:len(bom)], data[len(bom):], data[len(bom):]
	}
	return v
}

// NewFileView is the view of a new, empty file in enc: its prefix is the
// byte order mark enc's new files start with, if any.
func NewFileView(enc *Encoding) View {
	v := View{Encoding: enc, Prefix: enc.BOM()}
	if enc.IsUTF8() {
		v.Encoding = nil
	}
	return v
}

// Decode returns the view of data, a file in enc (nil: UTF-8). A byte
// order mark of enc's family at the start is the prefix. For valid UTF-8
// Text shares data's memory.
func Decode(data []byte, enc *Encoding) View {
	if enc == nil {
		enc = UTF8
	}
	v := View{Encoding: enc}
	if enc == UTF8 {
		v.Encoding = nil
	}
	if m := enc.mark(data); m != nil {
		v.Prefix, data = m, data[len(m):]
	}
	v.body = data
	switch enc.kind {
	case kindUTF8, kindUnsupported:
		if utf8.Valid(data) {
			v.Text = data
			return v
		}
		v.decodeUTF8(data)
	case kindSingle:
		v.decodeSingle(data)
	case kindMulti:
		v.decodeMulti(data)
	case kindUTF16LE, kindUTF16BE, kindUTF32LE, kindUTF32BE:
		v.decodeWide(data)
	}
	return v
}

// Undecodable reports how many runs of the file's bytes did not decode.
func (v View) Undecodable() int { return len(v.bads) }

// builder accumulates a view's text, marks and undecodable runs.
type builder struct {
	text  []byte
	marks []mark
	bads  []bad
	b     int // bytes consumed
}

func newBuilder(size int) *builder {
	return &builder{text: make([]byte, 0, size), marks: []mark{{}}}
}

// boundary records a mark at the current character boundary when the
// last is far enough behind.
func (d *builder) boundary() {
	if last := d.marks[len(d.marks)-1]; d.b-last.b >= markBytes {
		d.marks = append(d.marks, mark{len(d.text), d.b})
	}
}

// undecodable records bw bytes that did not decode.
func (d *builder) undecodable(bw int) {
	d.bads = append(d.bads, bad{len(d.text), d.b, bw})
	d.text = append(d.text, replacement...)
	d.b += bw
}

const replacement = "\uFFFD"

func (v *View) finish(d *builder) {
	v.Text, v.marks, v.bads = d.text, d.marks, d.bads
}

// charAt returns the widths, in the text and in the file, of the
// character at byte offset b of the body, as the view decoded it.
func (v View) charAt(b int) (tw, bw int) {
	if i := sort.Search(len(v.bads), func(k int) bool { return v.bads[k].b >= b }); i < len(v.bads) && v.bads[i].b == b {
		return len(replacement), v.bads[i].bw
	}
	data := v.body
	enc := v.Encoding
	if enc == nil {
		enc = UTF8
	}
	switch enc.kind {
	case kindSingle:
		return int(enc.singleTable()[data[b]].n), 1
	case kindMulti:
		if data[b] < utf8.RuneSelf {
			return 1, 1
		}
		var buf [16]byte
		nDst, nSrc := enc.decodeOne(enc.mb.NewDecoder(), buf[:], data, b)
		return nDst, nSrc
	case kindUTF16LE, kindUTF16BE, kindUTF32LE, kindUTF32BE:
		r, n := enc.wideAt(data, b)
		return utf8.RuneLen(r), n
	}
	_, n := utf8.DecodeRune(data[b:])
	return n, n
}

func (v *View) decodeUTF8(data []byte) {
	d := newBuilder(len(data) + len(data)/8)
	for d.b < len(data) {
		end := min(d.b+markBytes, len(data))
		j := d.b
		for j < end {
			if data[j] < utf8.RuneSelf {
				j++
				continue
			}
			r, n := utf8.DecodeRune(data[j:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			j += n
		}
		d.text = append(d.text, data[d.b:j]...)
		d.b = j
		if j < end {
			d.undecodable(1)
		}
		d.boundary()
	}
	v.finish(d)
}

// sbChar is one byte of a single-byte encoding, decoded to UTF-8.
type sbChar struct {
	n   uint8 // text bytes
	bad bool
	s   [3]byte
}

// singleTable is the encoding's 256 bytes decoded, computed once.
func (e *Encoding) singleTable() *[256]sbChar {
	e.once.Do(func() {
		t := new([256]sbChar)
		for i := range t {
			r := e.cm.DecodeByte(byte(i))
			n := utf8.EncodeRune(t[i].s[:], r)
			t[i].n, t[i].bad = uint8(n), r == utf8.RuneError
		}
		e.table = t
	})
	return e.table
}

func (v *View) decodeSingle(data []byte) {
	table := v.Encoding.singleTable()
	size := 0
	for _, c := range data {
		size += int(table[c].n)
	}
	d := newBuilder(size + len(replacement)*8)
	ascii := v.Encoding.ascii
	for d.b < len(data) {
		end := min(d.b+markBytes, len(data))
		for i := d.b; i < end; {
			if ascii && data[i] < utf8.RuneSelf {
				j := i + 1
				for j < end && data[j] < utf8.RuneSelf {
					j++
				}
				d.text = append(d.text, data[i:j]...)
				d.b += j - i
				i = j
				continue
			}
			c := &table[data[i]]
			if c.bad {
				d.undecodable(1)
			} else {
				d.text = append(d.text, c.s[:c.n]...)
				d.b++
			}
			i++
		}
		d.boundary()
	}
	v.finish(d)
}

// decodeOne decodes the character at data[i:] (not ASCII): the shortest
// prefix the decoder consumes, into buf. nSrc is 0 when nothing decodes
// there.
func (e *Encoding) decodeOne(dec transform.Transformer, buf, data []byte, i int) (nDst, nSrc int) {
	for n := 1; n <= 4 && i+n <= len(data); n++ {
		dec.Reset()
		var err error
		nDst, nSrc, err = dec.Transform(buf, data[i:i+n], i+n == len(data) || n == 4)
		if nSrc > 0 || err != transform.ErrShortSrc {
			break
		}
	}
	if nSrc > 0 {
		out := buf[:nDst]
		if r, n := utf8.DecodeRune(out); n < len(out) && bytes.ContainsRune(out, utf8.RuneError) {
			// The decoder gave up on the first byte and decoded what
			// followed it: the first byte alone is the undecodable run.
			return len(replacement), -1
		} else if r == utf8.RuneError && n == len(out) && !e.encodesAs(replacement, data[i:i+nSrc]) {
			return len(replacement), -nSrc
		}
	}
	return nDst, nSrc
}

func (v *View) decodeMulti(data []byte) {
	enc := v.Encoding
	dec := enc.mb.NewDecoder()
	d := newBuilder(len(data)*3/2 + 4*markBytes)
	var buf [16]byte
	for d.b < len(data) {
		// A run of whole characters at full speed; a run that holds
		// U+FFFD again a character at a time, to find the bytes that did
		// not decode.
		end := min(d.b+markBytes, len(data))
		d.text = slices.Grow(d.text, 4*(end-d.b))
		dec.Reset()
		nDst, nSrc, _ := dec.Transform(d.text[len(d.text):cap(d.text)], data[d.b:end], end == len(data))
		if out := d.text[len(d.text) : len(d.text)+nDst]; nSrc > 0 && !bytes.Contains(out, []byte(replacement)) {
			d.text = d.text[:len(d.text)+nDst]
			d.b += nSrc
			d.boundary()
			continue
		}
		stop := max(d.b+nSrc, d.b+1)
		for d.b < stop {
			if data[d.b] < utf8.RuneSelf {
				d.text = append(d.text, data[d.b])
				d.b++
				continue
			}
			n, m := enc.decodeOne(dec, buf[:], data, d.b)
			switch {
			case m <= 0:
				d.undecodable(max(-m, 1))
			default:
				d.text = append(d.text, buf[:n]...)
				d.b += m
			}
		}
		d.boundary()
	}
	v.finish(d)
}

// encodesAs reports whether s encodes to b (GB18030 encodes U+FFFD).
func (e *Encoding) encodesAs(s string, b []byte) bool {
	out, _, ok := e.appendEncoded(nil, s)
	return ok && bytes.Equal(out, b)
}

// wideAt decodes the UTF-16 or UTF-32 character at data[i:]: the rune
// (RuneError when it does not decode) and its bytes.
func (e *Encoding) wideAt(data []byte, i int) (rune, int) {
	switch e.kind {
	case kindUTF16LE, kindUTF16BE:
		if i+2 > len(data) {
			return utf8.RuneError, len(data) - i
		}
		unit := func(i int) rune {
			if e.kind == kindUTF16LE {
				return rune(data[i]) | rune(data[i+1])<<8
			}
			return rune(data[i])<<8 | rune(data[i+1])
		}
		r := unit(i)
		switch {
		case r >= 0xD800 && r < 0xDC00 && i+4 <= len(data):
			if r2 := unit(i + 2); r2 >= 0xDC00 && r2 < 0xE000 {
				return 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00), 4
			}
			return utf8.RuneError, 2
		case r >= 0xD800 && r < 0xE000:
			return utf8.RuneError, 2
		}
		return r, 2
	default:
		if i+4 > len(data) {
			return utf8.RuneError, len(data) - i
		}
		var u uint32
		if e.kind == kindUTF32LE {
			u = uint32(data[i]) | uint32(data[i+1])<<8 | uint32(data[i+2])<<16 | uint32(data[i+3])<<24
		} else {
			u = uint32(data[i])<<24 | uint32(data[i+1])<<16 | uint32(data[i+2])<<8 | uint32(data[i+3])
		}
		if u > utf8.MaxRune || u >= 0xD800 && u < 0xE000 {
			return utf8.RuneError, 4
		}
		return rune(u), 4
	}
}

// isFFFD reports whether the bytes at data[i:i+n] are U+FFFD itself.
func (e *Encoding) isFFFD(data []byte, i, n int) bool {
	switch e.kind {
	case kindUTF16LE:
		return n == 2 && data[i] == 0xFD && data[i+1] == 0xFF
	case kindUTF16BE:
		return n == 2 && data[i] == 0xFF && data[i+1] == 0xFD
	case kindUTF32LE:
		return n == 4 && data[i] == 0xFD && data[i+1] == 0xFF && data[i+2] == 0 && data[i+3] == 0
	case kindUTF32BE:
		return n == 4 && data[i] == 0 && data[i+1] == 0 && data[i+2] == 0xFF && data[i+3] == 0xFD
	}
	return false
}

func (v *View) decodeWide(data []byte) {
	enc := v.Encoding
	d := newBuilder(len(data)*3/2 + 16)
	for d.b < len(data) {
		r, n := enc.wideAt(data, d.b)
		if r == utf8.RuneError && !enc.isFFFD(data, d.b, n) {
			d.undecodable(n)
		} else {
			d.text = utf8.AppendRune(d.text, r)
			d.b += n
		}
		d.boundary()
	}
	v.finish(d)
}

// byteOf maps a text offset to the byte offset after the prefix; ok is
// false when off falls inside a character.
func (v View) byteOf(off int) (b int, ok bool) {
	if v.marks == nil {
		return off, true
	}
	k := sort.Search(len(v.marks), func(k int) bool { return v.marks[k].t > off }) - 1
	t, b := v.marks[k].t, v.marks[k].b
	for t < off {
		tw, bw := v.charAt(b)
		t, b = t+tw, b+bw
	}
	return b, t == off
}

// touchesBad returns the text offset of the first undecodable run that
// [start, end) overlaps, or -1.
func (v View) touchesBad(start, end int) int {
	i := sort.Search(len(v.bads), func(k int) bool { return v.bads[k].t+len(replacement) > start })
	if i < len(v.bads) && v.bads[i].t < end {
		return max(v.bads[i].t, start)
	}
	return -1
}

// Bytes maps changes of the view's text to changes of the file's bytes:
// each change's range becomes the bytes its characters came from, and
// its new text is encoded in the file's encoding. It refuses (an *Error
// with CodeInvalid, naming the change) a change that splits a character,
// touches undecodable bytes, or brings a character the encoding cannot
// represent, and every change to a file in an encoding graft cannot
// write. The slice is changed in place and returned.
func (v View) Bytes(changes []Change) ([]Change, error) {
	if v.nb != nil {
		return v.notebookBytes(changes)
	}
	enc := v.Encoding
	if enc.Unsupported() {
		if len(changes) == 0 {
			return changes, nil
		}
		return nil, &Error{Code: CodeInvalid, Edit: changes[0].Edit,
			Msg: fmt.Sprintf("the file's encoding is %s (%s), which graft cannot write: edit it with a tool that can, or store it in an encoding graft writes (UTF-8, UTF-16, a single-byte code page, Shift_JIS, EUC-JP, EUC-KR, GBK, GB18030, Big5)", enc.Name(), v.From)}
	}
	p := len(v.Prefix)
	for i := range changes {
		c := &changes[i]
		// New text at the top that brings the mark again (a whole file
		// sent back as read with it) does not get a second one.
		if p > 0 && c.Start == 0 {
			c.New = strings.TrimPrefix(c.New, "\uFEFF")
		}
		if v.marks != nil {
			s, ok1 := v.byteOf(c.Start)
			e, ok2 := v.byteOf(c.End)
			if !ok1 || !ok2 {
				return nil, &Error{Code: CodeInvalid, Edit: c.Edit, Msg: fmt.Sprintf("%s splits a character of the file (text offset %d)", orChange(c.Label()), c.Start)}
			}
			if len(v.bads) > 0 && c.End > c.Start {
				if at := v.touchesBad(c.Start, c.End); at >= 0 {
					return nil, v.badError(c, at)
				}
			}
			c.Start, c.End = s, e
		}
		if !enc.IsUTF8() {
			if !utf8.ValidString(c.New) {
				return nil, &Error{Code: CodeInvalid, Edit: c.Edit, Msg: fmt.Sprintf("%s: the new text is not valid UTF-8", orChange(c.Label()))}
			}
			out, r, ok := enc.appendEncoded(nil, c.New)
			if !ok {
				return nil, v.unrepresentable(c, r)
			}
			c.New = string(out)
		}
		c.Start += p
		c.End += p
	}
	return changes, nil
}

func orChange(label string) string {
	if label == "" {
		return "the change"
	}
	return label
}

// unrepresentable is the refusal of new text with a character the
// file's encoding has no bytes for.
func (v View) unrepresentable(c *Change, r rune) *Error {
	from := ""
	if v.From != "" {
		from = ", " + v.From
	}
	what := "a character"
	if r != 0 {
		what = fmt.Sprintf("%q (U+%04X)", r, r)
	}
	return &Error{Code: CodeInvalid, Edit: c.Edit, Msg: fmt.Sprintf(
		"the new text has %s, which %s (the file's encoding%s) cannot represent: write it another way (an escape the language allows, or a character of %s), or convert the file to UTF-8 first",
		what, v.Encoding.Name(), from, v.Encoding.Name())}
}

// badError is the refusal of a change that touches bytes that did not
// decode, at text offset at.
func (v View) badError(c *Change, at int) *Error {
	line := 1 + bytes.Count(v.Text[:at], []byte("\n"))
	var msg string
	if v.Encoding == Unknown {
		msg = fmt.Sprintf("%s touches bytes on line %d that are not UTF-8 (shown as U+FFFD), and nothing names the file's encoding, so graft cannot tell what they are and will not rewrite them. "+
			"Declare the encoding and retry: a line `<path> working-tree-encoding=<ENCODING>` in .gitattributes (any encoding, e.g. ISO-8859-1, windows-1252, Shift_JIS, GBK) "+
			"or `charset = latin1` in a [<path>] section of .editorconfig (it names only latin1, utf-8, utf-8-bom, utf-16le, utf-16be). Edits of other lines work as they are",
			orChange(c.Label()), line)
	} else {
		from := ""
		if v.From != "" {
			from = ", " + v.From
		}
		msg = fmt.Sprintf("%s touches bytes on line %d that are not valid %s (the file's encoding%s; shown as U+FFFD): the file is in two encodings there, and graft will not rewrite bytes it cannot read. "+
			"Fix those bytes by hand, or declare the right encoding (working-tree-encoding in .gitattributes); edits of other lines work as they are",
			orChange(c.Label()), line, v.Encoding.Name(), from)
	}
	return &Error{Code: CodeInvalid, Edit: c.Edit, Msg: msg}
}

// Encode returns the bytes of a file whose text is text: the prefix,
// then the text in the file's encoding. A new text that starts with the
// mark already (a whole file sent back as read with its mark) does not
// get a second one. It refuses text the encoding cannot represent, as
// Bytes does.
func (v View) Encode(text []byte) ([]byte, error) {
	if v.nb != nil {
		return v.notebookEncode(text)
	}
	if len(v.Prefix) > 0 {
		text = bytes.TrimPrefix(text, []byte("\uFEFF"))
	}
	enc := v.Encoding
	if enc.IsUTF8() {
		if len(v.Prefix) == 0 {
			return text, nil
		}
		out := make([]byte, 0, len(v.Prefix)+len(text))
		return append(append(out, v.Prefix...), text...), nil
	}
	c := &Change{Desc: "the new content"}
	if enc.Unsupported() {
		_, err := v.Bytes([]Change{*c})
		return nil, err
	}
	if !utf8.Valid(text) {
		return nil, &Error{Code: CodeInvalid, Msg: "the new content is not valid UTF-8"}
	}
	out, r, ok := enc.appendEncoded(append([]byte(nil), v.Prefix...), string(text))
	if !ok {
		return nil, v.unrepresentable(c, r)
	}
	return out, nil
}
