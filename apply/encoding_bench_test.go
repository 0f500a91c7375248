package apply_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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
	"github.com/graftdev/graft/gitstore/gittest"
)

// BenchmarkEncodingCall measures a whole edit call on a 5 MB file in each
// encoding graft decodes, against the same text in UTF-8 (the "utf-8"
// sub-benchmark of each language): read, decode, locate, map the change
// to the file's bytes, diff the decoded text, land. Each iteration
// changes one line, so every call lands.
func BenchmarkEncodingCall(b *testing.B) {
	langs := []struct {
		name, line string
		encs       map[string]encoding.Encoding
	}{
		{"fr", "valeur%06d = calculer(%6d)  # déjà été créé à la fenêtre\n", map[string]encoding.Encoding{"windows-1252": charmap.Windows1252}},
		{"pl", "wartość%06d = policz(%6d)  # zażółć gęślą jaźń\n", map[string]encoding.Encoding{"ISO-8859-2": charmap.ISO8859_2}},
		{"ru", "значение%06d = вычислить(%6d)  # съешь ещё этих булок\n", map[string]encoding.Encoding{"windows-1251": charmap.Windows1251, "KOI8-R": charmap.KOI8R}},
		{"ja", "値%06d = 計算(%6d)  # 設定ファイルの説明です\n", map[string]encoding.Encoding{"Shift_JIS": japanese.ShiftJIS, "EUC-JP": japanese.EUCJP,
			"UTF-16LE": unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)}},
		{"zh", "数值%06d = 计算(%6d)  # 配置文件的中文说明\n", map[string]encoding.Encoding{"GBK": simplifiedchinese.GBK, "GB18030": simplifiedchinese.GB18030}},
		{"zh_TW", "數值%06d = 計算(%6d)  # 設定檔的中文說明\n", map[string]encoding.Encoding{"Big5": traditionalchinese.Big5}},
		{"ko", "값%06d = 계산(%6d)  # 설정 파일 설명입니다\n", map[string]encoding.Encoding{"EUC-KR": korean.EUCKR}},
	}
	for _, l := range langs {
		var text strings.Builder
		for i := 0; text.Len() < 5<<20; i++ {
			fmt.Fprintf(&text, l.line, i, i)
		}
		encs := map[string]encoding.Encoding{"utf-8": nil}
		for k, v := range l.encs {
			encs[k] = v
		}
		for name, codec := range encs {
			b.Run(l.name+"/"+name, func(b *testing.B) {
				content := []byte(text.String())
				if codec != nil {
					var err error
					if content, err = codec.NewEncoder().Bytes(content); err != nil {
						b.Fatal(err)
					}
					if !strings.HasPrefix(name, "UTF-16") {
						content = append([]byte("# coding: "+name+"\n"), content...)
					}
				}
				benchEditCall(b, content, fmt.Sprintf(l.line, 123, 123))
			})
		}
	}
}

func benchEditCall(b *testing.B, content []byte, prev string) {
	dir := gittest.Repo(b, map[string]string{"README": "x\n"})
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), content, 0o644); err != nil {
		b.Fatal(err)
	}
	gittest.Git(b, dir, "add", "-A")
	gittest.Git(b, dir, "commit", "-q", "-m", "big")
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		next := fmt.Sprintf("changed := %d\n", i)
		args, _ := json.Marshal(map[string]any{"filePath": "big.txt", "oldString": prev, "newString": next})
		if _, err := e.Call(context.Background(), "edit", args); err != nil {
			b.Fatal(err)
		}
		prev = next
		i++
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "big.txt")); bytes.Equal(got, content) {
		b.Fatal("nothing changed")
	}
}
