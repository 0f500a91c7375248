//go:build unix

package gitstore

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openReplaced opens the file a transaction is about to replace or
// remove, so that its inode outlives its name. It never follows a link
// and never blocks on a special file.
func openReplaced(name string) (*os.File, error) {
	return openFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}

// holdFile opens the file at name, about to be replaced, so that every
// write made to it up to the moment it is read is seen (late.go).
func holdFile(name string) *heldFile {
	f, err := openReplaced(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &heldFile{absent: true}
	case err != nil:
		return &heldFile{err: err}
	}
	return &heldFile{f: f}
}

// refresh does nothing on Unix: the open file sees every write.
func (h *heldFile) refresh(string) {}
