package gitstore

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openForWriting reports whether any process has f's file open for
// writing: Linux grants a read lease on a file only when nobody does
// (fcntl F_SETLEASE F_RDLCK fails with EAGAIN otherwise), and the lease is
// given back at once. known is false where leases are not available (a
// file system without them, leases disabled, a file of another owner
// without CAP_LEASE).
func openForWriting(f *os.File) (writing, known bool) {
	fd := int(f.Fd())
	_, err := unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_RDLCK)
	switch {
	case err == nil:
		_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_UNLCK)
		return false, true
	case errors.Is(err, unix.EAGAIN):
		return true, true
	}
	return false, false
}
