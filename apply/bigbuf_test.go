package apply

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// Big files are read as two halves at once; the content must come out
// the same whatever the size the caller believes the file has (a file
// that grew or shrank after it was stat'ed).
func TestReadContentBigFile(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, size := range []int{hugeThreshold, hugeThreshold + 4097, 3*hugeThreshold + 1} {
		want := make([]byte, size)
		rng.Read(want)
		name := filepath.Join(t.TempDir(), "big")
		if err := os.WriteFile(name, want, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, believed := range []int{size, size - 5000, size + 5000, hugeThreshold} {
			got, err := readContent(name, int64(believed))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("size %d read as %d: %d bytes, differs from the file", size, believed, len(got))
			}
		}
	}
}
