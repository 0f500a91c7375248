package apply_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"

	"github.com/graftdev/graft/apply"
)

// sample is a text of our own in one language, the word an edit replaces
// and its replacement, and a character the encoding has no bytes for.
type sample struct {
	enc             string
	codec           encoding.Encoding
	text, old, new  string
	unrepresentable string
	eightBit        bool
	gitName         string // the name git (iconv) knows it by
}

var samples = []sample{
	{enc: "windows-1252", codec: charmap.Windows1252, eightBit: true, gitName: "CP1252",
		text: "# Paramètres de l'été\nprix = \"12 €\"  # coût « réduit »\nnaïve = Vrai\n", old: "coût", new: "côté", unrepresentable: "漢"},
	{enc: "ISO-8859-1", codec: charmap.ISO8859_1, eightBit: true, gitName: "ISO-8859-1",
		text: "# Größe der Straße\nmaß = 1  # für Müller\nende = 2\n", old: "Müller", new: "Jäger", unrepresentable: "€"},
	{enc: "ISO-8859-2", codec: charmap.ISO8859_2, eightBit: true, gitName: "ISO-8859-2",
		text: "# Zażółć gęślą jaźń\nłódź = 1  # Příliš žluťoučký kůň\nkoniec = 2\n", old: "kůň", new: "koń", unrepresentable: "ß€"[2:]},
	{enc: "windows-1251", codec: charmap.Windows1251, eightBit: true, gitName: "CP1251",
		text: "# Привет, мир\nзначение = 1  # съешь ещё этих булок\nконец = 2\n", old: "булок", new: "пирожков", unrepresentable: "漢"},
	{enc: "KOI8-R", codec: charmap.KOI8R, eightBit: true, gitName: "KOI8-R",
		text: "# Широкая электрификация\nзначение = 1  # южных губерний\nконец = 2\n", old: "губерний", new: "областей", unrepresentable: "є"},
	{enc: "Shift_JIS", codec: japanese.ShiftJIS, gitName: "SHIFT-JIS",
		text: "# 設定ファイルの説明\n値 = 1  # いろはにほへと ﾊﾝｶｸ\n終わり = 2\n", old: "いろは", new: "ちりぬ", unrepresentable: "한"},
	{enc: "EUC-JP", codec: japanese.EUCJP, gitName: "EUC-JP",
		text: "# 設定ファイルの説明\n値 = 1  # 吾輩は猫である\n終わり = 2\n", old: "猫", new: "犬", unrepresentable: "한"},
	{enc: "GBK", codec: simplifiedchinese.GBK, gitName: "GBK",
		text: "# 配置文件说明\n数值 = 1  # 中文注释内容\n结束 = 2\n", old: "注释", new: "解释", unrepresentable: "한"},
	{enc: "GB18030", codec: simplifiedchinese.GB18030, gitName: "GB18030",
		text: "# 配置文件说明 ㄅ\n数值 = 1  # 中文注释内容\n结束 = 2\n", old: "注释", new: "说明😀", unrepresentable: ""},
	{enc: "Big5", codec: traditionalchinese.Big5, gitName: "BIG5",
		text: "# 設定檔說明\n數值 = 1  # 繁體中文註解\n結束 = 2\n", old: "註解", new: "備註", unrepresentable: "한"},
	{enc: "EUC-KR", codec: korean.EUCKR, gitName: "EUC-KR",
		text: "# 설정 파일 설명\n값 = 1  # 다람쥐 헌 쳇바퀴에 타고파\n끝 = 2\n", old: "다람쥐", new: "고양이", unrepresentable: "ก"},
}

func encodeWith(t *testing.T, c encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := c.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encoding %q: %v", s, err)
	}
	return b
}

// Each encoding, named by a coding cookie on line 1 (as Python reads it,
// so git stores the bytes as they are): file_read shows the decoded text
// and names the encoding, an edit in the language lands in the file's own
// bytes, a character the encoding cannot represent is refused naming it,
// and every byte 0x80-0xFF of an 8-bit file survives an edit of another
// line.
func TestEncodingsEditedInTheirOwnEncoding(t *testing.T) {
	for _, s := range samples {
		t.Run(s.enc, func(t *testing.T) {
			dir := newRepo(t)
			text := "# -*- coding: " + s.enc + " -*-\n" + s.text
			data := encodeWith(t, s.codec, text)
			var high []byte
			if s.eightBit {
				for b := 0x80; b <= 0xFF; b++ {
					high = append(high, byte(b))
				}
				data = append(append(data, high...), '\n')
			}
			name := filepath.Join(dir, "f.py")
			writeFile(t, name, data)
			commitAll(t, dir)

			res, err := call(t, dir, "file_read", map[string]any{"path": "f.py", "end_line": 4})
			if err != nil {
				t.Fatal(err)
			}
			r := res.(*apply.FileReadResult)
			if r.Encoding != s.enc || r.EncodingFrom != "declared in the file" || !strings.Contains(r.Content, "3: "+strings.Split(s.text, "\n")[1]) {
				t.Fatalf("file_read: %+v", r)
			}
			if r.Version != strings.TrimSpace(git(t, dir, "hash-object", "f.py")) {
				t.Fatalf("version %s is not the blob of the file's bytes", r.Version)
			}

			res, err = call(t, dir, "edit", map[string]any{"filePath": "f.py", "oldString": s.old, "newString": s.new})
			if err != nil {
				t.Fatal(err)
			}
			want := encodeWith(t, s.codec, strings.Replace(text, s.old, s.new, 1))
			if s.eightBit {
				want = append(append(want, high...), '\n')
			}
			got, _ := os.ReadFile(name)
			if !bytes.Equal(got, want) {
				t.Fatalf("file is %q\nwant %q", got, want)
			}
			if d := res.(*apply.Landing).Files[0].Diff; !strings.Contains(d, "+"+strings.Replace(strings.Split(s.text, "\n")[1], s.old, s.new, 1)) {
				t.Fatalf("diff does not show the decoded text:\n%s", d)
			}
			// The journal stores the bytes as they are (no attribute).
			if j := git(t, dir, "show", "refs/graft/main:f.py"); j != string(want) {
				t.Fatalf("journal %q", j)
			}

			// The last line (every byte) is kept by an edit of line 4.
			last := strings.Split(s.text, "\n")[2]
			if _, err := call(t, dir, "edit_lines", map[string]any{"command": "replace", "path": "f.py", "start_line": 4, "new_content": last + " # ok"}); err != nil {
				t.Fatal(err)
			}
			got, _ = os.ReadFile(name)
			want = bytes.Replace(want, encodeWith(t, s.codec, last+"\n"), encodeWith(t, s.codec, last+" # ok\n"), 1)
			if !bytes.Equal(got, want) {
				t.Fatalf("after edit_lines %q\nwant %q", got, want)
			}

			if s.unrepresentable != "" {
				_, err := call(t, dir, "edit", map[string]any{"filePath": "f.py", "oldString": s.new, "newString": s.unrepresentable})
				if apply.CodeOf(err) != apply.CodeInvalid || !strings.Contains(err.Error(), s.enc) || !strings.Contains(err.Error(), "U+") {
					t.Fatalf("unrepresentable %q: %v", s.unrepresentable, err)
				}
				if after, _ := os.ReadFile(name); !bytes.Equal(after, want) {
					t.Fatal("a refused edit changed the file")
				}
			}
		})
	}
}

// With git's working-tree-encoding, git is the oracle: the journal holds
// the UTF-8 that `git add` makes of the edited file (so `git diff` of the
// journal reads as text), the worktree the file's own encoding, and undo
// gives the bytes back.
func TestWorkingTreeEncodingJournal(t *testing.T) {
	for _, s := range samples {
		t.Run(s.enc, func(t *testing.T) {
			dir := newRepo(t)
			writeFile(t, filepath.Join(dir, ".gitattributes"), []byte("*.txt working-tree-encoding="+s.gitName+"\n"))
			name := filepath.Join(dir, "f.txt")
			before := encodeWith(t, s.codec, s.text)
			writeFile(t, name, before)
			commitAll(t, dir)
			if got := git(t, dir, "show", "HEAD:f.txt"); got != s.text {
				t.Fatalf("git stored %q: this git cannot convert %s", got, s.gitName)
			}
			res, err := call(t, dir, "file_read", map[string]any{"path": "f.txt"})
			if err != nil {
				t.Fatal(err)
			}
			if r := res.(*apply.FileReadResult); r.Encoding != s.enc || r.EncodingFrom != "from .gitattributes working-tree-encoding" {
				t.Fatalf("file_read: %+v", r)
			}
			if _, err := call(t, dir, "edit", map[string]any{"filePath": "f.txt", "oldString": s.old, "newString": s.new}); err != nil {
				t.Fatal(err)
			}
			after := encodeWith(t, s.codec, strings.Replace(s.text, s.old, s.new, 1))
			if got, _ := os.ReadFile(name); !bytes.Equal(got, after) {
				t.Fatalf("file %q\nwant %q", got, after)
			}
			journal := strings.TrimSpace(git(t, dir, "rev-parse", "refs/graft/main:f.txt"))
			if oracle := strings.TrimSpace(git(t, dir, "hash-object", "--path=f.txt", "f.txt")); journal != oracle {
				t.Fatalf("journal blob %s, git add would store %s", journal, oracle)
			}
			if diff := git(t, dir, "diff", "main", "refs/graft/main"); !strings.Contains(diff, "+"+strings.Replace(strings.Split(s.text, "\n")[1], s.old, s.new, 1)) {
				t.Fatalf("journal diff is not text:\n%s", diff)
			}
			if _, err := call(t, dir, "undo", map[string]any{}); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(name); !bytes.Equal(got, before) {
				t.Fatalf("after undo %q", got)
			}
		})
	}
}

// UTF-16 and UTF-32 files with a byte order mark are text: read, edited
// and written back in their encoding, mark kept; without an attribute the
// journal stores the bytes as they are, as git does.
func TestUTF16And32(t *testing.T) {
	text := "[Strings]\r\nTitle=Réglages ☃\r\nCount=1\r\n"
	for _, tc := range []struct {
		name  string
		codec encoding.Encoding
	}{
		{"UTF-16LE", unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)},
		{"UTF-16BE", unicode.UTF16(unicode.BigEndian, unicode.UseBOM)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			name := filepath.Join(dir, "app.rc")
			writeFile(t, name, encodeWith(t, tc.codec, text))
			commitAll(t, dir)
			res, err := call(t, dir, "file_read", map[string]any{"path": "app.rc"})
			if err != nil {
				t.Fatal(err)
			}
			if r := res.(*apply.FileReadResult); r.Encoding != tc.name || !r.BOM || r.LineEndings != "crlf" || !strings.Contains(r.Content, "2: Title=Réglages ☃\n") {
				t.Fatalf("file_read: %+v", r)
			}
			if _, err := call(t, dir, "edit", map[string]any{"filePath": "app.rc", "oldString": "Count=1\n", "newString": "Count=2\nName=名前\n"}); err != nil {
				t.Fatal(err)
			}
			want := encodeWith(t, tc.codec, "[Strings]\r\nTitle=Réglages ☃\r\nCount=2\r\nName=名前\r\n")
			if got, _ := os.ReadFile(name); !bytes.Equal(got, want) {
				t.Fatalf("file %x\nwant %x", got, want)
			}
			if j := git(t, dir, "show", "refs/graft/main:app.rc"); j != string(want) {
				t.Fatalf("journal %x", j)
			}
			// An overwrite keeps the mark.
			if _, err := call(t, dir, "edit_file", map[string]any{"target_file": "app.rc", "code_edit": "x=1\r\n", "overwrite": true}); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(name); !bytes.Equal(got, encodeWith(t, tc.codec, "x=1\r\n")) {
				t.Fatalf("after overwrite %x", got)
			}
		})
	}
	// UTF-32 too.
	dir := newRepo(t)
	u32 := append([]byte{0xFF, 0xFE, 0, 0}, []byte("a\x00\x00\x00\n\x00\x00\x00")...)
	writeFile(t, filepath.Join(dir, "u.txt"), u32)
	commitAll(t, dir)
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "u.txt", "oldString": "a", "newString": "é"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "u.txt")); string(got) != "\xff\xfe\x00\x00\xe9\x00\x00\x00\n\x00\x00\x00" {
		t.Fatalf("UTF-32: %x", got)
	}
}

// A new file is UTF-8 unless its attribute or .editorconfig names another
// encoding; then it is written in that one (git agreeing for the
// attribute).
func TestNewFileEncoding(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, ".gitattributes"), []byte("*.rc working-tree-encoding=UTF-16LE-BOM\n"))
	writeFile(t, filepath.Join(dir, ".editorconfig"), []byte("root = true\n[*.ini]\ncharset = latin1\n[*.cfg]\ncharset = utf-16be\n"))
	commitAll(t, dir)
	for _, tc := range []struct{ path, want string }{
		{"new.rc", "\xff\xfeT\x00=\x00\xe9\x00\n\x00"},
		{"new.ini", "T=\xe9\n"},
		{"new.cfg", "\xfe\xff\x00T\x00=\x00\xe9\x00\n"},
		{"new.txt", "T=é\n"},
	} {
		if _, err := call(t, dir, "edit", map[string]any{"filePath": tc.path, "oldString": "", "newString": "T=é\n"}); err != nil {
			t.Fatal(tc.path, err)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, tc.path)); string(got) != tc.want {
			t.Fatalf("%s: %q, want %q", tc.path, got, tc.want)
		}
	}
	journal := strings.TrimSpace(git(t, dir, "rev-parse", "refs/graft/main:new.rc"))
	if oracle := strings.TrimSpace(git(t, dir, "hash-object", "--path=new.rc", "new.rc")); journal != oracle {
		t.Fatalf("journal blob %s, git add would store %s", journal, oracle)
	}
	// A character latin1 cannot hold: refused, nothing created.
	_, err := call(t, dir, "edit", map[string]any{"filePath": "other.ini", "oldString": "", "newString": "x = '漢'\n"})
	if apply.CodeOf(err) != apply.CodeInvalid || !strings.Contains(err.Error(), "ISO-8859-1") || !strings.Contains(err.Error(), "U+6F22") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "other.ini")); err == nil {
		t.Fatal("a refused creation wrote the file")
	}
}

// The reproduction, with the encoding named by .editorconfig
// (latin1): the accented old text is found, and adding '漢' is refused
// instead of writing UTF-8 into a Latin-1 file.
func TestLatin1Reproduction(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, ".editorconfig"), []byte("[*.py]\ncharset = latin1\n"))
	name := filepath.Join(dir, "m.py")
	writeFile(t, name, []byte("caf\xe9 = 1\nx = 2\n"))
	commitAll(t, dir)
	res, err := call(t, dir, "file_read", map[string]any{"path": "m.py"})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.(*apply.FileReadResult); r.Content != "1: café = 1\n2: x = 2\n" || r.Encoding != "ISO-8859-1" {
		t.Fatalf("file_read %+v", r)
	}
	_, err = call(t, dir, "edit", map[string]any{"filePath": "m.py", "oldString": "x = 2", "newString": "x = '漢'"})
	if apply.CodeOf(err) != apply.CodeInvalid || !strings.Contains(err.Error(), "'漢' (U+6F22)") || !strings.Contains(err.Error(), "ISO-8859-1") {
		t.Fatalf("got %v", err)
	}
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "m.py", "oldString": "café = 1", "newString": "cafe = 1"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); string(got) != "cafe = 1\nx = 2\n" {
		t.Fatalf("file %q", got)
	}
}

// A file in two encodings (EUC-JP with UTF-8 pasted in by another tool):
// edits touching the bytes that do not decode are refused, others land
// byte for byte.
func TestMixedEncodingFile(t *testing.T) {
	dir := newRepo(t)
	data := encodeWith(t, japanese.EUCJP, "# coding: euc-jp\n一行目\n")
	data = append(data, "bad = '\xe4\xba\x8c'\n"...) // "二" in UTF-8
	data = append(data, encodeWith(t, japanese.EUCJP, "最後 = 1\n")...)
	name := filepath.Join(dir, "m.py")
	writeFile(t, name, data)
	commitAll(t, dir)
	res, err := call(t, dir, "file_read", map[string]any{"path": "m.py"})
	if err != nil {
		t.Fatal(err)
	}
	line3 := strings.TrimPrefix(strings.Split(res.(*apply.FileReadResult).Content, "\n")[2], "3: ")
	if !strings.Contains(line3, "\uFFFD") {
		t.Fatalf("line 3 %q shows no undecodable byte", line3)
	}
	_, err = call(t, dir, "edit", map[string]any{"filePath": "m.py", "oldString": line3, "newString": "bad = 2"})
	if apply.CodeOf(err) != apply.CodeInvalid || !strings.Contains(err.Error(), "not valid EUC-JP") {
		t.Fatalf("got %v", err)
	}
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "m.py", "oldString": "最後 = 1", "newString": "最後 = 2"}); err != nil {
		t.Fatal(err)
	}
	want := append(data[:len(data)-2:len(data)-2], "2\n"...)
	if got, _ := os.ReadFile(name); !bytes.Equal(got, want) {
		t.Fatalf("file %q\nwant %q", got, want)
	}
}

// The syntax check, symbols and snippets read the decoded text.
func TestDecodedTextForSyntaxAndSymbols(t *testing.T) {
	dir := newRepo(t)
	src := "# -*- coding: shift_jis -*-\ndef 挨拶():\n    return \"こんにちは\"\n\n\ndef other():\n    return 1\n"
	name := filepath.Join(dir, "g.py")
	writeFile(t, name, encodeWith(t, japanese.ShiftJIS, src))
	commitAll(t, dir)
	res, err := call(t, dir, "file_outline", map[string]any{"path": "g.py"})
	if err != nil {
		t.Fatal(err)
	}
	if o := res.(*apply.FileOutlineResult); !strings.Contains(o.Outline, "挨拶") || o.Version != strings.TrimSpace(git(t, dir, "hash-object", "g.py")) {
		t.Fatalf("outline %+v", o)
	}
	if _, err := call(t, dir, "edit_symbol", map[string]any{"path": "g.py", "symbol": "挨拶", "content": "def 挨拶():\n    return \"さようなら\"\n"}); err != nil {
		t.Fatal(err)
	}
	want := encodeWith(t, japanese.ShiftJIS, strings.Replace(src, "こんにちは", "さようなら", 1))
	if got, _ := os.ReadFile(name); !bytes.Equal(got, want) {
		t.Fatalf("file %q", got)
	}
	_, err = call(t, dir, "edit", map[string]any{"filePath": "g.py", "oldString": "return 1", "newString": "return (「"})
	if apply.CodeOf(err) != apply.CodeSyntax {
		t.Fatalf("a syntax error in a Shift_JIS file: %v", err)
	}
	if _, err := call(t, dir, "edit_file", map[string]any{"target_file": "g.py", "code_edit": "# ... existing code ...\n\n\ndef other():\n    return \"二\"\n"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); !bytes.Contains(got, encodeWith(t, japanese.ShiftJIS, "return \"二\"")) {
		t.Fatalf("file after the snippet %q", got)
	}
}

// A patch addresses the decoded text; a rename keeps the source's bytes.
func TestPatchOnEncodedFile(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, ".editorconfig"), []byte("[*]\ncharset = latin1\n"))
	writeFile(t, filepath.Join(dir, "a.txt"), []byte("d\xe9but\nmilieu\nfin\n"))
	commitAll(t, dir)
	patch := "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n début\n-milieu\n+médian\n fin\n"
	if _, err := call(t, dir, "apply_patch", map[string]any{"patch": patch}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(got) != "d\xe9but\nm\xe9dian\nfin\n" {
		t.Fatalf("file %q", got)
	}
	rename := "diff --git a/a.txt b/b.txt\nsimilarity index 100%\nrename from a.txt\nrename to b.txt\n"
	if _, err := call(t, dir, "apply_patch", map[string]any{"patch": rename}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "b.txt")); string(got) != "d\xe9but\nm\xe9dian\nfin\n" {
		t.Fatalf("renamed file %q", got)
	}
}

// The reproduction without any declaration: the detector names
// the Latin-1 file's encoding, the accented old text is found, and '漢'
// is refused.
func TestUndeclaredLatin1(t *testing.T) {
	dir := newRepo(t)
	name := filepath.Join(dir, "m.py")
	writeFile(t, name, []byte("caf\xe9 = 1\nx = 2\n"))
	commitAll(t, dir)
	res, err := call(t, dir, "file_read", map[string]any{"path": "m.py"})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.(*apply.FileReadResult); r.Content != "1: café = 1\n2: x = 2\n" || r.Encoding != "windows-1252" || !strings.HasPrefix(r.EncodingFrom, "detected") {
		t.Fatalf("file_read %+v", r)
	}
	_, err = call(t, dir, "edit", map[string]any{"filePath": "m.py", "oldString": "x = 2", "newString": "x = '漢'"})
	if apply.CodeOf(err) != apply.CodeInvalid || !strings.Contains(err.Error(), "windows-1252") || !strings.Contains(err.Error(), "U+6F22") {
		t.Fatalf("got %v", err)
	}
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "m.py", "oldString": "café = 1", "newString": "crème = 1"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); string(got) != "cr\xe8me = 1\nx = 2\n" {
		t.Fatalf("file %q", got)
	}
}

// A file whose encoding nothing names and the detector cannot tell (here
// Latin-1 with UTF-8 pasted in): its other bytes show as U+FFFD, an edit
// touching them is refused saying how to declare the encoding, edits
// elsewhere land byte for byte; once .editorconfig names latin1, the
// same edit lands.
func TestUnknownEncodingFile(t *testing.T) {
	dir := newRepo(t)
	name := filepath.Join(dir, "m.txt")
	data := "d\xe9j\xe0 vu, l'\xe9t\xe9 est l\xe0\n漢字 mixed\nlast\n"
	writeFile(t, name, []byte(data))
	commitAll(t, dir)
	res, err := call(t, dir, "file_read", map[string]any{"path": "m.txt"})
	if err != nil {
		t.Fatal(err)
	}
	r := res.(*apply.FileReadResult)
	if r.Encoding != "unknown" || !strings.Contains(r.Content, "1: d\uFFFDj\uFFFD vu") || !strings.Contains(r.Content, "2: 漢字 mixed") {
		t.Fatalf("file_read %+v", r)
	}
	_, err = call(t, dir, "edit", map[string]any{"filePath": "m.txt", "oldString": "d\uFFFDj\uFFFD vu", "newString": "deja vu"})
	if apply.CodeOf(err) != apply.CodeInvalid || !strings.Contains(err.Error(), "working-tree-encoding") || !strings.Contains(err.Error(), "charset = latin1") {
		t.Fatalf("got %v", err)
	}
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "m.txt", "oldString": "last", "newString": "dernière"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); string(got) != strings.Replace(data, "last", "dernière", 1) {
		t.Fatalf("file %q", got)
	}
	writeFile(t, filepath.Join(dir, ".editorconfig"), []byte("[m.txt]\ncharset = latin1\n"))
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "m.txt", "oldString": "déjà vu", "newString": "deja vu"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); !strings.HasPrefix(string(got), "deja vu, l'\xe9t\xe9") {
		t.Fatalf("file %q", got)
	}
}

// An edit beside bytes that do not decode must not make them read as
// something else: deleting the X of "\xe6X\xbc\xa2" would turn four
// undecodable bytes into '漢'.
func TestEditBesideUndecodableBytes(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, ".editorconfig"), []byte("[*]\ncharset = utf-8\n"))
	name := filepath.Join(dir, "m.txt")
	data := "a\xe6X\xbc\xa2b\nok\n"
	writeFile(t, name, []byte(data))
	commitAll(t, dir)
	_, err := call(t, dir, "edit", map[string]any{"filePath": "m.txt", "oldString": "X", "newString": ""})
	if apply.CodeOf(err) != apply.CodeInvalid || !strings.Contains(err.Error(), "read as something else") {
		t.Fatalf("got %v", err)
	}
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "m.txt", "oldString": "ok", "newString": "fine"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); string(got) != "a\xe6X\xbc\xa2b\nfine\n" {
		t.Fatalf("file %q", got)
	}
}

// A file that is plain ASCII reads the same in every encoding, but new
// text that is not ASCII is written in the encoding its attribute names.
func TestASCIIFileTakesDeclaredEncoding(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, ".editorconfig"), []byte("[*.py]\ncharset = latin1\n"))
	name := filepath.Join(dir, "a.py")
	writeFile(t, name, []byte("x = 1\ny = 2\n"))
	commitAll(t, dir)
	if _, err := call(t, dir, "multi_edit", map[string]any{"description": "d", "edits": []any{
		map[string]any{"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 3"},
		map[string]any{"file_path": "a.py", "old_string": "y = 2", "new_string": "y = 'é'"}}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); string(got) != "x = 3\ny = '\xe9'\n" {
		t.Fatalf("file %q", got)
	}
	res, err := call(t, dir, "file_read", map[string]any{"path": "a.py"})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.(*apply.FileReadResult); r.Encoding != "ISO-8859-1" || r.Content != "1: x = 3\n2: y = 'é'\n" {
		t.Fatalf("file_read %+v", r)
	}
	writeFile(t, name, []byte("plain\n"))
	res, err = call(t, dir, "file_read", map[string]any{"path": "a.py"})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.(*apply.FileReadResult); r.Encoding != "ISO-8859-1" || r.EncodingFrom != "from .editorconfig charset" {
		t.Fatalf("file_read of an ASCII file %+v", r)
	}
}

// A stale version of a UTF-16 file carries line numbers through what
// changed since, by the decoded lines; a conflict shows decoded text.
func TestVersionOnUTF16File(t *testing.T) {
	u16 := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	dir := newRepo(t)
	name := filepath.Join(dir, "a.txt")
	writeFile(t, name, encodeWith(t, u16, "un\ndeux\ntrois\n"))
	commitAll(t, dir)
	res, err := call(t, dir, "file_read", map[string]any{"path": "a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	version := res.(*apply.FileReadResult).Version
	writeFile(t, name, encodeWith(t, u16, "zéro\nun\ndeux\ntrois\n"))
	if _, err := call(t, dir, "edit_lines", map[string]any{"command": "replace", "path": "a.txt", "start_line": 2, "new_content": "DEUX", "version": version}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); !bytes.Equal(got, encodeWith(t, u16, "zéro\nun\nDEUX\ntrois\n")) {
		t.Fatalf("file %q", got)
	}
	_, err = call(t, dir, "edit_lines", map[string]any{"command": "replace", "path": "a.txt", "start_line": 2, "new_content": "2", "version": version})
	if apply.CodeOf(err) != apply.CodeConflict || !strings.Contains(err.Error(), "+zéro") || !strings.Contains(err.Error(), "+DEUX") {
		t.Fatalf("got %v", err)
	}
}

// The Shift_JIS reproduction, undeclared: the detector names the
// encoding, an old text in Japanese is found, the edit lands in
// Shift_JIS, and a character Shift_JIS lacks is refused.
func TestUndeclaredShiftJIS(t *testing.T) {
	dir := newRepo(t)
	name := filepath.Join(dir, "conf.ini")
	text := "; 設定ファイルを開けませんでした。\n; 権限を確認してから、もう一度お試しください。\nname = 山田\n"
	writeFile(t, name, encodeWith(t, japanese.ShiftJIS, text))
	commitAll(t, dir)
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "conf.ini", "oldString": "name = 山田", "newString": "name = 田中"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); !bytes.Equal(got, encodeWith(t, japanese.ShiftJIS, strings.Replace(text, "山田", "田中", 1))) {
		t.Fatalf("file %q", got)
	}
	_, err := call(t, dir, "edit", map[string]any{"filePath": "conf.ini", "oldString": "name = 田中", "newString": "name = 김"})
	if apply.CodeOf(err) != apply.CodeInvalid || !strings.Contains(err.Error(), "Shift_JIS") {
		t.Fatalf("got %v", err)
	}
}
