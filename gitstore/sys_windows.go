//go:build windows

package gitstore

import (
	"os"

	"golang.org/x/sys/windows"
)

// currentUID and ownerUID: Windows has no numeric owners; the
// safe.directory ownership check is not made there.
func currentUID() (int, bool)     { return 0, false }
func ownerUID(string) (int, bool) { return 0, false }

// processAlive reports whether pid names a running process.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	const stillActive = 259
	return code == stillActive
}

// crashNow ends the process at once, as a kill would.
func crashNow() { os.Exit(137) }

// statID: no inode through os.FileInfo here; size and time tell versions
// apart.
func statID(os.FileInfo) string { return "" }
