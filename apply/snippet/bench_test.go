package snippet

import (
	"fmt"
	"strings"
	"testing"

	"github.com/graftdev/graft/matcher"
)

// BenchmarkForgottenTrailingMarker: a snippet of 20 new calls after the
// first line of a big file, its trailing marker forgotten, so every line
// of the file is one the region would delete; the deletion rule reads
// them all before it refuses. Its cost must grow with the file, not with
// its square.
func BenchmarkForgottenTrailingMarker(b *testing.B) {
	for _, kb := range []int{200, 2000} {
		var f strings.Builder
		f.WriteString("const assert = require('assert')\n")
		for i := 0; f.Len() < kb*1000; i++ {
			fmt.Fprintf(&f, "test(\"case %d\", () => {\n  const v%d = make(%d)\n  assert.equal(v%d.size, %d)\n})\n", i, i, i, i, i)
		}
		content := []byte(f.String())
		var sn strings.Builder
		sn.WriteString("const assert = require('assert')\n")
		for i := range 20 {
			fmt.Fprintf(&sn, "helperNumber%d(assert)\n", i)
		}
		s := Parse(sn.String())
		b.Run(fmt.Sprintf("%dKB", kb), func(b *testing.B) {
			for b.Loop() {
				if _, err := Plan(content, s, matcher.Options{}); err == nil {
					b.Fatal("landed a snippet that deletes the whole file")
				}
			}
		})
	}
}

// BenchmarkForgottenMarkerOverTable is the worst shape for the identity
// reading (package doc, part 1): every line of the file is a row of one
// table, so each is every other's sibling, and every removed row reads
// like the snippet's new rows (the same call), so each one's identity is
// read. Its cost must grow with the file, not with its square.
func BenchmarkForgottenMarkerOverTable(b *testing.B) {
	for _, kb := range []int{20, 200} {
		var f strings.Builder
		f.WriteString("const table = []\n")
		for i := 0; f.Len() < kb*1000; i++ {
			fmt.Fprintf(&f, "register(\"name%d\", handler%d)\n", i, i)
		}
		content := []byte(f.String())
		var sn strings.Builder
		sn.WriteString("const table = []\n")
		for i := range 20 {
			fmt.Fprintf(&sn, "register(\"other%d\", handlerOther%d)\n", i, i)
		}
		s := Parse(sn.String())
		b.Run(fmt.Sprintf("%dKB", kb), func(b *testing.B) {
			for b.Loop() {
				if _, err := Plan(content, s, matcher.Options{}); err == nil {
					b.Fatal("landed a snippet that deletes the whole table")
				}
			}
		})
	}
}

// BenchmarkMisrememberedLastLine: a 2 MB file and a region whose 40-line
// head stands exactly and whose last line stands nowhere, the refusal a
// misremembered line gets. The reading with shorter heads (roomForTail)
// runs on this path: without its byte comparison first it searched the
// file for each of the 39 shorter heads (0.96 s against 0.06 s).
func BenchmarkMisrememberedLastLine(b *testing.B) {
	var f strings.Builder
	for i := 0; f.Len() < 2<<20; i++ {
		fmt.Fprintf(&f, "func f%d(x int) int {\n\tif x > %d {\n\t\treturn x\n\t}\n\treturn %d\n}\n\n", i, i, i)
	}
	content := f.String()
	ls := strings.SplitAfter(content, "\n")
	code := "// ... existing code ...\n" + strings.Join(ls[7000:7040], "") + "\tnewCall()\n\treturn misremembered(42)\n// ... existing code ...\n"
	s := Parse(code)
	b.ResetTimer()
	for range b.N {
		if _, err := Plan([]byte(content), s, matcher.Options{}); err == nil {
			b.Fatal("landed")
		}
	}
}

// BenchmarkTypedReading: a snippet that rewrites the body of the last
// method of a Java class of 2,000 methods (10,000 lines). In a language
// whose functions are declared by what they return (dialect.typed), every
// line the rule reads for definitions is also matched as a declaration;
// "untyped" plans the same snippet with that reading off, the baseline of
// the same run.
func BenchmarkTypedReading(b *testing.B) {
	var f strings.Builder
	f.WriteString("final class Big {\n")
	const n = 2000
	for i := range n {
		fmt.Fprintf(&f, "  public int value%d(int k) {\n    return k * %d;\n  }\n\n", i, i)
	}
	f.WriteString("}\n")
	content := []byte(f.String())
	sn := fmt.Sprintf("// ... existing code ...\n  public int value%d(int k) {\n    int twice = k * 2;\n    return twice * %d;\n  }\n}\n", n-1, n-1)
	for _, ext := range []string{"java", "untyped"} {
		s := Parse(sn)
		s.Ext = ext
		b.Run(ext, func(b *testing.B) {
			for b.Loop() {
				if _, err := Plan(content, s, matcher.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
