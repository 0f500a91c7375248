package gitrepo

import "io"

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
