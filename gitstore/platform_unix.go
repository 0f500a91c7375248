//go:build unix

package gitstore

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// flockLock is the repository lock on Unix: an exclusive flock on the lock
// file, whose holder note is the file's own content.
type flockLock struct {
	f      *os.File
	waited bool // another process held the lock when it was asked for
}

// acquireLock takes an exclusive flock on name, waiting until the deadline
// (ok false when it passes). The wait is a blocking flock in the kernel,
// which hands the lock over the moment its holder lets go (polling would
// leave it idle between tries, and many waiters polling would take turns
// unfairly). The kernel drops the lock when its holder dies, so a dead
// holder's lock is taken over at once.
func acquireLock(name string, deadline time.Time) (repoLock, bool, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, err
	}
	ok, waited := true, false
	if err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		waited = true
		ok, err = flockWait(f, deadline)
	}
	if !ok || err != nil {
		f.Close()
		return nil, false, err
	}
	return flockLock{f, waited}, true, nil
}

// contended reports whether another process held the lock when it was
// asked for.
func (l flockLock) contended() bool { return l.waited }

func flockWait(f *os.File, deadline time.Time) (bool, error) {
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

func (l flockLock) note(text string) error {
	if err := l.f.Truncate(0); err != nil {
		return err
	}
	_, err := l.f.WriteAt([]byte(text), 0)
	return err
}

func (l flockLock) unlock() error {
	_ = l.f.Truncate(0)
	err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("gitstore: unlock: %w", err)
	}
	return nil
}

// holderPath is where the holder note of the lock file name is: the lock
// file itself.
func holderPath(name string) string { return name }

// renameOver is rename(2): atomic, and it replaces a file that another
// process has open without complaint. It calls the system directly:
// os.Rename first stats the target to refuse replacing a directory, a
// system call per rename that graft, which only ever renames files over
// files, does not need (rename(2) itself refuses a file over a directory).
func renameOver(tmp, name string) error {
	for {
		err := syscall.Rename(tmp, name)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &os.LinkError{Op: "rename", Old: tmp, New: name, Err: err}
		}
		return nil
	}
}

// transientReplace: no rename error on Unix passes with time.
func transientReplace(error) bool { return false }
