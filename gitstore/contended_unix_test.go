//go:build unix

package gitstore

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// A call that found the repository lock held by another process writes
// its objects on one goroutine: other writers keep the cores busy. One
// that took the lock at once writes them on two.
func TestContendedCallWritesObjectsSerially(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	s := open(t, dir)
	before := splitBatches.Load()
	edit(t, s, "edit", "a.txt", "alpha", "ALPHA")
	if splitBatches.Load() != before+1 {
		t.Fatal("an uncontended call did not split its objects over two goroutines")
	}

	// Another holder (a second open file description: flock excludes it
	// even in this process) keeps the lock for a moment.
	f, err := os.OpenFile(s.lockPath(), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		defer close(released)
		time.Sleep(50 * time.Millisecond)
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	}()
	before = splitBatches.Load()
	edit(t, s, "edit", "b.txt", "beta", "BETA")
	<-released
	if splitBatches.Load() != before {
		t.Error("a call that waited for the lock split its objects over two goroutines")
	}
	if got := readFile(t, dir, "b.txt"); got != "BETA\n" {
		t.Errorf("b.txt = %q", got)
	}
}
