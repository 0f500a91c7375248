package apply

import (
	"io"
	"os"
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
