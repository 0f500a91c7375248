package apply_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/gitstore/gittest"
)

// BenchmarkCallBigFile measures a whole edit call on a 10 MB file in a
// repository: open, read, locate, apply, diff, land (objects, intent,
// temporary file, rename, journal commit). Each iteration changes the same
// line to a new text, so every call lands and writes a new blob.
func BenchmarkCallBigFile(b *testing.B) {
	dir := gittest.Repo(b, map[string]string{"README": "x\n"})
	var content bytes.Buffer
	for i := 0; content.Len() < 10<<20; i++ {
		fmt.Fprintf(&content, "\tvalue%06d := compute(%6d, \"some text here\") // c\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), content.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	gittest.Git(b, dir, "add", "-A")
	gittest.Git(b, dir, "commit", "-q", "-m", "big")
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	prev := "\tvalue123456 := compute(123456, \"some text here\") // c\n"
	b.SetBytes(int64(content.Len()))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		next := fmt.Sprintf("\tchanged := %d\n", i)
		args, _ := json.Marshal(map[string]any{"filePath": "big.txt", "oldString": prev, "newString": next})
		if _, err := e.Call(context.Background(), "edit", args); err != nil {
			b.Fatal(err)
		}
		prev = next
		i++
	}
}
