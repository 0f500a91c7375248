package textedit

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// replaceIn edits data, a file in enc, as a format would: old is found in
// the view's text and replaced by new, through the view's mapping.
func replaceIn(t *testing.T, data []byte, enc *Encoding, old, new string) ([]byte, error) {
	t.Helper()
	v := Decode(data, enc)
	i := bytes.Index(v.Text, []byte(old))
	if i < 0 {
		t.Fatalf("%q not in the text %q", old, v.Text)
	}
	cs, err := v.Bytes([]Change{{Start: i, End: i + len(old), New: new, Edit: "e"}})
	if err != nil {
		return nil, err
	}
	return Splice(data, cs)
}

// Every byte 0x80-0xFF of an 8-bit file survives an edit of another line,
// and each decodes to what the code page says.
func TestSingleByteRoundTrip(t *testing.T) {
	for _, name := range []string{"windows-1252", "ISO-8859-1", "ISO-8859-2", "windows-1251", "KOI8-R", "windows-1250", "IBM437"} {
		t.Run(name, func(t *testing.T) {
			enc := LookupEncoding(name)
			if enc.kind != kindSingle {
				t.Fatalf("%s is not single-byte", name)
			}
			var high []byte
			for b := 0x80; b <= 0xFF; b++ {
				high = append(high, byte(b))
			}
			data := []byte("first line\n" + string(high) + "\nlast line\n")
			v := Decode(data, enc)
			line2 := strings.Split(string(v.Text), "\n")[1]
			i := 0
			for _, r := range line2 {
				if want := enc.cm.DecodeByte(high[i]); r != want {
					t.Fatalf("byte %#x decodes to %U, want %U", high[i], r, want)
				}
				i++
			}
			got, err := replaceIn(t, data, enc, "last line", "LAST line")
			if err != nil {
				t.Fatal(err)
			}
			if want := bytes.Replace(data, []byte("last"), []byte("LAST"), 1); !bytes.Equal(got, want) {
				t.Fatalf("got %q\nwant %q", got, want)
			}
			// Replacing the line of every byte by itself, decoded, gives the
			// same bytes back where the code page defines them all.
			if v.Undecodable() == 0 {
				got, err := replaceIn(t, data, enc, line2, line2)
				if err != nil || !bytes.Equal(got, data) {
					t.Fatalf("re-encoding the decoded line: %q, %v", got, err)
				}
			}
		})
	}
}

func TestLatin1Cafe(t *testing.T) {
	enc := LookupEncoding("latin1")
	data := []byte("caf\xe9 = 1\nx = 2\n")
	if v := Decode(data, enc); string(v.Text) != "café = 1\nx = 2\n" {
		t.Fatalf("text %q", v.Text)
	}
	got, err := replaceIn(t, data, enc, "café = 1", "cafe = 1")
	if err != nil || string(got) != "cafe = 1\nx = 2\n" {
		t.Fatalf("got %q %v", got, err)
	}
	got, err = replaceIn(t, data, enc, "x = 2", "x = 'ü'")
	if err != nil || string(got) != "caf\xe9 = 1\nx = '\xfc'\n" {
		t.Fatalf("got %q %v", got, err)
	}
	_, err = replaceIn(t, data, enc, "x = 2", "x = '漢'")
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeInvalid || !strings.Contains(e.Msg, "U+6F22") || !strings.Contains(e.Msg, "ISO-8859-1") || e.Edit != "e" {
		t.Fatalf("got %v", err)
	}
}

func TestMultiByte(t *testing.T) {
	for _, tc := range []struct {
		name, text, word, other string
		unrepresentable         string
	}{
		{"Shift_JIS", "これは日本語の文です。\nx = 1\n半角ｶﾀｶﾅも\n", "日本語", "英語", "한"},
		{"EUC-JP", "これは日本語の文です。\nx = 1\n", "日本語", "英語", "한"},
		{"EUC-KR", "이것은 한국어 문장입니다.\nx = 1\n", "한국어", "영어", "ก"},
		{"GBK", "这是一个中文句子。\nx = 1\n", "中文", "英文", "ก"},
		{"GB18030", "这是一个中文句子。😀\nx = 1\n", "中文", "英文", ""},
		{"Big5", "這是一個中文句子。\nx = 1\n", "中文", "英文", "ก"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			enc := LookupEncoding(tc.name)
			data, _, ok := enc.appendEncoded(nil, tc.text)
			if !ok {
				t.Fatal("cannot encode the sample")
			}
			v := Decode(data, enc)
			if string(v.Text) != tc.text || v.Undecodable() != 0 {
				t.Fatalf("text %q (%d undecodable)", v.Text, v.Undecodable())
			}
			got, err := replaceIn(t, data, enc, tc.word, tc.other)
			if err != nil {
				t.Fatal(err)
			}
			if want, _, _ := enc.appendEncoded(nil, strings.Replace(tc.text, tc.word, tc.other, 1)); !bytes.Equal(got, want) {
				t.Fatalf("got %q want %q", got, want)
			}
			got, err = replaceIn(t, data, enc, "x = 1", "x = 2")
			if err != nil || !bytes.Equal(got, bytes.Replace(data, []byte("x = 1"), []byte("x = 2"), 1)) {
				t.Fatalf("got %q %v", got, err)
			}
			if tc.unrepresentable != "" {
				if _, err := replaceIn(t, data, enc, "x = 1", "x = "+tc.unrepresentable); err == nil || !strings.Contains(err.Error(), tc.name) {
					t.Fatalf("got %v", err)
				}
			}
			// Half a character is not an offset of the file.
			i := strings.Index(tc.text, tc.word) + 1
			if _, err := v.Bytes([]Change{{Start: i, End: i + 2}}); err == nil {
				t.Fatal("a change inside a character landed")
			}
		})
	}
}

// The x/text decoders agree with the view's text on their own test files,
// and an edit of the first line keeps every other byte.
func TestMultiByteAgreesWithXText(t *testing.T) {
	for _, tc := range []struct {
		enc  *Encoding
		data func(string) []byte
	}{
		{LookupEncoding("Shift_JIS"), func(s string) []byte { return must(japanese.ShiftJIS.NewEncoder().Bytes([]byte(s))) }},
		{LookupEncoding("EUC-JP"), func(s string) []byte { return must(japanese.EUCJP.NewEncoder().Bytes([]byte(s))) }},
		{LookupEncoding("EUC-KR"), func(s string) []byte { return must(korean.EUCKR.NewEncoder().Bytes([]byte(s))) }},
		{LookupEncoding("GB18030"), func(s string) []byte { return must(simplifiedchinese.GB18030.NewEncoder().Bytes([]byte(s))) }},
		{LookupEncoding("Big5"), func(s string) []byte { return must(traditionalchinese.Big5.NewEncoder().Bytes([]byte(s))) }},
		{LookupEncoding("windows-1251"), func(s string) []byte { return must(charmap.Windows1251.NewEncoder().Bytes([]byte(s))) }},
	} {
		text := "首行 first\n"
		switch tc.enc.Name() {
		case "EUC-KR":
			text = "첫 줄 first\n"
		case "windows-1251":
			text = "Первая строка first\n"
		case "Big5":
			text = "首行 first\n"
		}
		text += "second ｱ line\n"
		if tc.enc.Name() == "EUC-KR" || tc.enc.Name() == "Big5" || tc.enc.Name() == "windows-1251" {
			text = strings.Replace(text, "ｱ", "-", 1)
		}
		data := tc.data(text)
		v := Decode(data, tc.enc)
		if string(v.Text) != text {
			t.Errorf("%s: text %q, want %q", tc.enc, v.Text, text)
		}
	}
}

func TestUTF16AndUTF32(t *testing.T) {
	text := "Line one\nΩ second 😀\nthird\n"
	for _, name := range []string{"UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"} {
		t.Run(name, func(t *testing.T) {
			enc := LookupEncoding(name).WithBOM()
			body, _, _ := enc.appendEncoded(nil, text)
			data := append(append([]byte(nil), enc.BOM()...), body...)
			if got := SniffBOM(data); got.Name() != name {
				t.Fatalf("sniffed %v", got)
			}
			v := Decode(data, SniffBOM(data))
			if string(v.Text) != text || len(v.Prefix) != len(enc.BOM()) {
				t.Fatalf("text %q prefix %q", v.Text, v.Prefix)
			}
			got, err := replaceIn(t, data, enc, "second 😀", "2nd 🙂")
			if err != nil {
				t.Fatal(err)
			}
			wantBody, _, _ := enc.appendEncoded(nil, strings.Replace(text, "second 😀", "2nd 🙂", 1))
			if want := append(append([]byte(nil), enc.BOM()...), wantBody...); !bytes.Equal(got, want) {
				t.Fatalf("got %x\nwant %x", got, want)
			}
			// The whole file overwritten keeps the mark.
			out, err := v.Encode([]byte("\uFEFFnew\n"))
			if wantBody, _, _ := enc.appendEncoded(append([]byte(nil), enc.BOM()...), "new\n"); err != nil || !bytes.Equal(out, wantBody) {
				t.Fatalf("encode %x %v", out, err)
			}
		})
	}
	// A lone surrogate is undecodable: changes elsewhere land.
	data := []byte("\xff\xfea\x00\x00\xd8\n\x00b\x00")
	v := Decode(data, SniffBOM(data))
	if string(v.Text) != "a\uFFFD\nb" || v.Undecodable() != 1 {
		t.Fatalf("text %q", v.Text)
	}
	if _, err := replaceIn(t, data, SniffBOM(data), "a\uFFFD", "x"); err == nil {
		t.Fatal("a change of a lone surrogate landed")
	}
	got, err := replaceIn(t, data, SniffBOM(data), "b", "c")
	if err != nil || string(got) != "\xff\xfea\x00\x00\xd8\n\x00c\x00" {
		t.Fatalf("got %q %v", got, err)
	}
}

// A file in an encoding nobody named: its UTF-8 reads as such, its other
// bytes show as U+FFFD; changes that touch them are refused with how to
// declare the encoding, others land byte for byte.
func TestUnknownEncoding(t *testing.T) {
	data := []byte("caf\xe9 = 1\nx = 2\ny = 'é'\n")
	v := Decode(data, Unknown)
	if string(v.Text) != "caf\uFFFD = 1\nx = 2\ny = 'é'\n" || v.Undecodable() != 1 {
		t.Fatalf("text %q", v.Text)
	}
	_, err := replaceIn(t, data, Unknown, "caf\uFFFD = 1", "cafe = 1")
	if err == nil || !strings.Contains(err.Error(), "working-tree-encoding") || !strings.Contains(err.Error(), "line 1") || !strings.Contains(err.Error(), ".editorconfig") {
		t.Fatalf("got %v", err)
	}
	got, err := replaceIn(t, data, Unknown, "x = 2", "x = '漢'")
	if err != nil || string(got) != "caf\xe9 = 1\nx = '漢'\ny = 'é'\n" {
		t.Fatalf("got %q %v", got, err)
	}
	// An insertion beside the byte does not touch it.
	cs, err := v.Bytes([]Change{{Start: 3, End: 3, New: "e"}})
	if err != nil || cs[0].Start != 3 {
		t.Fatalf("%v %v", cs, err)
	}
	cs, err = v.Bytes([]Change{{Start: 6, End: 6, New: "e"}})
	if err != nil || cs[0].Start != 4 {
		t.Fatalf("%v %v", cs, err)
	}
}

// An EUC-JP file with UTF-8 written into it by another tool: the UTF-8
// bytes that do not decode make changes touching them refused; others
// land. (Shift_JIS decodes most UTF-8 without an error, as mojibake: only
// a declared or detected encoding tells those apart.)
func TestMixedEncodings(t *testing.T) {
	enc := LookupEncoding("EUC-JP")
	sjis, _, _ := enc.appendEncoded(nil, "一行目\n")
	data := append(append(sjis, "二行目 is \xe6\xbc\xa2\n"...), sjis...)
	data = append(data, "x\n"...)
	v := Decode(data, enc)
	if v.Undecodable() == 0 {
		t.Fatalf("no undecodable bytes in %q", v.Text)
	}
	lines := strings.Split(string(v.Text), "\n")
	if _, err := replaceIn(t, data, enc, lines[1], "2"); err == nil || !strings.Contains(err.Error(), "not valid EUC-JP") {
		t.Fatalf("got %v", err)
	}
	got, err := replaceIn(t, data, enc, "x\n", "y\n")
	if err != nil || !bytes.Equal(got, append(data[:len(data)-2:len(data)-2], "y\n"...)) {
		t.Fatalf("got %q %v", got, err)
	}
}

func TestUnsupportedEncoding(t *testing.T) {
	enc := LookupEncoding("ISO-2022-JP")
	if !enc.Unsupported() {
		t.Fatal("ISO-2022-JP is stateful")
	}
	if e := LookupEncoding("no-such-encoding"); e != nil {
		t.Fatalf("%v", e)
	}
	if _, err := replaceIn(t, []byte("abc\n"), enc, "b", "x"); err == nil || !strings.Contains(err.Error(), "cannot write") {
		t.Fatalf("got %v", err)
	}
}

func TestLookupEncoding(t *testing.T) {
	for name, want := range map[string]string{
		"latin1": "ISO-8859-1", "ISO8859-1": "ISO-8859-1", "CP1252": "windows-1252", "SHIFT-JIS": "Shift_JIS",
		"sjis": "Shift_JIS", "utf-16le-bom": "UTF-16LE", "UTF-16": "UTF-16LE", "utf-16be": "UTF-16BE",
		"EUC-JP": "EUC-JP", "gb2312": "GBK", "BIG5": "Big5", "koi8-r": "KOI8-R", "latin2": "ISO-8859-2",
		"utf-8": "UTF-8", "UTF8": "UTF-8", "IBM037": "IBM037",
	} {
		if got := LookupEncoding(name); got.Name() != want || got.Unsupported() {
			t.Errorf("%s: %v, want %s", name, got, want)
		}
	}
	if len(LookupEncoding("UTF-16").BOM()) != 2 || LookupEncoding("UTF-16LE").BOM() != nil {
		t.Error("UTF-16 has a mark, UTF-16LE none")
	}
	// EBCDIC: no byte is ASCII, and it still maps byte for byte.
	ebcdic := LookupEncoding("IBM037")
	data := must(charmap.CodePage037.NewEncoder().Bytes([]byte("Hello\nWorld\n")))
	got, err := replaceIn(t, data, ebcdic, "World", "Earth")
	if err != nil || !bytes.Equal(got, must(charmap.CodePage037.NewEncoder().Bytes([]byte("Hello\nEarth\n")))) {
		t.Fatalf("got %q %v", got, err)
	}
}

// On big files (many marks) with undecodable bytes here and there, any
// change at character boundaries that leaves those bytes alone gives a
// file that decodes to the changed text, and keeps every other byte.
func TestViewChangesRandom(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for _, tc := range []string{"windows-1252", "KOI8-R", "Shift_JIS", "EUC-JP", "GB18030", "Big5", "EUC-KR", "UTF-16LE", "UTF-16BE", "UTF-32LE", "unknown"} {
		for _, dirty := range []bool{false, true} {
			name := tc
			t.Run(fmt.Sprint(name, dirty), func(t *testing.T) {
				enc := LookupEncoding(name)
				if name == "unknown" {
					enc = Unknown
				}
				pool := []rune("abc xyz\n\té€ÿжЯ日本語かなカナ中文說明한국어ｱ😀")
				var data []byte
				for data == nil || len(data) < 40<<10 {
					var b strings.Builder
					for i := 0; i < 200; i++ {
						b.WriteRune(pool[r.Intn(len(pool))])
					}
					s := strings.Map(func(c rune) rune {
						if out, _, ok := enc.appendEncoded(nil, string(c)); ok && len(out) > 0 {
							return c
						}
						return 'q'
					}, b.String())
					chunk, _, _ := enc.appendEncoded(nil, s)
					data = append(data, chunk...)
					if dirty && r.Intn(4) == 0 {
						data = append(data, byte(0x80+r.Intn(0x80))) // maybe undecodable
					}
				}
				v := Decode(data, enc)
				if len(v.marks) < 5 && !utf8.Valid(data) {
					t.Fatalf("%d marks", len(v.marks))
				}
				for trial := 0; trial < 300; trial++ {
					a, b := r.Intn(len(v.Text)+1), r.Intn(len(v.Text)+1)
					if a > b {
						a, b = b, a
					}
					if b-a > 200 {
						b = a + r.Intn(200)
					}
					for a > 0 && !utf8.RuneStart(v.Text[a]) {
						a--
					}
					for b < len(v.Text) && !utf8.RuneStart(v.Text[b]) {
						b++
					}
					newText := string(pool[r.Intn(len(pool))])
					if _, _, ok := enc.appendEncoded(nil, newText); !ok {
						newText = "z"
					}
					want := must(Splice(v.Text, []Change{{Start: a, End: b, New: newText}}))
					cs, err := v.Bytes([]Change{{Start: a, End: b, New: newText}})
					if err != nil {
						if !strings.Contains(err.Error(), "splits") && !strings.Contains(err.Error(), "touches") {
							t.Fatal(err)
						}
						continue
					}
					got := must(Splice(data, cs))
					if !bytes.Equal(got[:cs[0].Start], data[:cs[0].Start]) || !bytes.Equal(got[len(got)-(len(data)-cs[0].End):], data[cs[0].End:]) {
						t.Fatal("bytes outside the change differ")
					}
					near := false
					for _, x := range v.bads {
						near = near || x.b+x.bw+8 > cs[0].Start && x.b < cs[0].End+8
					}
					if !near && !bytes.Equal(Decode(got, enc).Text, want) {
						t.Fatalf("change [%d,%d) %q: the file no longer reads as the changed text", a, b, newText)
					}
				}
			})
		}
	}
}
