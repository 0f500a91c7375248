package apply_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/gitstore/gittest"
)

// BenchmarkNotebookCall measures a whole edit call on a 500-cell notebook
// (code cells of 12 lines, every other one with a text output, markdown
// cells between) through its view, against the same bytes as a plain
// text file ("text" sub-benchmark) edited as they are: read, parse, locate
// in the view, map the change to the cell's source value, diff, land.
func BenchmarkNotebookCall(b *testing.B) {
	var cells []string
	for i := 0; i < 500; i++ {
		var src []string
		if i%5 == 0 {
			src = append(src, fmt.Sprintf("## Section %d\n", i), "\n", "Some explanation of what follows, with *emphasis*.")
			cells = append(cells, fmt.Sprintf("  {\n   \"cell_type\": \"markdown\",\n   \"id\": \"c%04d\",\n   \"metadata\": {},\n   \"source\": %s\n  }", i, jsonLines(src)))
			continue
		}
		for j := 0; j < 12; j++ {
			src = append(src, fmt.Sprintf("value_%d_%d = compute(%d, %d)  # step %d\n", i, j, i, j, j))
		}
		if i == 251 {
			src = append(src, "target = 0\n")
		}
		src = append(src, fmt.Sprintf("print(value_%d_0)", i))
		outputs := "[]"
		if i%2 == 0 {
			outputs = fmt.Sprintf("[\n    {\n     \"name\": \"stdout\",\n     \"output_type\": \"stream\",\n     \"text\": [\n      \"%d\\n\"\n     ]\n    }\n   ]", i)
		}
		cells = append(cells, fmt.Sprintf("  {\n   \"cell_type\": \"code\",\n   \"execution_count\": %d,\n   \"id\": \"c%04d\",\n   \"metadata\": {},\n   \"outputs\": %s,\n   \"source\": %s\n  }", i, i, outputs, jsonLines(src)))
	}
	content := []byte("{\n \"cells\": [\n" + strings.Join(cells, ",\n") + "\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n")
	for _, name := range []string{"notebook.ipynb", "text.txt"} {
		b.Run(strings.TrimSuffix(strings.TrimSuffix(name, ".ipynb"), ".txt"), func(b *testing.B) {
			dir := gittest.Repo(b, map[string]string{"README": "x\n"})
			if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
				b.Fatal(err)
			}
			gittest.Git(b, dir, "add", "-A")
			gittest.Git(b, dir, "commit", "-q", "-m", "big")
			e, err := apply.Open(apply.Options{Dir: dir})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(content)))
			b.ReportAllocs()
			prev, i := "target = 0", 0
			for b.Loop() {
				next := fmt.Sprintf("target = %d", i+1)
				args, _ := json.Marshal(map[string]any{"filePath": name, "oldString": prev, "newString": next})
				if _, err := e.Call(context.Background(), "edit", args); err != nil {
					b.Fatal(err)
				}
				prev = next
				i++
			}
			if got, _ := os.ReadFile(filepath.Join(dir, name)); bytes.Equal(got, content) {
				b.Fatal("nothing changed")
			}
		})
	}
}

func jsonLines(src []string) string {
	var q []string
	for _, s := range src {
		b, _ := json.Marshal(s)
		q = append(q, "    "+string(b))
	}
	return "[\n" + strings.Join(q, ",\n") + "\n   ]"
}
