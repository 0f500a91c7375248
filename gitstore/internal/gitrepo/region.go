package gitrepo

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// region is a read-only file held for reading at any offset: mapped into
// memory where the system can (mmap), else read through the open file.
type region interface {
	size() int64
	// bytes returns the n bytes at off: a view of the mapping (not to be
	// written) or a copy read from the file.
	bytes(off, n int64) ([]byte, error)
	// reader reads the n bytes from off on.
	reader(off, n int64) io.Reader
	close()
}

// fileRegion reads a region through its open file.
type fileRegion struct {
	f *os.File
	n int64
}

func (r *fileRegion) size() int64 { return r.n }

func (r *fileRegion) bytes(off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || off+n > r.n {
		return nil, fmt.Errorf("%s: %d bytes at %d out of the file", r.f.Name(), n, off)
	}
	b := make([]byte, n)
	if _, err := r.f.ReadAt(b, off); err != nil {
		return nil, err
	}
	return b, nil
}

func (r *fileRegion) reader(off, n int64) io.Reader { return io.NewSectionReader(r.f, off, n) }

func (r *fileRegion) close() { r.f.Close() }

// memRegion is a mapped file.
type memRegion struct {
	b     []byte
	unmap func()
}

func (r *memRegion) size() int64 { return int64(len(r.b)) }

func (r *memRegion) bytes(off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || off+n > int64(len(r.b)) {
		return nil, fmt.Errorf("%d bytes at %d out of the file", n, off)
	}
	return r.b[off : off+n : off+n], nil
}

func (r *memRegion) reader(off, n int64) io.Reader {
	if off < 0 || n < 0 || off+n > int64(len(r.b)) {
		return bytes.NewReader(nil)
	}
	return bytes.NewReader(r.b[off : off+n])
}

func (r *memRegion) close() {
	if r.unmap != nil {
		r.unmap()
		r.unmap = nil
	}
}
