//go:build !unix

package gitrepo

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// mapFile opens a file for reading at any offset (no mapping here: read
// through the file).
func mapFile(name string) (region, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &fileRegion{f: f, n: fi.Size()}, nil
}

// OpenFile is os.OpenFile (one system call less where the platform allows
// it: region_unix.go).
func OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}

func rename(from, to string) error { return os.Rename(from, to) }

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
