//go:build unix

package gitrepo

import (
	"os"

	"golang.org/x/sys/unix"
)

// poolSupported: a file can be renamed while it is open.
const poolSupported = true

// lockPoolFile marks a pool file as held by this process (the lock goes
// with the process).
func lockPoolFile(f *os.File) error {
	return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
}

// tryLockPoolFile reports whether no process holds the pool file's lock
// (taking it).
func tryLockPoolFile(f *os.File) bool {
	return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil
}
