package apply

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/graftdev/graft/gitstore/gittest"
)

// BenchmarkEncodingOf is what determining a UTF-8 file's encoding adds to
// opening it: the attribute files and the .editorconfig files up from a
// file three directories deep.
func BenchmarkEncodingOf(b *testing.B) {
	dir := gittest.Repo(b, map[string]string{"README": "x\n", ".gitattributes": "*.bin binary\n", ".editorconfig": "root = true\n[*]\nindent_style = tab\n"})
	rel := "a/b/c/f.go"
	abs := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		b.Fatal(err)
	}
	data := []byte("package f // héllo\n")
	e, err := Open(Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(abs, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("encodingOf", func(b *testing.B) {
		tx := e.Begin("edit", true)
		for b.Loop() {
			if enc, _, _ := tx.encodingOf(rel, abs, data, true); enc.Name() != "UTF-8" {
				b.Fatal(enc)
			}
		}
	})
	// The whole read, which determines the encoding once, for scale.
	b.Run("file_read", func(b *testing.B) {
		for b.Loop() {
			if _, err := runFileRead(context.Background(), e, &FileReadRequest{Path: rel}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
