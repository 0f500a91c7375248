package charset

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

func TestDeclared(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"a.py", "# -*- coding: latin-1 -*-\nx = 1\n", "latin-1"},
		{"a.py", "#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\n", "cp1252"},
		{"a.py", "import os\n# coding: latin-1\n", ""}, // line 1 is code
		{"a.py", "x = 1\n", ""},
		{"a.rb", "# encoding: Shift_JIS\n", "Shift_JIS"},
		{"a.xml", "<?xml version=\"1.0\" encoding=\"ISO-8859-2\"?>\n<a/>", "ISO-8859-2"},
		{"a.xml", "<?xml version='1.0' encoding='euc-jp' standalone='yes'?><a/>", "euc-jp"},
		{"a.xml", "<?xml version=\"1.0\"?>\n<a encoding=\"x\"/>", ""},
		{"a.html", "<!DOCTYPE html><html><head><meta charset=\"windows-1251\"></head>", "windows-1251"},
		{"a.htm", "<html><head><META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=Shift_JIS\">", "Shift_JIS"},
		{"a.txt", "<meta charset=\"windows-1251\">", ""}, // not HTML
	} {
		if got := Declared(tc.name, []byte(tc.data)); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.name, tc.data, got, tc.want)
		}
	}
}

func TestEditorConfig(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".editorconfig", "root = true\n\n[*]\ncharset = utf-8\n\n[*.{ini,cfg}]\ncharset = latin1\n\n[legacy/**.txt]\ncharset = latin1\n\n[/top.txt]\ncharset = utf-16le\n\n[file[0-9].dat]\ncharset = utf-16be\n\n[v{1..3}.txt]\ncharset = utf-8-bom\n")
	write("sub/.editorconfig", "[*.md]\nCharset = UTF-16BE\n[*.ini]\ncharset = unset\n")
	for rel, want := range map[string]string{
		"a.go":             "utf-8",
		"x/y/a.ini":        "latin1",
		"b.cfg":            "latin1",
		"legacy/a/b.txt":   "latin1",
		"legacy/b.txt":     "latin1",
		"other/legacy.txt": "utf-8",
		"top.txt":          "utf-16le",
		"x/top.txt":        "utf-8",
		"file7.dat":        "utf-16be",
		"filex.dat":        "utf-8",
		"v2.txt":           "utf-8-bom",
		"v4.txt":           "utf-8",
		"sub/r.md":         "utf-16be",
		"sub/r.ini":        "",
	} {
		if got := EditorConfig(root, filepath.Join(root, filepath.FromSlash(rel))); got != want {
			t.Errorf("%s: %q, want %q", rel, got, want)
		}
	}
}

// Our own sentences in each language, encoded: the detector names an
// encoding that reads them as written.
func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		want []string
		data []byte
	}{
		{[]string{"windows-1252", "ISO-8859-1"}, must(charmap.Windows1252.NewEncoder().String("# Lösche die Datei, wenn sie älter als fünf Tage ist.\n# Créer le répertoire s'il n'existe pas déjà.\n"))},
		{[]string{"ISO-8859-2"}, must(charmap.ISO8859_2.NewEncoder().String("// Nie można otworzyć pliku: brak uprawnień.\n// Zapisz zmiany przed wyjściem z programu.\n"))},
		{[]string{"windows-1251"}, must(charmap.Windows1251.NewEncoder().String("# Не удалось открыть файл конфигурации.\n# Проверьте права доступа и повторите попытку.\n"))},
		{[]string{"KOI8-R"}, must(charmap.KOI8R.NewEncoder().String("# Не удалось открыть файл конфигурации.\n# Проверьте права доступа и повторите попытку.\n"))},
		{[]string{"Shift_JIS"}, must(japanese.ShiftJIS.NewEncoder().String("// 設定ファイルを開けませんでした。\n// 権限を確認してから、もう一度お試しください。\n"))},
		{[]string{"EUC-JP"}, must(japanese.EUCJP.NewEncoder().String("// 設定ファイルを開けませんでした。\n// 権限を確認してから、もう一度お試しください。\n"))},
		{[]string{"GB18030"}, must(simplifiedchinese.GBK.NewEncoder().String("// 无法打开配置文件。\n// 请检查权限后重试。\n"))},
		{[]string{"Big5"}, must(traditionalchinese.Big5.NewEncoder().String("// 無法開啟設定檔。\n// 請檢查權限後再試一次。\n"))},
		{[]string{"EUC-KR"}, must(korean.EUCKR.NewEncoder().String("// 설정 파일을 열 수 없습니다.\n// 권한을 확인한 후 다시 시도하십시오.\n"))},
	} {
		name, conf := Detect(tc.data)
		ok := false
		for _, w := range tc.want {
			ok = ok || name == w
		}
		if !ok || conf < Floor {
			t.Errorf("%v: detected %q (%.3f), scores %v", tc.want, name, conf, Scores(tc.data))
		}
	}
}

// Below the floor the answer is unknown: random bytes, and a Latin-1 file
// with UTF-8 pasted into it.
func TestDetectUnknown(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 200; i++ {
		b := make([]byte, 300)
		for j := range b {
			b[j] = byte(r.Intn(255) + 1)
		}
		if name, conf := Detect(b); name != "" {
			t.Fatalf("random bytes named %s (%.3f)", name, conf)
		}
	}
	if name, _ := Detect([]byte("d\xe9j\xe0 vu, l'\xe9t\xe9 est l\xe0\n漢字 mixed\n")); name != "" {
		t.Fatalf("a file in two encodings named %s", name)
	}
}

func must(s string, err error) []byte {
	if err != nil {
		panic(err)
	}
	return []byte(s)
}
