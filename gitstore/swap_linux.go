package gitstore

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// exchangeFiles swaps the files at a and b in one step (renameat2 with
// RENAME_EXCHANGE): each name then holds the other's file. It fails with
// errNoSwap where the file system cannot.
func exchangeFiles(a, b string) error { return renameat2(a, b, unix.RENAME_EXCHANGE) }

// renameNoReplace renames a to b unless b exists (fs.ErrExist then), in
// one step (RENAME_NOREPLACE); errNoSwap where the file system cannot.
func renameNoReplace(a, b string) error { return renameat2(a, b, unix.RENAME_NOREPLACE) }

func renameat2(a, b string, flags uint) error {
	for {
		err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, flags)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EOPNOTSUPP):
			return errNoSwap
		}
		return &os.LinkError{Op: "rename", Old: a, New: b, Err: err}
	}
}
