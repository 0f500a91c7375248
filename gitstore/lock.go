package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The lock is the file graft.lock in the worktree's git dir, held with an
// exclusive lock of the operating system (platform.go) for the length of
// one transaction (or one recovery). While held, a note names its holder
// ("pid PID\nhost HOST\n"), so that a waiter's error and `graft status` can
// say who holds it. The system drops the lock when its process dies, so the
// lock of a killed graft is taken over at once; the file itself is never
// removed, which avoids the race in which two waiters both decide a stale
// lock file is theirs to delete.

func (s *Store) lockPath() string { return filepath.Join(s.gitDir, "graft.lock") }

// LockHolder describes the process holding the repository's lock.
type LockHolder struct {
	PID  int
	Host string
	// Alive is false when the holder is a process on this host that no
	// longer exists (its lock is taken over by the next graft command).
	Alive bool
}

// withLock runs fn holding the repository's lock, waiting up to the lock
// timeout for another process to release it. It fails with ErrLocked when
// the wait times out. Calls nest: an inner withLock reuses the outer lock.
func (s *Store) withLock(fn func() error) error {
	if s.lockOwned {
		return fn()
	}
	if err := s.openStorage(); err != nil {
		return err
	}
	l, ok, err := acquireLock(s.lockPath(), time.Now().Add(s.opts.LockTimeout))
	if err != nil {
		return fmt.Errorf("gitstore: lock %s: %w", s.lockPath(), err)
	}
	if !ok {
		who := ""
		if h, ok := readLockHolder(s.lockPath()); ok {
			who = fmt.Sprintf(" (pid %d on %s)", h.PID, h.Host)
		}
		return fmt.Errorf("gitstore: %s: waited %s%s: %w", s.root, s.opts.LockTimeout, who, ErrLocked)
	}
	host := hostname()
	_ = l.note(fmt.Sprintf("pid %d\nhost %s\n", os.Getpid(), host))
	s.lockOwned = true
	// Other writers queued for the lock (flushBatch writes serially then).
	s.lockWaited = false
	if c, ok := l.(interface{ contended() bool }); ok {
		s.lockWaited = c.contended()
	}
	if s.gr != nil {
		// No file is made ahead while the call runs (OpenOptions.PoolFiles).
		gr := s.gr
		gr.PoolBusy(true)
		defer gr.PoolBusy(false)
	}
	s.refreshPacks()
	defer s.keepCaches()
	defer func() {
		s.lockOwned = false
		s.refs.forget()
		s.ident = nil // the next call asks git again
		s.heldTree, s.heldTreeOK = "", false
		_ = l.unlock()
	}()
	crashPoint("locked")
	// A call interrupted in another process since this Store was opened
	// (a long-running MCP server sees this) is recovered before anything.
	if s.hasIntent() {
		if err := s.recover(); err != nil {
			return err
		}
	}
	if s.hasPending() {
		if err := s.recoverTemps(); err != nil {
			return err
		}
	}
	return fn()
}

// readLockHolder reads who wrote the lock file last; ok is false when the
// file is empty (nobody holds it) or missing.
func readLockHolder(name string) (LockHolder, bool) {
	b, err := os.ReadFile(holderPath(name))
	if err != nil || len(b) == 0 {
		return LockHolder{}, false
	}
	var h LockHolder
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, " ")
		switch k {
		case "pid":
			h.PID, _ = strconv.Atoi(v)
		case "host":
			h.Host = v
		}
	}
	host := hostname()
	h.Alive = h.Host != host || processAlive(h.PID)
	return h, h.PID != 0
}

// WithLock runs fn holding the repository's lock, as Land does, so that a
// caller who reads files, computes a change and lands it inside fn is not
// overtaken by another graft process between its read and its write. Land,
// Undo and the other locking calls nest inside fn. A call interrupted by a
// crash is recovered before fn runs. It fails with ErrLocked when the wait
// for another process times out.
func (s *Store) WithLock(fn func() error) error { return s.withLock(fn) }

// hostname is the machine's name, asked once per process.
var hostname = sync.OnceValue(func() string {
	h, _ := os.Hostname()
	return h
})
