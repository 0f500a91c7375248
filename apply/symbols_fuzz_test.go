package apply

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/graftdev/graft/apply/lineedit"
	"github.com/graftdev/graft/apply/outline"
	"github.com/graftdev/graft/apply/symbol"
	"github.com/graftdev/graft/apply/syntax"
)

// FuzzSymbolRoundTrip: for every symbol of a file, replacing it with its
// span's own text (a config key: its value's) changes nothing, byte for
// byte; only a symbol sharing its line with other code may be refused.
func FuzzSymbolRoundTrip(f *testing.F) {
	exts := []string{".go", ".py", ".js", ".ts", ".rs", ".java", ".c", ".cpp", ".rb", ".sh", ".json", ".yaml", ".toml"}
	samples, _ := filepath.Glob("outline/testdata/sample.*")
	for _, s := range samples {
		if filepath.Ext(s) == ".outline" {
			continue
		}
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		for i, e := range exts {
			if e == filepath.Ext(s) {
				f.Add(b, uint8(i))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, lang uint8) {
		name := "f" + exts[int(lang)%len(exts)]
		// The property is about files that parse: a broken one's outline
		// is what tree-sitter recovered, nothing more.
		if rep, err := syntax.Check(name, nil, src); err != nil || !rep.OK() || !rep.Checked {
			return
		}
		o, err := outline.Parse(name, src)
		if err != nil {
			return
		}
		ix := lineedit.NewFile(src)
		for _, s := range o.All() {
			var text string
			if o.Config {
				if s.Body || s.ValueEnd <= s.ValueStart {
					continue
				}
				from := s.ValueStart
				if ls := ix.Start(ix.LineAt(from)); o.Language == "yaml" && ix.LineAt(from) > s.Line && len(bytes.TrimSpace(src[ls:from])) == 0 {
					from = ls // a block value: its whole lines
				}
				text = string(src[from:s.ValueEnd])
			} else {
				text = string(src[ix.Start(s.Line):ix.End(s.EndLine)])
			}
			out, err := EditSymbolText(name, src, s.Path(), "replace", &text, s.Line)
			if err != nil {
				if s.Shared || bytes.TrimSpace([]byte(text)) == nil || len(bytes.TrimSpace([]byte(text))) == 0 {
					continue
				}
				if c := CodeOf(err); c == CodeAmbiguous {
					continue // two symbols of one name on one line
				}
				t.Fatalf("%s %s (lines %d-%d) refused: %v", s.Kind, s.Path(), s.Line, s.EndLine, err)
			}
			if !bytes.Equal(out, src) {
				t.Fatalf("%s %s (lines %d-%d): replacing with its own text changed the file:\n%q\n---\n%q", s.Kind, s.Path(), s.Line, s.EndLine, src, out)
			}
		}
	})
}

// FuzzSymbolActions runs every action on every symbol of any content
// (broken files too): a result or a refusal, never a panic, and a refusal
// is an *Error with a code.
func FuzzSymbolActions(f *testing.F) {
	exts := []string{".go", ".py", ".js", ".ts", ".rs", ".java", ".c", ".cpp", ".rb", ".sh", ".json", ".yaml", ".toml"}
	samples, _ := filepath.Glob("outline/testdata/sample.*")
	for _, s := range samples {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		for i, e := range exts {
			if e == filepath.Ext(s) {
				f.Add(b, uint8(i), "x = 1\n  y")
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, lang uint8, content string) {
		name := "f" + exts[int(lang)%len(exts)]
		o, err := outline.Parse(name, src)
		if err != nil {
			return
		}
		for i, s := range o.All() {
			if i > 20 {
				break
			}
			for _, action := range symbol.Actions {
				text := &content
				if action == "delete" {
					text = nil
				}
				_, err := EditSymbolText(name, src, s.Path(), action, text, s.Line)
				if err != nil && CodeOf(err) == CodeInternal {
					t.Fatalf("%s %s: internal error %v", action, s.Path(), err)
				}
			}
		}
	})
}
