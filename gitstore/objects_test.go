package gitstore

import (
	"bytes"
	"compress/zlib"
	"io"
	"strings"
	"testing"
)

func TestZlibStoredRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 100, 0xffff - 7, 0xffff, 0x10000, 200000} {
		content := []byte(strings.Repeat("graft\n", n/6+1)[:n])
		var buf bytes.Buffer
		zlibStored(&buf, []byte("blob 1\x00"), content)
		r, err := zlib.NewReader(&buf)
		if err != nil {
			t.Fatalf("%d: %v", n, err)
		}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("%d: %v", n, err)
		}
		if !bytes.Equal(got, append([]byte("blob 1\x00"), content...)) {
			t.Fatalf("%d: round trip differs", n)
		}
	}
}
