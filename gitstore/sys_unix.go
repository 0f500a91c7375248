//go:build unix

package gitstore

import (
	"errors"
	"os"
	"strconv"
	"syscall"
	"time"
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

// lockFile takes an exclusive flock on f, polling until the deadline.
// The kernel drops the lock when its holder dies, so a dead holder's lock
// is taken over at once.
func lockFile(f *os.File, deadline time.Time) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			return false, err
		}
		if time.Now().After(deadline) {
			return false, nil
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func unlockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}

// crashNow kills the process the way a power cut or kill -9 would.
func crashNow() {
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}
