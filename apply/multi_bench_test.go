package apply_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/gitstore/gittest"
)

// BenchmarkMultiEditOneFile makes one multi_edit (a dry run) of 1,000 and
// of 10,000 edits of one 10,000-line file, each edit one line found by
// its text (fixtures/bench/climem's case). Each edit is located in the
// result of the ones before it, so each costs a pass over the file; the
// ns/edit of the two should be about the same. They were not while every
// edit composed its changes with all the changes before it and made the
// content from all of them (issue 32 item 10).
func BenchmarkMultiEditOneFile(b *testing.B) {
	const lines = 10000
	var file strings.Builder
	for i := range lines {
		fmt.Fprintf(&file, "line %06d: some text to make the line as long as a line of code\n", i)
	}
	dir := gittest.Repo(b, map[string]string{"big.txt": file.String()})
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("edits=%d", n), func(b *testing.B) {
			var list []map[string]any
			for i := 0; i < lines; i += lines / n {
				list = append(list, map[string]any{"file_path": "big.txt", "old_string": fmt.Sprintf("line %06d: some", i), "new_string": fmt.Sprintf("LINE %06d: some", i)})
			}
			args, _ := json.Marshal(map[string]any{"description": "many edits", "edits": list, "dry_run": true})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Call(context.Background(), "multi_edit", args); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/edit")
		})
	}
}
