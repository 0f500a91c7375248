//go:build !unix && !windows

package apply

import "syscall"

var diskErrnos = []syscall.Errno{syscall.ENOSPC}
