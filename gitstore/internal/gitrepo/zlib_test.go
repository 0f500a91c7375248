package gitrepo

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// An object is written in stored blocks, a zlib stream that reads back as
// written at every block boundary, and writing it allocates no compressor
// at any size: a flate writer holds about 1.2 MB of tables, which a
// server either kept for its life or made again after each collection.
func TestStoredObjectsNeedNoCompressor(t *testing.T) {
	for _, n := range []int{0, 1, 65535, 65536, 3*65535 + 7, 400 << 10, 2<<20 + 10} {
		content := []byte(strings.Repeat("stored bytes\n", n/13+1)[:n])
		var z levelWriter
		var out bytes.Buffer
		out.Grow(n + 1024)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		z.Reset(&out)
		head := fmt.Appendf(nil, "blob %d\x00", n)
		if _, err := z.Write(head); err != nil {
			t.Fatal(err)
		}
		if _, err := z.Write(content); err != nil {
			t.Fatal(err)
		}
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if a := after.TotalAlloc - before.TotalAlloc; a > 64<<10 {
			t.Errorf("%d bytes: writing stored blocks allocated %d bytes", n, a)
		}
		readsBack(t, &out, append(head, content...))
	}
}

// readsBack fails unless the zlib stream in out inflates to want.
func readsBack(t *testing.T, out *bytes.Buffer, want []byte) {
	t.Helper()
	zr, err := zlib.NewReader(out)
	if err != nil {
		t.Fatalf("%d bytes: %v", len(want), err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%d bytes: %v", len(want), err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%d bytes: read back %d bytes that differ", len(want), len(got))
	}
}

// The writers of loose objects outlive garbage collections: a
// long-running server collects a few times a second, and a pool emptied by
// each collection made a new writer and a 64 KB buffer for most objects.
// Writing an object after two collections allocates neither.
func TestLooseWritersOutliveCollections(t *testing.T) {
	n := 200 << 10
	content := []byte(strings.Repeat("object bytes\n", n/13+1)[:n])
	write := func() uint64 {
		var out bytes.Buffer
		out.Grow(2 * n)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := writeLoose(&out, "blob", n, [][]byte{content}); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		readsBack(t, &out, append(fmt.Appendf(nil, "blob %d\x00", n), content...))
		return after.TotalAlloc - before.TotalAlloc
	}
	write() // the first makes the writer and its buffer
	runtime.GC()
	runtime.GC()
	if a := write(); a > 16<<10 {
		t.Errorf("after two collections, writing an object allocated %d bytes: a new writer", a)
	}
}
