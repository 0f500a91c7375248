//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// poolInodes lists the inodes of the files graft mcp made ahead in the
// objects directory.
func poolInodes(t *testing.T, dir string) map[uint64]bool {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "tmp_obj_graft-*"))
	out := map[uint64]bool{}
	for _, n := range names {
		if fi, err := os.Lstat(n); err == nil {
			out[fi.Sys().(*syscall.Stat_t).Ino] = true
		}
	}
	return out
}

// graft mcp makes the files of its next calls after answering: the next
// edit's objects are those files, and none is left once the server ends.
func TestMCPMakesFilesAhead(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "one\n"})
	s := startMCP(t, dir)
	res, _ := s.call("edit", map[string]any{"filePath": "a.txt", "oldString": "one", "newString": "two"}, nil)
	if res["isError"] == true {
		t.Fatalf("edit: %v", text(res))
	}
	var pool map[uint64]bool
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(10 * time.Millisecond) {
		if pool = poolInodes(t, dir); len(pool) == mcpPoolFiles {
			break
		}
	}
	if len(pool) != mcpPoolFiles {
		t.Fatalf("%d files made ahead after the first call, want %d", len(pool), mcpPoolFiles)
	}
	res, _ = s.call("edit", map[string]any{"filePath": "a.txt", "oldString": "two", "newString": "three"}, nil)
	if res["isError"] == true {
		t.Fatalf("edit: %v", text(res))
	}
	blob := strings.TrimSpace(gitRun(t, dir, "rev-parse", "refs/graft/main:a.txt"))
	fi, err := os.Lstat(filepath.Join(dir, ".git", "objects", blob[:2], blob[2:]))
	if err != nil {
		t.Fatal(err)
	}
	if !pool[fi.Sys().(*syscall.Stat_t).Ino] {
		t.Error("the second edit's blob was created in the call, not made ahead")
	}
	if code := s.closeWait(); code != 0 {
		t.Fatalf("server exited %d", code)
	}
	if left := poolInodes(t, dir); len(left) != 0 {
		t.Errorf("%d files made ahead are left after the server ended", len(left))
	}
	gitRun(t, dir, "fsck", "--strict")
}

// A read-only server writes nothing: it makes no files ahead.
func TestMCPReadOnlyMakesNoFiles(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "one\n"})
	s := startMCP(t, dir, "--read-only")
	for range 3 {
		if res, _ := s.call("file_read", map[string]any{"path": "a.txt"}, nil); res["isError"] == true {
			t.Fatalf("file_read: %v", text(res))
		}
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(poolInodes(t, dir)); n != 0 {
		t.Errorf("a read-only server made %d files", n)
	}
	s.closeWait()
}
