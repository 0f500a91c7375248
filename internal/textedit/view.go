package textedit

import (
	"bytes"
	"fmt"
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
// view keeps, while it decodes, a map of which bytes each run of
// characters came from; a change of [Start, End) of the text becomes the
// change of exactly the bytes those characters came from, its new text
// encoded in the file's encoding, so every byte outside an edited range
// stays as it was by construction. Bytes that do not decode (a file in
// two encodings, or in an encoding nobody named) show as U+FFFD, one per
// byte or sequence; a change that touches them is refused, since graft
// cannot know what they mean, while changes elsewhere land.
type View struct {
	// Text is what formats see.
	Text []byte
	// Prefix is the bytes of the file before Text (a byte order mark, or
	// nothing).
	Prefix []byte
	// Encoding is the file's encoding; nil is UTF-8.
	Encoding *Encoding
	// From says how the encoding was determined, for messages: "from
	// .gitattributes", "detected", ... ("" for UTF-8).
	From string

	// segs maps runs of characters of Text to the bytes after Prefix;
	// nil when every byte maps to itself.
	segs []seg
	// body is the file's bytes after Prefix.
	body []byte
	// bad counts the runs of undecodable bytes.
	bad int
}

// seg is a run of characters of equal widths: from text offset t and
// byte offset b, each character is tw bytes of text decoded from bw bytes
// of the file; the run ends where the next one starts.
type seg struct {
	t, b   int
	tw, bw uint8
	// bad: the bytes did not decode; the text shows U+FFFD for each.
	bad bool
}

// NewView returns the view of a UTF-8 file's bytes. Text shares data's
// memory.
func NewView(data []byte) View {
	return Decode(data, nil)
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
// order mark of enc's family at the start is the prefix. For UTF-8 Text
// shares data's memory unless data has invalid bytes.
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
	case kindUTF16LE, kindUTF16BE:
		v.decodeUTF16(data)
	case kindUTF32LE, kindUTF32BE:
		v.decodeUTF32(data)
	}
	return v
}

// Undecodable reports how many runs of the file's bytes did not decode.
func (v View) Undecodable() int { return v.bad }

// builder accumulates a view's text and segments.
type builder struct {
	text []byte
	segs []seg
	b    int // bytes consumed
	bad  int
}

// add records one character of tw text bytes (already appended) decoded
// from bw file bytes.
func (d *builder) add(tw, bw int, bad bool) {
	t := len(d.text) - tw
	if n := len(d.segs); n == 0 || d.segs[n-1].tw != uint8(tw) || d.segs[n-1].bw != uint8(bw) || d.segs[n-1].bad != bad {
		d.segs = append(d.segs, seg{t: t, b: d.b, tw: uint8(tw), bw: uint8(bw), bad: bad})
		if bad {
			d.bad++
		}
	}
	d.b += bw
}

// run records n characters of one byte each, mapped to themselves.
func (d *builder) run(n int) {
	if n == 0 {
		return
	}
	if k := len(d.segs); k == 0 || d.segs[k-1].tw != 1 || d.segs[k-1].bw != 1 || d.segs[k-1].bad {
		d.segs = append(d.segs, seg{t: len(d.text) - n, b: d.b, tw: 1, bw: 1})
	}
	d.b += n
}

const replacement = "\uFFFD"

func (v *View) finish(d *builder) {
	v.Text, v.segs, v.bad = d.text, d.segs, d.bad
	if v.segs == nil {
		v.segs = []seg{{tw: 1, bw: 1}}
	}
}

func (v *View) decodeUTF8(data []byte) {
	d := &builder{text: make([]byte, 0, len(data)+len(data)/8)}
	for i := 0; i < len(data); {
		j := i
		for j < len(data) {
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
		d.text = append(d.text, data[i:j]...)
		d.run(j - i)
		if j < len(data) {
			d.text = append(d.text, replacement...)
			d.add(len(replacement), 1, true)
			j++
		}
		i = j
	}
	v.finish(d)
}

func (v *View) decodeSingle(data []byte) {
	cm := v.Encoding.cm
	var table [256]rune
	for i := range table {
		table[i] = cm.DecodeByte(byte(i))
	}
	d := &builder{text: make([]byte, 0, len(data)+len(data)/4)}
	ascii := v.Encoding.ascii
	for i := 0; i < len(data); {
		if ascii && data[i] < utf8.RuneSelf {
			j := i + 1
			for j < len(data) && data[j] < utf8.RuneSelf {
				j++
			}
			d.text = append(d.text, data[i:j]...)
			d.run(j - i)
			i = j
			continue
		}
		r := table[data[i]]
		n := len(d.text)
		d.text = utf8.AppendRune(d.text, r)
		d.add(len(d.text)-n, 1, r == utf8.RuneError)
		i++
	}
	v.finish(d)
}

func (v *View) decodeMulti(data []byte) {
	enc := v.Encoding
	dec := enc.mb.NewDecoder()
	d := &builder{text: make([]byte, 0, len(data)+len(data)/2)}
	var buf [16]byte
	for i := 0; i < len(data); {
		if data[i] < utf8.RuneSelf {
			j := i + 1
			for j < len(data) && data[j] < utf8.RuneSelf {
				j++
			}
			d.text = append(d.text, data[i:j]...)
			d.run(j - i)
			i = j
			continue
		}
		// One character: the shortest prefix the decoder consumes.
		nDst, nSrc := 0, 0
		for n := 1; n <= 4 && i+n <= len(data); n++ {
			dec.Reset()
			var err error
			nDst, nSrc, err = dec.Transform(buf[:], data[i:i+n], i+n == len(data) || n == 4)
			if nSrc > 0 || err != transform.ErrShortSrc {
				break
			}
		}
		if nSrc == 0 {
			// Nothing decodes here: one undecodable byte.
			d.text = append(d.text, replacement...)
			d.add(len(replacement), 1, true)
			i++
			continue
		}
		out := buf[:nDst]
		if r, n := utf8.DecodeRune(out); n < len(out) && bytes.ContainsRune(out, utf8.RuneError) || r == utf8.RuneError && n == len(out) && !enc.encodesAs(replacement, data[i:i+nSrc]) {
			// The decoder gave up here (and perhaps decoded what followed
			// the first byte): one undecodable run, then decode on.
			bw := 1
			if n == len(out) {
				bw = nSrc
			}
			d.text = append(d.text, replacement...)
			d.add(len(replacement), bw, true)
			i += bw
			continue
		}
		d.text = append(d.text, out...)
		d.add(nDst, nSrc, false)
		i += nSrc
	}
	v.finish(d)
}

// encodesAs reports whether s encodes to b (GB18030 encodes U+FFFD).
func (e *Encoding) encodesAs(s string, b []byte) bool {
	out, _, ok := e.appendEncoded(nil, s)
	return ok && bytes.Equal(out, b)
}

func (v *View) decodeUTF16(data []byte) {
	le := v.Encoding.kind == kindUTF16LE
	unit := func(i int) rune {
		if le {
			return rune(data[i]) | rune(data[i+1])<<8
		}
		return rune(data[i])<<8 | rune(data[i+1])
	}
	d := &builder{text: make([]byte, 0, len(data)/2+len(data)/8)}
	for i := 0; i < len(data); {
		if i+2 > len(data) {
			d.text = append(d.text, replacement...)
			d.add(len(replacement), 1, true)
			break
		}
		r, n := unit(i), 2
		switch {
		case r >= 0xD800 && r < 0xDC00 && i+4 <= len(data):
			if r2 := unit(i + 2); r2 >= 0xDC00 && r2 < 0xE000 {
				r, n = 0x10000+(r-0xD800)<<10+(r2-0xDC00), 4
			} else {
				r = utf8.RuneError
			}
		case r >= 0xD800 && r < 0xE000:
			r = utf8.RuneError
		}
		k := len(d.text)
		d.text = utf8.AppendRune(d.text, r)
		// A real U+FFFD (FFFD in the file) decodes; a lone surrogate does not.
		d.add(len(d.text)-k, n, r == utf8.RuneError && unit(i) != 0xFFFD)
		i += n
	}
	v.finish(d)
}

func (v *View) decodeUTF32(data []byte) {
	le := v.Encoding.kind == kindUTF32LE
	d := &builder{text: make([]byte, 0, len(data)/4+len(data)/8)}
	for i := 0; i < len(data); {
		if i+4 > len(data) {
			d.text = append(d.text, replacement...)
			d.add(len(replacement), len(data)-i, true)
			break
		}
		var u uint32
		if le {
			u = uint32(data[i]) | uint32(data[i+1])<<8 | uint32(data[i+2])<<16 | uint32(data[i+3])<<24
		} else {
			u = uint32(data[i])<<24 | uint32(data[i+1])<<16 | uint32(data[i+2])<<8 | uint32(data[i+3])
		}
		r := rune(u)
		bad := u > utf8.MaxRune || u >= 0xD800 && u < 0xE000
		if bad {
			r = utf8.RuneError
		}
		k := len(d.text)
		d.text = utf8.AppendRune(d.text, r)
		d.add(len(d.text)-k, 4, bad)
		i += 4
	}
	v.finish(d)
}

// byteOf maps a text offset to the byte offset after the prefix; ok is
// false when off falls inside a character. i is the index of its run.
func (v View) byteOf(off int) (b, i int, ok bool) {
	if v.segs == nil {
		return off, 0, true
	}
	i = sort.Search(len(v.segs), func(k int) bool { return v.segs[k].t > off }) - 1
	s := v.segs[i]
	d := off - s.t
	if d%int(s.tw) != 0 {
		return 0, i, false
	}
	return s.b + d/int(s.tw)*int(s.bw), i, true
}

// touchesBad returns the text offset of the first undecodable run that
// [start, end) overlaps, or -1. i is the run of start.
func (v View) touchesBad(start, end, i int) int {
	for ; i < len(v.segs) && v.segs[i].t < end; i++ {
		s := v.segs[i]
		next := len(v.Text)
		if i+1 < len(v.segs) {
			next = v.segs[i+1].t
		}
		if s.bad && next > start {
			return max(s.t, start)
		}
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
		if v.segs != nil {
			s, si, ok1 := v.byteOf(c.Start)
			e, _, ok2 := v.byteOf(c.End)
			if !ok1 || !ok2 {
				return nil, &Error{Code: CodeInvalid, Edit: c.Edit, Msg: fmt.Sprintf("%s splits a character of the file (text offset %d)", orChange(c.Label()), c.Start)}
			}
			if v.bad > 0 {
				if at := v.touchesBad(c.Start, c.End, si); at >= 0 && c.End > c.Start {
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

// DecodeBytes returns the text of other content of the same file (an
// earlier version, the content on disk now) read through the view's
// encoding: for diffs and messages.
func (v View) DecodeBytes(data []byte) []byte {
	enc := v.Encoding
	if enc.IsUTF8() {
		return Decode(data, nil).Text
	}
	return Decode(data, enc).Text
}
