//go:build linux

package gitrepo

import (
	"os"

	"golang.org/x/sys/unix"
)

// renameNoReplace renames from to to, failing when to exists (atomically:
// what O_EXCL is to a create, so that it takes a lock as git's create
// does).
func renameNoReplace(from, to string) error {
	for {
		err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return &os.LinkError{Op: "renameat2", Old: from, New: to, Err: err}
		}
		return nil
	}
}
