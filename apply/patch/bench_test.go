package patch

import (
	"fmt"
	"strings"
	"testing"
)

// benchFile is a Go-like file of n lines, each distinct.
func benchFile(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "func f%d(x int) int {\n", i)
		case 1:
			fmt.Fprintf(&b, "\ty := x * %d\n", i)
		case 2:
			fmt.Fprintf(&b, "\treturn y + %d\n", i)
		default:
			b.WriteString("}\n")
		}
	}
	return b.String()
}

// benchPatch changes the function at line at, stating line stated; with
// reindent its lines use four spaces where the file has tabs.
func benchPatch(at, stated int, reindent bool) string {
	ind := "\t"
	if reindent {
		ind = "    "
	}
	i := at - 1
	return fmt.Sprintf("--- a/f.go\n+++ b/f.go\n@@ -%d,4 +%d,4 @@\n func f%d(x int) int {\n %sy := x * %d\n-%sreturn y + %d\n+%sreturn y - %d\n }\n",
		stated, stated, i, ind, i+1, ind, i+2, ind, i+2)
}

// BenchmarkApply measures parsing and locating one hunk in the middle of
// a file: at its stated line, 30 lines away (offset search), and
// re-indented with stale numbers (the matcher's fuzzy tiers).
func BenchmarkApply(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		content := []byte(benchFile(n))
		at := n/2 + 1 - (n/2)%4
		for _, bc := range []struct {
			name string
			text string
		}{
			{"exact", benchPatch(at, at, false)},
			{"offset", benchPatch(at, at-30, false)},
			{"fuzzy", benchPatch(at, at-30, true)},
		} {
			b.Run(fmt.Sprintf("%s/%dk", bc.name, n/1000), func(b *testing.B) {
				src := memSource{"f.go": content}
				b.SetBytes(int64(len(content)))
				b.ReportAllocs()
				for b.Loop() {
					p, err := Parse(bc.text)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := Apply(p, src, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
