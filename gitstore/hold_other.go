//go:build !unix

package gitstore

import (
	"errors"
	"io/fs"
	"os"
)

// holdFile reads the file at name, about to be replaced: off Unix an open
// handle would keep it from being replaced (late.go).
func holdFile(name string) *heldFile {
	h := &heldFile{}
	h.refresh(name)
	return h
}

// refresh reads the file again, just before an attempt to replace it.
func (h *heldFile) refresh(name string) {
	b, err := os.ReadFile(name)
	h.snap, h.absent, h.err = b, false, nil
	switch {
	case errors.Is(err, fs.ErrNotExist):
		h.absent = true
	case err != nil:
		h.err = err
	}
}
