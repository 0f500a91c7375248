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

// An object written in stored blocks is a zlib stream that reads back as
// written, at every block boundary, and writing it allocates no
// compressor: a flate writer of any level holds about 650 KB of tables,
// which a pooled writer kept for the life of a server.
func TestStoredObjectsNeedNoCompressor(t *testing.T) {
	for _, n := range []int{0, 1, 65535, 65536, 3*65535 + 7, CompressLimit + 10} {
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
		if n <= StoredLimit || n >= CompressLimit {
			if a := after.TotalAlloc - before.TotalAlloc; a > 64<<10 {
				t.Errorf("%d bytes: writing stored blocks allocated %d bytes", n, a)
			}
		}
		zr, err := zlib.NewReader(&out)
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if want := append(head, content...); !bytes.Equal(got, want) {
			t.Fatalf("%d bytes: read back %d bytes that differ", n, len(got))
		}
	}
}

// The writers of compressed objects outlive garbage collections: a
// long-running server collects a few times a second, and a pool emptied by
// each collection made a new 650 KB compressor for most big objects, whose
// garbage raised the heap's goal (the soak's resident memory). Writing a
// compressed object after two collections allocates no compressor.
func TestLooseWritersOutliveCollections(t *testing.T) {
	n := StoredLimit + 4096
	content := []byte(strings.Repeat("compressed bytes\n", n/17+1)[:n])
	write := func() uint64 {
		var out bytes.Buffer
		out.Grow(2 * n)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := writeLoose(&out, "blob", n, [][]byte{content}); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		zr, err := zlib.NewReader(&out)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if want := append(fmt.Appendf(nil, "blob %d\x00", n), content...); !bytes.Equal(got, want) {
			t.Fatalf("read back %d bytes that differ", len(got))
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	write() // the first makes the compressor
	runtime.GC()
	runtime.GC()
	if a := write(); a > 256<<10 {
		t.Errorf("after two collections, a compressed object allocated %d bytes: a new compressor", a)
	}
}
