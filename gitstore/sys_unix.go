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

// lockFile takes an exclusive flock on f, waiting until the deadline. The
// wait is a blocking flock in the kernel, which hands the lock over the
// moment its holder lets go (polling would leave it idle between tries, and
// many waiters polling would take turns unfairly). The kernel drops the
// lock when its holder dies, so a dead holder's lock is taken over at once.
func lockFile(f *os.File, deadline time.Time) (bool, error) {
	fd := int(f.Fd())
	err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		return true, nil
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
		return false, err
	}
	// A duplicate descriptor shares f's open file description, so a lock
	// taken through it is f's lock; it lets a wait that is given up finish
	// on its own after f is closed.
	dup, err := syscall.Dup(fd)
	if err != nil {
		return false, err
	}
	done := make(chan error, 1)
	go func() {
		for {
			err := syscall.Flock(dup, syscall.LOCK_EX)
			if !errors.Is(err, syscall.EINTR) {
				done <- err
				return
			}
		}
	}()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case err := <-done:
		_ = syscall.Close(dup)
		return err == nil, err
	case <-timer.C:
		// Given up: should the wait still succeed, let go at once.
		go func() {
			if err := <-done; err == nil {
				_ = syscall.Flock(dup, syscall.LOCK_UN)
			}
			_ = syscall.Close(dup)
		}()
		return false, nil
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
