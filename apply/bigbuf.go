package apply

import (
	"io"
	"os"
	"runtime"
)

// hugeThreshold is the size from which a content buffer is asked to be
// backed by huge pages (bigbuf_linux.go): a buffer of a few megabytes
// costs one page fault per 4 KiB on first touch, which on virtual
// machines was the largest single cost of a one-line edit of a 10 MB file.
const hugeThreshold = 4 << 20

// makeContent returns an empty slice with capacity n for file content.
func makeContent(n int) []byte {
	b := make([]byte, 0, n)
	if n >= hugeThreshold {
		adviseHuge(b[:n])
	}
	return b
}

// readContent reads a whole file of about size bytes (its size when it
// was stat'ed; a file that grew since is read to its end all the same).
func readContent(name string, size int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := makeContent(int(size) + 1)
	if size >= hugeThreshold && runtime.GOMAXPROCS(0) > 1 {
		if n, ok := readHalves(f, b[:size]); ok {
			b = b[:n]
		}
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// readHalves reads the first len(b) bytes of f into b as two halves at
// once: most of the time of reading a big file into fresh memory is the
// page faults of the copy, which two cores take in parallel. ok is false
// (and nothing counts as read) when the file came out shorter, so that
// the caller reads it again in one pass.
func readHalves(f *os.File, b []byte) (n int, ok bool) {
	half := len(b) / 2 &^ (4<<10 - 1)
	var err2 error
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err2 = f.ReadAt(b[half:], int64(half))
	}()
	_, err1 := f.ReadAt(b[:half], 0)
	<-done
	if err1 != nil || err2 != nil {
		return 0, false
	}
	if _, err := f.Seek(int64(len(b)), io.SeekStart); err != nil {
		return 0, false
	}
	return len(b), true
}
