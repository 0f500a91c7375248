package patch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// fuzzParse is the property the three parser fuzzers share: Parse never
// panics; a rejection is a *Error matching ErrMalformed with a message;
// an accepted patch names at least one file, every hunk changes something,
// and applying it to a small file tree never panics and fails only with
// *Error values.
func fuzzParse(t *testing.T, text string) {
	p, err := Parse(text)
	if err != nil {
		var pe *Error
		if !errors.As(err, &pe) || !errors.Is(err, ErrMalformed) || pe.Reason == "" {
			t.Fatalf("rejection is not a clear malformed-patch error: %#v", err)
		}
		return
	}
	if len(p.Files) == 0 {
		t.Fatal("accepted a patch without files")
	}
	for _, fp := range p.Files {
		for _, h := range fp.Hunks {
			if !h.changes() {
				t.Fatalf("accepted a hunk that changes nothing: %+v", h)
			}
		}
	}
	src := memSource{}
	for _, fp := range p.Files {
		for _, path := range []string{fp.OldPath, fp.NewPath} {
			if path != "" && !fp.IsNew {
				src[path] = []byte("a\nb\nc\n\td\ne\r\nf")
			}
		}
	}
	for _, rev := range []bool{false, true} {
		q := p
		if rev {
			if q, err = Reverse(p); err != nil {
				continue
			}
		}
		if _, err := Apply(q, src, Options{Budget: 100_000}); err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("apply error is not a *patch.Error: %#v", err)
			}
		}
	}
}

// seeds adds the patches of testdata/*.txtar whose text is in format f.
func seeds(f *testing.F, keep func(string) bool) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, s := range ar.Files {
			if s.Name == "patch" && keep(string(s.Data)) {
				f.Add(string(section(s.Data)))
			}
		}
	}
	if keep("--- ") {
		for _, name := range []string{"text_fragment_change_middle.patch", "file_bin_modify.patch", "file_mode_change.patch"} {
			b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "patch", "gitdiff", name))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(b))
		}
	}
}

func FuzzParseUnified(f *testing.F) {
	seeds(f, func(s string) bool {
		return !strings.Contains(s, codexBegin) && !strings.Contains(s, "SEARCH")
	})
	f.Fuzz(func(t *testing.T, text string) { fuzzParse(t, text) })
}

func FuzzParseCodex(f *testing.F) {
	seeds(f, func(s string) bool { return strings.Contains(s, codexBegin) })
	f.Fuzz(func(t *testing.T, text string) { fuzzParse(t, text) })
}

func FuzzParseSearchReplace(f *testing.F) {
	seeds(f, func(s string) bool { return strings.Contains(s, "<<<<<<< SEARCH") })
	f.Fuzz(func(t *testing.T, text string) { fuzzParse(t, text) })
}
