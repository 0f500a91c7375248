//go:build windows

package apply

import "syscall"

// ERROR_HANDLE_DISK_FULL (39) and ERROR_DISK_FULL (112), as Windows
// reports a full disk; ERROR_CRC (23) for a failing one.
var diskErrnos = []syscall.Errno{39, 112, 23}
