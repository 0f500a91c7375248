package gitstore

import (
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// The retry around a replacement that another program holds up, with a
// fake replacement and a fake clock.
func TestRetryTransient(t *testing.T) {
	errBusy := errors.New("sharing violation")
	transient := func(err error) bool { return errors.Is(err, errBusy) }
	var slept time.Duration
	sleep := func(d time.Duration) { slept += d }

	// Held open for three tries, then free: it lands.
	n := 0
	err := retryTransient(func() error {
		if n++; n <= 3 {
			return errBusy
		}
		return nil
	}, transient, replaceRetry, sleep)
	if err != nil || n != 4 || slept != 35*time.Millisecond {
		t.Fatalf("err %v after %d tries, slept %v", err, n, slept)
	}

	// Held open for good: it gives up after the budget with a clear error.
	slept, n = 0, 0
	err = retryTransient(func() error { n++; return errBusy }, transient, replaceRetry, sleep)
	if !errors.Is(err, ErrHeldOpen) || !errors.Is(err, errBusy) || slept < replaceRetry || slept > replaceRetry+100*time.Millisecond {
		t.Fatalf("err %v, slept %v over %d tries", err, slept, n)
	}

	// Any other error fails at once.
	slept, n = 0, 0
	other := errors.New("no such file")
	if err := retryTransient(func() error { n++; return other }, transient, replaceRetry, sleep); err != other || n != 1 || slept != 0 {
		t.Fatalf("err %v after %d tries, slept %v", err, n, slept)
	}
}

// The lock through the platform interface: one holder at a time, its note
// readable by others, a waiter that times out, the lock free again after
// unlock.
func TestLockContract(t *testing.T) {
	name := filepath.Join(t.TempDir(), "graft.lock")
	l, ok, err := acquireLock(name, time.Now().Add(time.Second))
	if err != nil || !ok {
		t.Fatalf("first acquire: %v %v", ok, err)
	}
	if err := l.note("pid 42\nhost here\n"); err != nil {
		t.Fatal(err)
	}
	if h, ok := readLockHolder(name); !ok || h.PID != 42 || h.Host != "here" {
		t.Fatalf("holder %+v %v", h, ok)
	}
	start := time.Now()
	if _, ok, err := acquireLock(name, time.Now().Add(50*time.Millisecond)); ok || err != nil {
		t.Fatalf("second acquire while held: %v %v", ok, err)
	}
	if el := time.Since(start); el < 40*time.Millisecond {
		t.Fatalf("the waiter gave up after %v, before its deadline", el)
	}
	// A waiter that is waiting when the holder lets go gets the lock.
	got := make(chan bool)
	go func() {
		l2, ok, err := acquireLock(name, time.Now().Add(5*time.Second))
		if ok && err == nil {
			_ = l2.unlock()
		}
		got <- ok && err == nil
	}()
	time.Sleep(20 * time.Millisecond)
	if err := l.unlock(); err != nil {
		t.Fatal(err)
	}
	if !<-got {
		t.Fatal("the waiter did not get the lock once it was free")
	}
	if _, ok := readLockHolder(name); ok {
		t.Fatal("the holder note outlived the lock")
	}
}

func TestStateDir(t *testing.T) {
	env := map[string]string{"LOCALAPPDATA": `C:\Users\a\AppData\Local`, "XDG_STATE_HOME": "/x/state"}
	get := func(k string) string { return env[k] }
	home := func() (string, error) { return "/home/a", nil }
	if got := stateDirFor("windows", get, home); got != filepath.Join(`C:\Users\a\AppData\Local`, "graft") {
		t.Errorf("windows: %s", got)
	}
	if got := stateDirFor("linux", get, home); got != "/x/state/graft" {
		t.Errorf("linux: %s", got)
	}
	delete(env, "XDG_STATE_HOME")
	if got := stateDirFor("darwin", get, home); got != "/home/a/.local/state/graft" {
		t.Errorf("darwin: %s", got)
	}
}
