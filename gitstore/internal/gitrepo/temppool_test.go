//go:build linux

package gitrepo

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/graftdev/graft/gitstore/gittest"
)

// poolFiles lists the pool files in dir's objects directory.
func poolFiles(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, ".git", "objects", poolPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func inode(t *testing.T, name string) uint64 {
	t.Helper()
	fi, err := os.Lstat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ino
}

// A filled pool gives a call its objects, temporary copy and ref lock as
// files made before the call: each is one of the pool's inodes, renamed.
func TestPoolFilesBecomeObjectsTempsAndLocks(t *testing.T) {
	dir := gittest.Repo(t, nil)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "one")
	r := Open(filepath.Join(dir, ".git"), filepath.Join(dir, ".git"), formatOf(t, dir))
	defer r.Close()
	r.StartPool(4)
	r.FillPool()
	if got := r.PoolSize(); got != 4 {
		t.Fatalf("pool holds %d files, want 4", got)
	}
	made := map[uint64]bool{}
	for _, name := range poolFiles(t, dir) {
		made[inode(t, name)] = true
	}
	if len(made) != 4 {
		t.Fatalf("%d pool files on disk, want 4", len(made))
	}

	// An object.
	content := []byte("pooled object\n")
	h := formatOf(t, dir).Sum("blob", [][]byte{content})
	if err := r.Write("blob", [][]byte{content}, h); err != nil {
		t.Fatal(err)
	}
	obj := filepath.Join(dir, ".git", "objects", string(h[:2]), string(h[2:]))
	if !made[inode(t, obj)] {
		t.Errorf("the object %s was created, not taken from the pool", h)
	}
	if fi, _ := os.Lstat(obj); fi.Mode().Perm()&0o222 != 0 {
		t.Errorf("the object is writable: %v", fi.Mode())
	}
	if out := gittest.Git(t, dir, "cat-file", "-p", string(h)); out != string(content) && out != strings.TrimSuffix(string(content), "\n") {
		t.Errorf("git reads the object as %q", out)
	}

	// A temporary copy.
	tmp := filepath.Join(dir, ".a.txt.tmp")
	f := r.TempFile(tmp)
	if f == nil {
		t.Fatal("TempFile: no file from a pool of 3")
	}
	f.Close()
	if !made[inode(t, tmp)] {
		t.Error("the temporary file was created, not taken from the pool")
	}

	// A ref's lock: the lock file is a pool file, and the ref moves.
	head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	l, err := r.LockRef(RefUpdate{Name: "refs/graft/test", New: ID(head)})
	if err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(dir, ".git", "refs", "graft", "test.lock")
	if !made[inode(t, lock)] {
		t.Error("the ref's lock file was created, not taken from the pool")
	}
	if err := l.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "refs/graft/test")); got != head {
		t.Errorf("refs/graft/test = %s, want %s", got, head)
	}
	if _, err := os.Lstat(lock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file is still there: %v", err)
	}
	if got := r.PoolSize(); got != 1 {
		t.Errorf("pool holds %d files after three were taken, want 1", got)
	}
	r.ClosePool()
	if left := poolFiles(t, dir); len(left) != 0 {
		t.Errorf("ClosePool left %v", left)
	}
	if out := gittest.Git(t, dir, "fsck", "--strict"); strings.Contains(out, "error") {
		t.Errorf("git fsck: %s", out)
	}
}

// A ref lock that exists is git's lock held by someone else: taking it
// from the pool must not replace it.
func TestPoolLockKeepsAnotherHoldersLock(t *testing.T) {
	dir := gittest.Repo(t, nil)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "one")
	head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	r := Open(filepath.Join(dir, ".git"), filepath.Join(dir, ".git"), formatOf(t, dir))
	defer r.Close()
	r.StartPool(2)
	r.FillPool()
	lock := filepath.Join(dir, ".git", "refs", "heads", "main.lock")
	if err := os.WriteFile(lock, []byte("held by another git\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.LockRef(RefUpdate{Name: "refs/heads/main", Old: ID(head), New: ID(head)}); err == nil {
		t.Fatal("LockRef took a lock another process holds")
	}
	if b, _ := os.ReadFile(lock); string(b) != "held by another git\n" {
		t.Errorf("the other holder's lock file now holds %q", b)
	}
	if got := r.PoolSize(); got != 2 {
		t.Errorf("pool holds %d files, want its 2 back", got)
	}
	r.ClosePool()
}

// The pool files a process that died left are removed by the next pool's
// first fill; a live process's (locked) are not.
func TestPoolRemovesLeftoversOfEndedProcesses(t *testing.T) {
	dir := gittest.Repo(t, nil)
	objects := filepath.Join(dir, ".git", "objects")
	old := time.Now().Add(-2 * poolStaleAge)
	dead := filepath.Join(objects, poolPrefix+"dead")
	if err := os.WriteFile(dead, []byte("half an object"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(dead, old, old)
	live, err := createTemp(objects, poolPrefix, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if err := lockPoolFile(live); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(live.Name(), old, old)
	young := filepath.Join(objects, poolPrefix+"young")
	if err := os.WriteFile(young, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	gitTmp := filepath.Join(objects, "tmp_obj_abcdef") // git's own
	if err := os.WriteFile(gitTmp, nil, 0o444); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(gitTmp, old, old)

	r := Open(filepath.Join(dir, ".git"), filepath.Join(dir, ".git"), formatOf(t, dir))
	defer r.Close()
	r.StartPool(1)
	r.FillPool()
	defer r.ClosePool()
	if _, err := os.Lstat(dead); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a dead process's pool file is still there (%v)", err)
	}
	for _, keep := range []string{live.Name(), young, gitTmp} {
		if _, err := os.Lstat(keep); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(keep), err)
		}
	}
}

// A pool file removed by another process's sweep after it was taken
// costs the call nothing: the object is written the usual way.
func TestPoolFileRemovedMeanwhile(t *testing.T) {
	dir := gittest.Repo(t, nil)
	r := Open(filepath.Join(dir, ".git"), filepath.Join(dir, ".git"), formatOf(t, dir))
	defer r.Close()
	r.StartPool(1)
	r.FillPool()
	for _, name := range poolFiles(t, dir) {
		os.Remove(name)
	}
	content := []byte("written anyway\n")
	h := formatOf(t, dir).Sum("blob", [][]byte{content})
	if err := r.Write("blob", [][]byte{content}, h); err != nil {
		t.Fatal(err)
	}
	if _, data, err := r.Read(h); err != nil || string(data) != string(content) {
		t.Fatalf("Read = %q, %v", data, err)
	}
	// The same for a temporary copy and a lock: the removed file is
	// dropped from the pool, not put back to fail again.
	r.ClosePool()
	r.pool = nil
	r.StartPool(2)
	r.FillPool()
	for _, name := range poolFiles(t, dir) {
		os.Remove(name)
	}
	if f := r.TempFile(filepath.Join(dir, ".x.tmp")); f != nil {
		t.Fatal("TempFile returned a file that was removed")
	}
	if f := r.lockFromPool(filepath.Join(dir, ".git", "x.lock")); f != nil {
		t.Fatal("lockFromPool returned a file that was removed")
	}
	if n := r.PoolSize(); n != 0 {
		t.Errorf("pool holds %d files that were removed", n)
	}
	r.ClosePool()
}
