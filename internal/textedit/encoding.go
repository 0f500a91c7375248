package textedit

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// Encoding is a character encoding a file's text is stored in: how its
// bytes decode to the text formats see (a [View]) and how new text
// encodes back. Codecs are golang.org/x/text's; the character boundaries
// and the offset map are graft's own, so that every byte outside an
// edited range is kept as it was.
//
// The encodings graft edits: UTF-8; UTF-16 and UTF-32 in either byte
// order; every single-byte code page of x/text (ISO-8859-*, windows-125*,
// KOI8-R/U, IBM and Mac code pages); and the stateless multi-byte ones
// (Shift_JIS, EUC-JP, EUC-KR, GBK, GB18030, Big5). A stateful encoding
// (ISO-2022-JP, HZ-GB-2312, UTF-7), or one a .gitattributes file names
// that graft does not know ([UnsupportedEncoding]), is
// [Encoding.Unsupported]: such a file reads as UTF-8 would, and every
// change to it is refused.
type Encoding struct {
	name string
	kind encKind
	cm   *charmap.Charmap  // single-byte
	mb   encoding.Encoding // stateless multi-byte
	// bom is the byte order mark a new file in this encoding starts with
	// (nil: none).
	bom []byte
	// ascii: every byte below 0x80 is the ASCII character, alone.
	ascii bool
	// table is a single-byte encoding's bytes decoded (singleTable).
	once  *sync.Once
	table *[256]sbChar
}

type encKind uint8

const (
	kindUTF8 encKind = iota
	kindUTF16LE
	kindUTF16BE
	kindUTF32LE
	kindUTF32BE
	kindSingle
	kindMulti
	kindUnsupported
)

// The byte order marks, each with the encoding it marks.
var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
	bomUTF32LE = []byte{0xFF, 0xFE, 0, 0}
	bomUTF32BE = []byte{0, 0, 0xFE, 0xFF}
)

// UTF8 is UTF-8, the encoding of every file nothing says otherwise of.
var UTF8 = &Encoding{name: "UTF-8", kind: kindUTF8, ascii: true}

// Unknown is the encoding of a file that is not valid UTF-8 and that
// nothing names an encoding for: its valid UTF-8 reads as such, and its
// other bytes are undecodable (the text shows U+FFFD for each, and no
// change may touch them).
var Unknown = &Encoding{name: "unknown", kind: kindUTF8, ascii: true}

// UTF-16 and UTF-32 without a byte order mark, and with one for new files.
var (
	UTF16LE = &Encoding{name: "UTF-16LE", kind: kindUTF16LE}
	UTF16BE = &Encoding{name: "UTF-16BE", kind: kindUTF16BE}
	UTF32LE = &Encoding{name: "UTF-32LE", kind: kindUTF32LE}
	UTF32BE = &Encoding{name: "UTF-32BE", kind: kindUTF32BE}
)

// Name is the encoding's name as graft reports it: "UTF-8", "UTF-16LE",
// "windows-1252", "Shift_JIS", "unknown".
func (e *Encoding) Name() string {
	if e == nil {
		return UTF8.name
	}
	return e.name
}

func (e *Encoding) String() string { return e.Name() }

// Unsupported reports whether graft cannot write the encoding: a stateful
// one, or a name it does not know.
func (e *Encoding) Unsupported() bool { return e != nil && e.kind == kindUnsupported }

// IsUTF8 reports whether the encoding's text is the file's bytes: UTF-8,
// or the unknown encoding (read as UTF-8).
func (e *Encoding) IsUTF8() bool { return e == nil || e.kind == kindUTF8 }

// Wide reports whether the encoding is UTF-16 or UTF-32, whose text has
// NUL bytes: such a file is text, not binary.
func (e *Encoding) Wide() bool {
	return e != nil && e.kind >= kindUTF16LE && e.kind <= kindUTF32BE
}

// WithBOM returns the encoding with the byte order mark new files in it
// start with: "UTF-8 with BOM", "UTF-16LE with BOM". Existing files keep
// whatever mark they have.
func (e *Encoding) WithBOM() *Encoding {
	var bom []byte
	switch e.kind {
	case kindUTF8:
		bom = bomUTF8
	case kindUTF16LE:
		bom = bomUTF16LE
	case kindUTF16BE:
		bom = bomUTF16BE
	case kindUTF32LE:
		bom = bomUTF32LE
	case kindUTF32BE:
		bom = bomUTF32BE
	default:
		return e
	}
	c := *e
	c.bom = bom
	return &c
}

// BOM is the byte order mark a new file in the encoding starts with.
func (e *Encoding) BOM() []byte {
	if e == nil {
		return nil
	}
	return e.bom
}

// marks returns the byte order mark data starts with that belongs to the
// encoding's family (UTF-8's, UTF-16's, UTF-32's of the same byte order),
// or nil.
func (e *Encoding) mark(data []byte) []byte {
	var m []byte
	switch e.kind {
	case kindUTF8:
		m = bomUTF8
	case kindUTF16LE:
		if bytes.HasPrefix(data, bomUTF32LE) {
			return nil
		}
		m = bomUTF16LE
	case kindUTF16BE:
		m = bomUTF16BE
	case kindUTF32LE:
		m = bomUTF32LE
	case kindUTF32BE:
		m = bomUTF32BE
	default:
		return nil
	}
	if bytes.HasPrefix(data, m) {
		return data[:len(m)]
	}
	return nil
}

// SniffBOM returns the encoding data's byte order mark names (UTF-8,
// UTF-16 or UTF-32 of either byte order), or nil. FF FE 00 00 is read as
// UTF-32LE's mark, not as UTF-16LE's followed by a NUL.
func SniffBOM(data []byte) *Encoding {
	switch {
	case bytes.HasPrefix(data, bomUTF8):
		return UTF8.WithBOM()
	case bytes.HasPrefix(data, bomUTF32LE):
		return UTF32LE.WithBOM()
	case bytes.HasPrefix(data, bomUTF32BE):
		return UTF32BE.WithBOM()
	case bytes.HasPrefix(data, bomUTF16LE):
		return UTF16LE.WithBOM()
	case bytes.HasPrefix(data, bomUTF16BE):
		return UTF16BE.WithBOM()
	}
	return nil
}

// LookupEncoding returns the encoding a name means, as git's
// working-tree-encoding (iconv's names), .editorconfig's charset, a
// Python coding cookie, XML and HTML name them: case, "-", "_" and
// spaces do not matter ("latin1", "ISO-8859-1", "cp1252", "SHIFT-JIS",
// "sjis", "UTF-16LE-BOM"). A stateful encoding (ISO-2022-JP) comes back
// [Encoding.Unsupported]; a name graft does not know, nil.
func LookupEncoding(name string) *Encoding {
	key := normName(name)
	if key == "" {
		return nil
	}
	if e, ok := byName()[key]; ok {
		return e
	}
	// Other names x/text knows (IANA's and their aliases).
	if x, err := ianaindex.IANA.Encoding(name); err == nil && x != nil {
		if cm, ok := x.(*charmap.Charmap); ok {
			mime, _ := ianaindex.MIME.Name(x)
			if mime == "" {
				mime, _ = ianaindex.IANA.Name(x)
			}
			return single(mime, cm)
		}
		n, _ := ianaindex.IANA.Name(x)
		return UnsupportedEncoding(n)
	}
	return nil
}

// UnsupportedEncoding is an encoding graft cannot write, by name (one a
// .gitattributes file names that graft does not know): its files read as
// UTF-8 would, and every change to them is refused.
func UnsupportedEncoding(name string) *Encoding {
	return &Encoding{name: name, kind: kindUnsupported, ascii: true}
}

// normName folds a name for lookup.
func normName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(name)) {
		switch r {
		case '-', '_', ' ', '.', ':':
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func single(name string, cm *charmap.Charmap) *Encoding {
	e := &Encoding{name: name, kind: kindSingle, cm: cm, ascii: true, once: new(sync.Once)}
	for b := 0; b < 0x80; b++ {
		if cm.DecodeByte(byte(b)) != rune(b) {
			e.ascii = false
		}
	}
	return e
}

func multi(name string, x encoding.Encoding) *Encoding {
	return &Encoding{name: name, kind: kindMulti, mb: x, ascii: true}
}

// byName maps folded names to encodings: the common ones under every
// name git (iconv), editors and the declarations in files use. It is built
// at the first lookup, not at start-up: most processes never look a name
// up.
var byName = sync.OnceValue(encodingNames)

func encodingNames() map[string]*Encoding {
	byName := map[string]*Encoding{}
	alias := func(e *Encoding, names ...string) {
		for _, n := range names {
			byName[normName(n)] = e
		}
	}
	add := func(e *Encoding, names ...string) { alias(e, append(names, e.name)...) }
	add(UTF8, "utf8", "unicode-1-1-utf-8")
	alias(UTF8.WithBOM(), "utf-8-bom", "utf8bom", "utf-8-sig")
	add(UTF16LE, "utf16le", "ucs-2le", "unicodelittleunmarked")
	add(UTF16BE, "utf16be", "ucs-2be", "unicodebigunmarked")
	// UTF-16 and UTF-32 without a byte order named have a mark; new files
	// get the little-endian one, as glibc's iconv (so git) writes them.
	alias(UTF16LE.WithBOM(), "UTF-16", "utf16", "UTF-16LE-BOM", "ucs-2", "unicode")
	alias(UTF16BE.WithBOM(), "UTF-16BE-BOM")
	add(UTF32LE, "utf32le", "ucs-4le")
	add(UTF32BE, "utf32be", "ucs-4be")
	alias(UTF32LE.WithBOM(), "UTF-32", "utf32", "UTF-32LE-BOM", "ucs-4")
	alias(UTF32BE.WithBOM(), "UTF-32BE-BOM")

	add(single("ISO-8859-1", charmap.ISO8859_1), "latin1", "l1", "iso8859-1", "iso-ir-100", "ibm819", "cp819", "csisolatin1")
	add(single("ISO-8859-2", charmap.ISO8859_2), "latin2", "l2", "iso8859-2", "iso-ir-101", "csisolatin2")
	add(single("ISO-8859-3", charmap.ISO8859_3), "latin3", "l3")
	add(single("ISO-8859-4", charmap.ISO8859_4), "latin4", "l4")
	add(single("ISO-8859-5", charmap.ISO8859_5), "cyrillic")
	add(single("ISO-8859-6", charmap.ISO8859_6), "arabic")
	add(single("ISO-8859-7", charmap.ISO8859_7), "greek")
	add(single("ISO-8859-8", charmap.ISO8859_8), "hebrew")
	add(single("ISO-8859-9", charmap.ISO8859_9), "latin5", "l5")
	add(single("ISO-8859-10", charmap.ISO8859_10), "latin6", "l6")
	add(single("ISO-8859-13", charmap.ISO8859_13), "latin7", "l7")
	add(single("ISO-8859-14", charmap.ISO8859_14), "latin8", "l8")
	add(single("ISO-8859-15", charmap.ISO8859_15), "latin9", "latin-9", "l9")
	add(single("ISO-8859-16", charmap.ISO8859_16), "latin10", "l10")
	for i, cm := range []*charmap.Charmap{charmap.Windows1250, charmap.Windows1251, charmap.Windows1252,
		charmap.Windows1253, charmap.Windows1254, charmap.Windows1255, charmap.Windows1256,
		charmap.Windows1257, charmap.Windows1258} {
		n := "125" + string(rune('0'+i))
		add(single("windows-"+n, cm), "cp"+n, "win"+n, "ms"+n, "x-cp"+n)
	}
	add(single("KOI8-R", charmap.KOI8R), "koi8r", "koi8")
	add(single("KOI8-U", charmap.KOI8U), "koi8u")
	add(single("IBM437", charmap.CodePage437), "cp437", "437")
	add(single("IBM850", charmap.CodePage850), "cp850", "850")
	add(single("IBM852", charmap.CodePage852), "cp852", "852")
	add(single("IBM855", charmap.CodePage855), "cp855")
	add(single("IBM866", charmap.CodePage866), "cp866", "866")
	add(single("macintosh", charmap.Macintosh), "mac", "macroman", "x-mac-roman")
	add(single("windows-874", charmap.Windows874), "cp874", "tis-620", "tis620")

	add(multi("Shift_JIS", japanese.ShiftJIS), "shift-jis", "sjis", "ms_kanji", "cp932", "windows-31j", "ms932", "x-sjis", "csshiftjis")
	add(multi("EUC-JP", japanese.EUCJP), "eucjp", "ujis", "x-euc-jp", "cseucpkdfmtjapanese")
	add(multi("EUC-KR", korean.EUCKR), "euckr", "cp949", "uhc", "ks_c_5601-1987", "windows-949", "ksc5601", "csksc56011987")
	add(multi("GBK", simplifiedchinese.GBK), "cp936", "ms936", "windows-936", "gb2312", "euc-cn", "euccn", "csgb2312", "chinese", "x-gbk")
	add(multi("GB18030", simplifiedchinese.GB18030), "gb-18030")
	add(multi("Big5", traditionalchinese.Big5), "big-5", "cp950", "big5-hkscs", "x-x-big5", "csbig5", "cn-big5")
	for _, n := range []string{"ISO-2022-JP", "HZ-GB-2312", "UTF-7", "ISO-2022-KR", "ISO-2022-CN"} {
		add(UnsupportedEncoding(n))
	}
	return byName
}

// appendEncoded appends s, valid UTF-8, in the encoding to out. When the
// encoding cannot represent one of its characters, it returns that
// character and ok false.
func (e *Encoding) appendEncoded(out []byte, s string) (_ []byte, bad rune, ok bool) {
	switch e.kind {
	case kindUTF8:
		return append(out, s...), 0, true
	case kindSingle:
		for _, r := range s {
			b, ok := e.cm.EncodeRune(r)
			if !ok {
				return out, r, false
			}
			out = append(out, b)
		}
		return out, 0, true
	case kindMulti:
		if e.ascii && isASCII(s) {
			return append(out, s...), 0, true
		}
		if b, err := e.mb.NewEncoder().String(s); err == nil {
			return append(out, b...), 0, true
		}
		enc := e.mb.NewEncoder()
		for i, r := range s {
			if _, err := enc.String(s[i : i+utf8.RuneLen(r)]); err != nil {
				return out, r, false
			}
		}
		return out, 0, false
	case kindUTF16LE, kindUTF16BE:
		for _, r := range s {
			if r >= 0x10000 {
				r -= 0x10000
				out = e.unit16(out, 0xD800+(r>>10))
				r = 0xDC00 + r&0x3FF
			}
			out = e.unit16(out, r)
		}
		return out, 0, true
	case kindUTF32LE, kindUTF32BE:
		for _, r := range s {
			if e.kind == kindUTF32LE {
				out = append(out, byte(r), byte(r>>8), byte(r>>16), 0)
			} else {
				out = append(out, 0, byte(r>>16), byte(r>>8), byte(r))
			}
		}
		return out, 0, true
	}
	return out, 0, false
}

func (e *Encoding) unit16(out []byte, u rune) []byte {
	if e.kind == kindUTF16LE {
		return append(out, byte(u), byte(u>>8))
	}
	return append(out, byte(u>>8), byte(u))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// EncodeText returns s in the encoding, or an error naming the first
// character it cannot represent.
func (e *Encoding) EncodeText(s string) ([]byte, error) {
	v := View{Encoding: e}
	if e.IsUTF8() {
		return []byte(s), nil
	}
	return v.Encode([]byte(s))
}
