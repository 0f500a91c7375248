package gitstore

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// exchangeFiles swaps the files at a and b in one step (renamex_np with
// RENAME_SWAP): each name then holds the other's file. It fails with
// errNoSwap where the file system cannot.
func exchangeFiles(a, b string) error { return renamex(a, b, unix.RENAME_SWAP) }

// renameNoReplace renames a to b unless b exists (fs.ErrExist then), in
// one step (RENAME_EXCL); errNoSwap where the file system cannot.
func renameNoReplace(a, b string) error { return renamex(a, b, unix.RENAME_EXCL) }

func renamex(a, b string, flags uint32) error {
	for {
		err := unix.RenamexNp(a, b, flags)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOTSUP), errors.Is(err, unix.ENOSYS):
			return errNoSwap
		}
		return &os.LinkError{Op: "rename", Old: a, New: b, Err: err}
	}
}
