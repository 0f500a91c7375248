package snippet

import (
	"errors"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/graftdev/graft/matcher"
	"golang.org/x/tools/txtar"
)

// apply splices the replacements into content.
func apply(content string, reps []Replacement) string {
	sort.Slice(reps, func(i, j int) bool { return reps[i].Start < reps[j].Start })
	var b strings.Builder
	pos := 0
	for _, r := range reps {
		b.WriteString(content[pos:r.Start])
		b.WriteString(r.New)
		pos = r.End
	}
	b.WriteString(content[pos:])
	return b.String()
}

// TestTable runs testdata/*.txtar: sections content, snippet and want (or
// the comment's "refuse: notfound|ambiguous|deletes|ends" and "reason:").
func TestTable(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	kinds := map[string]error{"notfound": ErrNotFound, "ambiguous": ErrAmbiguous, "deletes": ErrDeletes, "ends": ErrEnds}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sec := map[string]string{}
			for _, f := range ar.Files {
				sec[f.Name] = string(f.Data)
			}
			opts := map[string]string{}
			for _, l := range strings.Split(string(ar.Comment), "\n") {
				if k, v, ok := strings.Cut(l, ":"); ok {
					opts[strings.TrimSpace(k)] = strings.TrimSpace(v)
				}
			}
			reps, err := Plan([]byte(sec["content"]), Parse(sec["snippet"]), matcher.Options{})
			if want, ok := opts["refuse"]; ok {
				if err == nil {
					t.Fatalf("landed, want a refusal (%s):\n%s", want, apply(sec["content"], reps))
				}
				if !errors.Is(err, kinds[want]) || !strings.Contains(err.Error(), opts["reason"]) {
					t.Fatalf("refused with %v, want %s containing %q", err, want, opts["reason"])
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := apply(sec["content"], reps); got != sec["want"] {
				t.Fatalf("got\n%s\nwant\n%s", got, sec["want"])
			}
		})
	}
}

func TestIsMarker(t *testing.T) {
	for _, l := range []string{
		"// ... existing code ...", "    // ... existing code ...", "# ... existing code ...", "/* ... */",
		"<!-- ... existing code ... -->", "{/* ... existing code ... */}", "// ...", "// … existing code …",
		"-- ... rest of the code ...", "// ... keep existing imports ...", "// ... (existing methods unchanged) ...",
		"// ... rest of file unchanged", "  # ...", "; ... existing code ...",
	} {
		if !IsMarker(l) {
			t.Errorf("%q is a marker", l)
		}
	}
	for _, l := range []string{
		"...", "    ...", "x = ...", "// TODO: handle errors ...", "// ... then we call the server ...",
		"# existing code", "// existing code", "print('...')", "/* see below ... for details */",
	} {
		if IsMarker(l) {
			t.Errorf("%q is not a marker", l)
		}
	}
}
