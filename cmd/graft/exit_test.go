package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/graftdev/graft/gitstore"
	"github.com/graftdev/graft/gitstore/gittest"
)

// graft land and status on a repository whose lock another process holds
// are refusals (exit 1, a conflict), as every tool's call is: their
// errors go through the same classification as the tools'.
func TestHeldLockExitsOne(t *testing.T) {
	dir := gittest.Repo(t, map[string]string{"a.txt": "a\n"})
	run := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := Main(append([]string{"-C", dir}, args...), strings.NewReader(""), &out, &errb)
		return code, errb.String()
	}
	if code, stderr := run("edit", "a.txt", "--old", "a", "--new", "b"); code != exitApplied {
		t.Fatalf("edit: exit %d: %s", code, stderr)
	}
	t.Setenv("GRAFT_LOCK_TIMEOUT", "50ms")
	holder, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	err = holder.WithLock(func() error {
		for _, args := range [][]string{
			{"land", "-m", "x"},
			{"edit", "a.txt", "--old", "b", "--new", "c"},
			{"undo"},
		} {
			code, stderr := run(args...)
			if code != exitRefused || !strings.Contains(stderr, "locked by another graft process") {
				t.Errorf("%s with the lock held: exit %d, want %d: %s", args[0], code, exitRefused, stderr)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if code, stderr := run("land", "-m", "x"); code != exitApplied {
		t.Fatalf("land once free: exit %d: %s", code, stderr)
	}
	if code, stderr := run("land", "-m", "again"); code != exitRefused || !strings.Contains(stderr, "nothing to land") {
		t.Fatalf("land of an empty journal: exit %d: %s", code, stderr)
	}
}
