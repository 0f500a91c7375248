package apply

import (
	"errors"
	"syscall"
)

// diskFailure reports whether err comes from the disk refusing a write or
// a read: full, over quota, or failing (ENOSPC, EDQUOT, EIO, and their
// Windows forms). Such a call was refused by the machine, not by a bug in
// graft: the transaction rolled back, so nothing changed, and it is
// CodeIO, not CodeInternal.
func diskFailure(err error) bool {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return false
	}
	for _, e := range diskErrnos {
		if errno == e {
			return true
		}
	}
	return false
}
