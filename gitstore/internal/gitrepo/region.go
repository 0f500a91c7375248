package gitrepo

import (
	"bytes"
	"fmt"
	"io"
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
