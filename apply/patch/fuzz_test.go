package patch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graftdev/graft/internal/textedit"
	"golang.org/x/tools/txtar"
)

// fuzzParse is the property the three parser fuzzers share: Parse never
// panics; a rejection is graft's one error value (*textedit.Error)
// matching ErrMalformed with a reason; an accepted patch names at least
// one file, every hunk changes something, and applying it to a small file
// tree never panics and fails only with *textedit.Error values.
func fuzzParse(t *testing.T, text string) {
	p, err := Parse(text)
	if err != nil {
		var pe *textedit.Error
		if !errors.As(err, &pe) || !errors.Is(err, ErrMalformed) || !strings.Contains(pe.Msg, ": ") {
			t.Fatalf("rejection is not a clear malformed-patch error: %#v", err)
		}
		return
	}
	if len(p.Files) == 0 {
		t.Fatal("accepted a patch without files")
	}
	for _, fp := range p.Files {
		for _, h := range fp.Hunks {
			if !h.changes() && !(h.Unchanged && p.Format == SearchReplace && len(h.OldLines()) > 0) {
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
			var pe *textedit.Error
			if !errors.As(err, &pe) {
				t.Fatalf("apply error is not a *textedit.Error: %#v", err)
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

// FuzzExactHunkPlacement: a hunk whose context and removed lines stand
// exactly at its stated line lands there, exactly, as git apply puts it;
// one that stands exactly at a single other place lands at that place
// (offset), as git apply's search finds it. Whatever the fuzzy tiers could
// also make of it never moves it.
func FuzzExactHunkPlacement(f *testing.F) {
	f.Add([]byte("a\nb\nc\nd\nb\nc\n"), uint8(1), uint8(2), []byte("x\n"), uint8(0))
	f.Add([]byte("\tif x {\n\t\ty()\n\t}\n    if x {\n        y()\n    }\n"), uint8(3), uint8(3), []byte("    z()\n"), uint8(9))
	f.Add([]byte("a\r\nb\r\nb\nb\n"), uint8(1), uint8(1), []byte("c\n"), uint8(1))
	f.Fuzz(func(t *testing.T, content []byte, at, n uint8, added []byte, statedDelta uint8) {
		if len(content) > 4096 || len(added) > 1024 || strings.ContainsAny(string(content)+string(added), "\x00\r") {
			return
		}
		lines := strings.SplitAfter(string(content), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) == 0 || !strings.HasSuffix(string(content), "\n") {
			return
		}
		s := int(at) % len(lines)
		k := 1 + int(n)%min(4, len(lines)-s)
		old := lines[s : s+k]
		var b strings.Builder
		stated := s + 1
		if statedDelta%3 == 1 {
			stated += int(statedDelta)
		}
		b.WriteString("--- a/f\n+++ b/f\n")
		b.WriteString("@@ -" + itoa(stated) + "," + itoa(k) + " +" + itoa(stated) + " @@\n")
		// The first old line is context, the rest removed; then the added
		// lines.
		b.WriteString(" " + old[0])
		for _, l := range old[1:] {
			b.WriteString("-" + l)
		}
		var add []string
		for _, l := range strings.SplitAfter(string(added), "\n") {
			if l != "" && strings.HasSuffix(l, "\n") && !strings.HasPrefix(l, "\\") {
				add = append(add, l)
				b.WriteString("+" + l)
			}
		}
		if len(add) == 0 && k == 1 {
			return
		}
		p, err := Parse(b.String())
		if err != nil {
			return // lines that look like patch syntax
		}
		exactAt := func(i int) bool {
			if i < 0 || i+k > len(lines) {
				return false
			}
			for j := range old {
				if lines[i+j] != old[j] {
					return false
				}
			}
			return true
		}
		var places []int
		for i := range lines {
			if exactAt(i) {
				places = append(places, i)
			}
		}
		want := -1
		switch {
		case exactAt(stated - 1):
			want = stated - 1
		case len(places) == 1:
			want = places[0]
		default:
			return // several exact places and none stated: git apply picks the nearest; graft refuses
		}
		res, err := Apply(p, memSource{"f": content}, Options{Budget: 100_000})
		if err != nil {
			if strings.Contains(err.Error(), "changes nothing") {
				return
			}
			t.Fatalf("a hunk that stands exactly at line %d did not land: %v\n%s", want+1, err, b.String())
		}
		exp := strings.Join(lines[:want], "") + old[0] + strings.Join(add, "") + strings.Join(lines[want+k:], "")
		if got := string(res.Changes[0].New); got != exp {
			t.Fatalf("landed elsewhere or otherwise:\n got %q\nwant %q\n%s", got, exp, b.String())
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

// FuzzPatchSlipLandsExactly: a unified diff of a one-line change to a
// tab-indented file, its lines slipped (tabs written as four spaces, a
// space before every line break, or CRLF) and its line numbers off by a
// few lines, lands, if at all, as the change itself: the hunk's context is
// located through the same tiers as an edit and never elsewhere.
func FuzzPatchSlipLandsExactly(f *testing.F) {
	f.Add("func a() {\n\tx := 1\n\treturn x\n}\n", 0, 3, 1, 0, uint8(0))
	f.Add("a\n\tb\n\tc\n\tb\n\tc\nd\n", 1, 2, 1, 3, uint8(1))
	f.Fuzz(func(t *testing.T, content string, from, n, at, off int, kind uint8) {
		if strings.ContainsAny(content, "\r\x00") || !strings.HasSuffix(content, "\n") {
			return
		}
		lines := strings.SplitAfter(content, "\n")
		lines = lines[:len(lines)-1]
		for _, l := range lines {
			body := strings.TrimLeft(l, "\t")
			if strings.HasPrefix(body, " ") || strings.Contains(body, "\t") || strings.HasPrefix(l, "-") ||
				strings.HasPrefix(l, "+") || strings.HasPrefix(l, "@") || strings.HasPrefix(l, "\\") ||
				strings.HasPrefix(l, "---") || strings.TrimRight(l, " \n") != strings.TrimSuffix(l, "\n") {
				return
			}
		}
		if len(lines) == 0 {
			return
		}
		from = int(uint(from) % uint(len(lines)))
		to := from + 1 + int(uint(n)%4)
		if to > len(lines) {
			return
		}
		if side := strings.Join(lines[from:to], ""); strings.Index(content, side) != strings.LastIndex(content, side) {
			return // a hunk whose text stands twice is placed by its line number, as git does
		}
		k := from + int(uint(at)%uint(to-from))
		if strings.TrimSpace(lines[k]) == "" {
			return
		}
		changed := strings.TrimSuffix(lines[k], "\n") + "X\n"
		want := strings.Join(lines[:k], "") + changed + strings.Join(lines[k+1:], "")
		slip := []func(string) string{
			func(s string) string { return strings.ReplaceAll(s, "\t", "    ") },
			func(s string) string { return strings.TrimSuffix(s, "\n") + " \n" },
			func(s string) string { return strings.TrimSuffix(s, "\n") + "\r\n" },
		}[int(kind)%3]
		var d strings.Builder
		stated := max(1, from+1+int(int8(off))%5)
		fmt.Fprintf(&d, "--- a/f\n+++ b/f\n@@ -%d,%d +%d,%d @@\n", stated, to-from, stated, to-from)
		for i := from; i < to; i++ {
			if i == k {
				d.WriteString("-" + slip(lines[i]))
				d.WriteString("+" + slip(changed))
				continue
			}
			d.WriteString(" " + slip(lines[i]))
		}
		p, err := Parse(d.String())
		if err != nil {
			return
		}
		res, err := Apply(p, memSource{"f": []byte(content)}, Options{})
		if err != nil {
			return
		}
		for _, c := range res.Changes {
			if c.Path == "f" && string(c.New) != want {
				t.Fatalf("patch\n%s\non %q gave\n%q\nwant\n%q", d.String(), content, c.New, want)
			}
		}
	})
}
