package patch

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/graftdev/graft/internal/textedit"
	"golang.org/x/tools/txtar"
)

// TestTable runs testdata/*.txtar. Sections:
//
//	patch          the patch text
//	in/PATH        a file before the patch
//	want/PATH      the file after it (a deleted file: absent from want/)
//	mode/PATH      the mode the patch sets, in octal
//	places         "PATH: placement, placement" per file, as Placement.String
//	error          substrings the error must contain, one a line; the first
//	               is the kind: conflict, ambiguous, malformed, nofile, exists
//	args           "reverse" and/or "exact"
//
// In every section "<CR>" stands for a carriage return and a final
// "<NOEOL>" line removes the newline before it.
func TestTable(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			runCase(t, ar)
		})
	}
}

// TestGNUPatchSuite runs the cases converted from GNU patch's test suite
// (fixtures/patch/gnu, README.md there lists where graft differs and why).
func TestGNUPatchSuite(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "fixtures", "patch", "gnu", "*.txtar"))
	if len(files) < 20 {
		t.Fatalf("only %d GNU patch cases", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			runCase(t, ar)
		})
	}
}

func section(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("<CR>"), []byte("\r"))
	if bytes.HasSuffix(b, []byte("\n<NOEOL>\n")) {
		b = b[:len(b)-len("\n<NOEOL>\n")]
	}
	return b
}

func runCase(t *testing.T, ar *txtar.Archive) {
	src := memSource{}
	want := map[string][]byte{}
	modes := map[string]string{}
	var text, wantErr, wantPlaces, args string
	for _, f := range ar.Files {
		data := section(f.Data)
		switch {
		case f.Name == "patch":
			text = string(data)
		case f.Name == "error":
			wantErr = string(data)
		case f.Name == "places":
			wantPlaces = string(data)
		case f.Name == "args":
			args = string(data)
		case strings.HasPrefix(f.Name, "in/"):
			src[f.Name[3:]] = data
		case strings.HasPrefix(f.Name, "want/"):
			want[f.Name[5:]] = data
		case strings.HasPrefix(f.Name, "mode/"):
			modes[f.Name[5:]] = strings.TrimSpace(string(data))
		default:
			t.Fatalf("unknown section %q", f.Name)
		}
	}
	res, err := parseAndApply(text, src, Options{ExactOnly: strings.Contains(args, "exact")}, strings.Contains(args, "reverse"))
	if wantErr != "" {
		if err == nil {
			t.Fatalf("applied, want error %q; changes: %s", wantErr, describe(res))
		}
		checkError(t, err, wantErr)
		return
	}
	if err != nil {
		t.Fatalf("error: %v", err)
	}
	got := map[string][]byte{}
	for p, b := range src {
		got[p] = b
	}
	for _, c := range res.Changes {
		if c.Steps != nil {
			// The edits the engine lands make the same content.
			out := c.Old
			for _, st := range c.Steps {
				var err error
				if out, err = textedit.Splice(out, st); err != nil {
					t.Fatalf("%s: a step does not splice: %v", c.Path, err)
				}
			}
			if !bytes.Equal(out, c.New) {
				t.Errorf("%s: the steps make %q, New is %q", c.Path, out, c.New)
			}
		} else if c.Old != nil && c.New != nil && !bytes.Equal(c.Old, c.New) && !c.Binary && !strings.Contains(text, "rename") && !strings.Contains(text, "copy") && !strings.Contains(text, "/dev/null") && !strings.Contains(text, "*** Add") && !strings.Contains(text, "*** Delete") {
			t.Errorf("%s: changed in place without steps", c.Path)
		}
		if c.New == nil {
			delete(got, c.Path)
		} else {
			got[c.Path] = c.New
		}
		if m, ok := modes[c.Path]; ok {
			if fmt.Sprintf("%o", c.Mode) != m {
				t.Errorf("%s: mode %o, want %s", c.Path, c.Mode, m)
			}
			delete(modes, c.Path)
		}
	}
	for p := range modes {
		t.Errorf("%s: mode not set", p)
	}
	for p, w := range want {
		if g, ok := got[p]; !ok {
			t.Errorf("%s: missing after the patch", p)
		} else if !bytes.Equal(g, w) {
			t.Errorf("%s:\n got %q\nwant %q", p, g, w)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: present after the patch, not in want/", p)
		}
	}
	if wantPlaces != "" {
		// similarities are the matcher's business; the tier is checked
		sim := regexp.MustCompile(`\(similarity [0-9.]+\)`)
		g := sim.ReplaceAllString(placesText(res), "(similarity)")
		if w := sim.ReplaceAllString(wantPlaces, "(similarity)"); strings.TrimSpace(g) != strings.TrimSpace(w) {
			t.Errorf("places:\n%s\nwant:\n%s", g, wantPlaces)
		}
	}
}

func parseAndApply(text string, src Source, opt Options, reverse bool) (*Result, error) {
	p, err := Parse(text)
	if err != nil {
		return nil, err
	}
	if reverse {
		if p, err = Reverse(p); err != nil {
			return nil, err
		}
	}
	return Apply(p, src, opt)
}

func checkError(t *testing.T, err error, wantErr string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(wantErr), "\n")
	kinds := map[string]error{"conflict": ErrConflict, "ambiguous": ErrAmbiguous, "malformed": ErrMalformed,
		"nofile": ErrNoFile, "exists": ErrExists}
	kind, ok := kinds[strings.TrimSpace(lines[0])]
	if !ok {
		t.Fatalf("bad error section: first line must be a kind, got %q", lines[0])
	}
	if !errors.Is(err, kind) {
		t.Errorf("error %q is not %s", err, lines[0])
	}
	for _, s := range lines[1:] {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not contain %q", err, s)
		}
	}
	var pe *textedit.Error
	if !errors.As(err, &pe) {
		t.Errorf("error %T is not a *textedit.Error", err)
	}
}

func placesText(res *Result) string {
	var out []string
	for _, f := range res.Files {
		var ps []string
		for _, p := range f.Hunks {
			m := p.Method
			if m != exact {
				m += fmt.Sprintf(" (similarity %.2f)", p.Similarity)
			}
			ps = append(ps, m)
		}
		name := f.NewPath
		if name == "" {
			name = f.OldPath
		}
		out = append(out, strings.TrimSpace(fmt.Sprintf("%s: %s", name, strings.Join(ps, ", "))))
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func describe(res *Result) string {
	var b strings.Builder
	for _, c := range res.Changes {
		fmt.Fprintf(&b, "\n%s: %q", c.Path, c.New)
	}
	return b.String()
}
