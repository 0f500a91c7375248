//go:build unix

package gitstore

import (
	"errors"
	"os"
	"strconv"
	"syscall"
)

func currentUID() (int, bool) {
	uid := os.Geteuid()
	if uid == 0 {
		if v, err := strconv.Atoi(os.Getenv("SUDO_UID")); err == nil {
			uid = v
		}
	}
	return uid, true
}

func ownerUID(name string) (int, bool) {
	fi, err := os.Lstat(name)
	if err != nil {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// processAlive reports whether pid names a live process on this host.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// crashNow kills the process the way a power cut or kill -9 would.
func crashNow() {
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}

// statID is what tells a file's versions apart beyond size and time: its
// inode (a file replaced by rename gets a new one).
func statID(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return strconv.FormatUint(uint64(st.Ino), 10)
	}
	return ""
}
