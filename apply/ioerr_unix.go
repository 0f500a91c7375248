//go:build unix

package apply

import "syscall"

var diskErrnos = []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT, syscall.EIO}
