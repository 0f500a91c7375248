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
