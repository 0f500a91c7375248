package syntax

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

const goUnit = `// Handle%[1]d serves the items of kind %[1]d.
func Handle%[1]d(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.URL.Query().Get("id"))
	if err != nil {
		http.Error(w, fmt.Sprintf("kind %[1]d: bad id: %%v", err), http.StatusBadRequest)
		return
	}
	items := make([]Item, 0, 16)
	for i := 0; i < id%%7; i++ {
		items = append(items, Item{Name: "item-" + strconv.Itoa(i), Count: i * %[1]d})
	}
	switch {
	case len(items) == 0:
		http.NotFound(w, r)
	default:
		if err := json.NewEncoder(w).Encode(items); err != nil {
			log.Printf("kind %[1]d: %%v", err)
		}
	}
}

`

const pyUnit = `class Handler%[1]d(BaseHandler):
    """Serves the items of kind %[1]d."""

    kind = %[1]d

    def get(self, request):
        try:
            ident = int(request.args.get("id", ""))
        except ValueError as err:
            return self.error(400, f"kind %[1]d: bad id: {err}")
        items = [
            {"name": f"item-{i}", "count": i * self.kind}
            for i in range(ident %% 7)
        ]
        if not items:
            return self.error(404, "not found")
        return self.json(items)


`

// bigFile returns a file of about n lines: a header, then copies of unit
// numbered from 0, each a distinct top-level declaration.
func bigFile(header, unit string, n int) []byte {
	var b strings.Builder
	b.WriteString(header)
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, unit, i)
	}
	return []byte(b.String())
}

type benchFile struct {
	path      string
	src       []byte
	good, bad [2]string // a harmless and a breaking edit in the middle
	early     [2]string // a breaking edit near the top (for "already broken")
}

func benchFiles() []benchFile {
	goSrc := bigFile("package handlers\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"log\"\n\t\"net/http\"\n\t\"strconv\"\n)\n\n", goUnit, 10000)
	pySrc := bigFile("from base import BaseHandler\n\n\n", pyUnit, 10000)
	return []benchFile{
		{
			path: "handlers.go", src: goSrc,
			good:  [2]string{`"kind 250: bad id: %v"`, `"kind 250: invalid id: %v"`},
			bad:   [2]string{"Count: i * 250})", "Count: i * 250}"},
			early: [2]string{"Count: i * 3})", "Count: i * 3}"},
		},
		{
			path: "handlers.py", src: pySrc,
			good:  [2]string{`"kind 300: bad id: {err}"`, `"kind 300: invalid id: {err}"`},
			bad:   [2]string{"for i in range(ident % 7)\n        ]\n        if not items:\n            return self.error(404, \"not found\")\n        return self.json(items)\n\n\nclass Handler301", "for i in range(ident % 7\n        ]\n        if not items:\n            return self.error(404, \"not found\")\n        return self.json(items)\n\n\nclass Handler301"},
			early: [2]string{"kind = 3\n", "kind = = 3\n"},
		},
	}
}

func replaceOnce(b *testing.B, src []byte, e [2]string) []byte {
	if n := bytes.Count(src, []byte(e[0])); n != 1 {
		b.Fatalf("%q occurs %d times", e[0], n)
	}
	return bytes.Replace(src, []byte(e[0]), []byte(e[1]), 1)
}

// BenchmarkCheck measures one Check (before and after) of a small edit in
// the middle of a 10,000-line file: a harmless edit, an edit that breaks the
// file, and a harmless edit of a file already broken near its top. The
// "whole" variants turn the window off: they are the baseline of parsing
// both files in full.
func BenchmarkCheck(b *testing.B) {
	for _, f := range benchFiles() {
		l := detect(f.path, nil)
		if l.checker() == nil {
			b.Logf("%s unchecked in this build", f.path)
			continue
		}
		good := replaceOnce(b, f.src, f.good)
		bad := replaceOnce(b, f.src, f.bad)
		broken := replaceOnce(b, f.src, f.early)
		brokenGood := replaceOnce(b, broken, f.good)
		for _, tc := range []struct {
			name          string
			before, after []byte
			wantAdded     bool
		}{
			{"harmless", f.src, good, false},
			{"breaking", f.src, bad, true},
			{"already-broken", broken, brokenGood, false},
		} {
			for _, mode := range []struct {
				name string
				opt  options
			}{{"window", defaultOptions}, {"whole", noWindow}} {
				b.Run(fmt.Sprintf("%s/%s/%s", l.name, tc.name, mode.name), func(b *testing.B) {
					b.SetBytes(int64(len(tc.before) + len(tc.after)))
					b.ReportAllocs()
					for b.Loop() {
						r, err := check(f.path, tc.before, tc.after, mode.opt)
						if err != nil {
							b.Fatal(err)
						}
						if (r.AddedCount > 0) != tc.wantAdded {
							b.Fatalf("added %d, want added=%v:\n%s", r.AddedCount, tc.wantAdded, r)
						}
					}
				})
			}
		}
	}
}

// BenchmarkConditionals measures the check of an edit of a C file of
// 170 KB and 1.3 MB (past MaxWholeFile), tables of rows some of which
// stand under #ifdef: a row
// added plainly (no error, the common path), a row added under its own
// #ifdef (errors the grammar reports, which the readings of test 3 settle:
// it only warns), and a row missing its comma beside the table's #ifdef
// rows (refused by the readings). Where the window around the edit does
// not parse before it, the readings decide first, window by window, so
// that a file that does not parse whole costs no whole-file parse with
// its error recovery; past MaxWholeFile they decide alone (the build
// before them left such a file unchecked).
func BenchmarkConditionals(b *testing.B) {
	if detect("t.c", nil).checker() == nil {
		b.Skip("C unchecked in this build")
	}
	for _, tables := range []int{250, 2000} {
		before := ifdefTables(tables)
		mid := fmt.Sprintf("opts%d[] = {\n", tables/2)
		for _, tc := range []struct {
			name, row    string
			warn, refuse bool
		}{
			{"plain-row", "\t{\"new\", 1},\n", false, false},
			{"ifdef-row", "#ifdef HAVE_NEW\n\t{\"new\", 1},\n#endif\n", true, false},
			{"broken-row", "\t{\"new\" 1},\n", true, true},
		} {
			after := bytes.Replace(before, []byte(mid), []byte(mid+tc.row), 1)
			b.Run(fmt.Sprintf("%dKB/%s", len(before)>>10, tc.name), func(b *testing.B) {
				b.SetBytes(int64(len(before) + len(after)))
				b.ReportAllocs()
				// The readings decide, and an edit they find clean
				// reports no error at all.
				warn := tc.warn && tc.refuse
				for b.Loop() {
					r, err := Check("t.c", before, after)
					if err != nil {
						b.Fatal(err)
					}
					if !r.Checked || !r.OK() != warn || r.Refuses() != tc.refuse {
						b.Fatalf("warn %v refuse %v, want %v %v:\n%s", !r.OK(), r.Refuses(), warn, tc.refuse, r)
					}
				}
			})
		}
	}
}
