package gitstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as a small graft process: with GITSTORE_HELPER
// set it opens the store (recovering whatever is left over), optionally
// lands the changes in the JSON file GITSTORE_CHANGES, and exits. The
// crash tests run it with GRAFT_TEST_CRASH so it SIGKILLs itself at a step.
func TestMain(m *testing.M) {
	switch os.Getenv("GITSTORE_HELPER") {
	case "":
		os.Exit(m.Run())
	case "open":
		if _, err := Open(os.Getenv("GITSTORE_DIR")); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	case "land":
		if os.Getenv("GITSTORE_EARLY_TEMPS") != "" {
			earlyTemps = 0 // every call takes the big calls' order
		}
		var o OpenOptions
		if os.Getenv("GITSTORE_POOL") != "" {
			o.PoolFiles = 16 // as graft mcp: the call's files made ahead
		}
		s, err := OpenWith(os.Getenv("GITSTORE_DIR"), o)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if o.PoolFiles > 0 {
			s.repo()
			s.FillPool()()
		}
		if v := os.Getenv("GITSTORE_FSIZE"); v != "" {
			n, _ := strconv.ParseUint(v, 10, 64)
			if err := limitFileSize(n); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
		}
		var changes []Change
		b, _ := os.ReadFile(os.Getenv("GITSTORE_CHANGES"))
		if err := json.Unmarshal(b, &changes); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if _, err := s.Land(context.Background(), Call{Tool: "multi_edit"}, changes); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// helper runs the test binary as a graft process; it returns the exit
// error (a *exec.ExitError when killed or failed).
func helper(t *testing.T, mode, dir, changes, crash string, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GITSTORE_HELPER="+mode, "GITSTORE_DIR="+dir, "GITSTORE_CHANGES="+changes, CrashEnv+"="+crash)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func killed(err error) bool {
	ee, ok := err.(*exec.ExitError)
	if !ok {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

var crashBefore = map[string]string{
	"a.txt":       "alpha\n",
	"dir/b.txt":   "beta\nline two\n",
	"dir/c/d.txt": strings.Repeat("delta line\n", 2000),
	"gone.txt":    "to be deleted\n",
}

var crashAfter = map[string]string{
	"a.txt":       "ALPHA\n",
	"dir/b.txt":   "beta\nLINE TWO\n",
	"dir/c/d.txt": strings.Repeat("DELTA LINE\n", 2000),
	"new/e.txt":   "created\n",
}

func crashChanges(t *testing.T) string {
	var changes []Change
	for _, p := range []string{"a.txt", "dir/b.txt", "dir/c/d.txt", "gone.txt", "new/e.txt"} {
		c := Change{Path: p}
		if v, ok := crashBefore[p]; ok {
			c.Old = []byte(v)
		}
		if v, ok := crashAfter[p]; ok {
			c.New = []byte(v)
		}
		changes = append(changes, c)
	}
	b, _ := json.Marshal(changes)
	name := filepath.Join(t.TempDir(), "changes.json")
	os.WriteFile(name, b, 0o644)
	return name
}

// worktreeState says whether every file is wholly before or wholly after.
func worktreeState(dir string) string {
	match := func(want map[string]string) bool {
		for _, p := range []string{"a.txt", "dir/b.txt", "dir/c/d.txt", "gone.txt", "new/e.txt"} {
			b, err := os.ReadFile(filepath.Join(dir, p))
			v, ok := want[p]
			if ok != (err == nil) || ok && string(b) != v {
				return false
			}
		}
		return true
	}
	switch {
	case match(crashBefore):
		return "before"
	case match(crashAfter):
		return "after"
	}
	return "mixed"
}

func leftovers(t *testing.T, dir string) []string {
	var out []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if fi != nil && fi.IsDir() && fi.Name() == ".git" {
			return filepath.SkipDir
		}
		if fi != nil && strings.HasSuffix(fi.Name(), ".tmp") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestCrashAtEveryStep(t *testing.T) {
	steps := []struct {
		crash string
		want  string // state after recovery
	}{
		{"locked", "before"}, {"pending", "before"}, {"objects", "before"}, {"intent", "before"},
		{"temp:1", "before"}, {"temp:2", "before"}, {"temp:4", "before"},
		{"rename:1", "before"}, {"rename:2", "before"}, {"rename:3", "before"},
		{"rename:4", "before"}, {"rename:5", "before"},
		{"ref", "after"}, {"done", "after"},
	}
	// Both orders of a transaction: a small call announces its temporary
	// files in the intent record, a big one in graft-temps first; and a
	// small call whose objects, temporary files and ref lock are files
	// made ahead (OpenOptions.PoolFiles, as graft mcp).
	for _, order := range []struct{ name, env string }{{"small", ""}, {"big", "GITSTORE_EARLY_TEMPS=1"}, {"pool", "GITSTORE_POOL=1"}} {
		for _, step := range steps {
			t.Run(order.name+"/"+step.crash, func(t *testing.T) {
				crashAtStep(t, step.crash, step.want, order.env)
			})
		}
	}
}

// crashAtStep lands crashChanges killed at crash, recovers, and checks the
// worktree is wholly want ("before" or "after") and consistent.
func crashAtStep(t *testing.T, crash, want, env string) {
	dir := newRepo(t, crashBefore)
	tip := git(t, dir, "rev-parse", "HEAD")
	changes := crashChanges(t)
	out, err := helper(t, "land", dir, changes, crash, env)
	if !killed(err) {
		t.Fatalf("helper was not killed at %s: %v\n%s", crash, err, out)
	}
	if _, err := helper(t, "open", dir, "", ""); err != nil {
		t.Fatalf("recovery: %v", err)
	}
	if got := worktreeState(dir); got != want {
		t.Fatalf("after recovery the worktree is %s, want %s", got, want)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Fatalf("temporary files left: %v", l)
	}
	if fi, err := os.Stat(filepath.Join(dir, ".git", "graft-intent.json")); err == nil && fi.Size() > 1 {
		t.Fatal("intent record left")
	}
	journal, _ := exec.Command("git", "-C", dir, "rev-parse", "-q", "--verify", "refs/graft/main").Output()
	if want == "before" && len(journal) > 0 {
		t.Fatalf("journal moved on a rolled-back call")
	}
	if want == "after" {
		for p, want := range crashAfter {
			if got := git(t, dir, "show", "refs/graft/main:"+p); got != strings.TrimSuffix(want, "\n") {
				t.Fatalf("journal's %s differs from the worktree", p)
			}
		}
		if out, err := exec.Command("git", "-C", dir, "cat-file", "-e", "refs/graft/main:gone.txt").CombinedOutput(); err == nil {
			t.Fatalf("journal still has gone.txt: %s", out)
		}
	}
	if git(t, dir, "rev-parse", "HEAD") != tip {
		t.Fatal("HEAD moved")
	}
	if env == "GITSTORE_POOL=1" && crash == "done" {
		// The call took its files from the pool of 16 (the rest are left
		// for a later pool's sweep, as a killed server's are).
		if left, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "tmp_obj_graft-*")); len(left) >= 16 {
			t.Fatalf("the call took no file from the pool (%d left)", len(left))
		}
	}
	fsck(t, dir)
	// The repository is usable afterwards: the same call lands (or,
	// when it already landed, conflicts).
	out, err = helper(t, "land", dir, changes, "")
	if want == "before" && err != nil {
		t.Fatalf("call after recovery: %v\n%s", err, out)
	}
	if want == "after" && (err == nil || !strings.Contains(out, "changed since")) {
		t.Fatalf("repeated call after roll forward: %v\n%s", err, out)
	}
	if worktreeState(dir) != "after" {
		t.Fatal("not after")
	}
	// The journal ref's lock file, taken while the call's data is synced,
	// may be left by the crash; the next move takes it over and leaves none.
	filepath.Walk(filepath.Join(dir, ".git", "refs"), func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".lock") {
			t.Errorf("ref lock file left: %s", p)
		}
		return nil
	})
	fsck(t, dir)
}

func TestCrashDuringRecovery(t *testing.T) {
	dir := newRepo(t, crashBefore)
	changes := crashChanges(t)
	if _, err := helper(t, "land", dir, changes, "rename:3"); err == nil {
		t.Fatal("not killed")
	}
	if worktreeState(dir) != "mixed" {
		t.Fatal("the crash did not leave a mixed worktree to recover")
	}
	for i := 1; i <= 2; i++ {
		if _, err := helper(t, "open", dir, "", fmt.Sprintf("recover:%d", i)); !killed(err) {
			t.Fatalf("recovery not killed at file %d: %v", i, err)
		}
	}
	if _, err := helper(t, "open", dir, "", ""); err != nil {
		t.Fatal(err)
	}
	if got := worktreeState(dir); got != "before" {
		t.Fatalf("worktree %s", got)
	}
	fsck(t, dir)
}

func TestParallelProcessesSerialise(t *testing.T) {
	dir := newRepo(t, map[string]string{"count.txt": "0\n"})
	// Each process reads count.txt, and lands count+1 computed from what it
	// read: with the lock and the re-check, every landing is either an
	// increment of the current value or a conflict, never a lost update.
	const procs = 6
	var wg sync.WaitGroup
	var mu sync.Mutex
	landed, conflicts := 0, 0
	for i := 0; i < procs; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for attempt := 0; attempt < 20; attempt++ {
				b, err := os.ReadFile(filepath.Join(dir, "count.txt"))
				if err != nil {
					t.Error(err)
					return
				}
				var n int
				fmt.Sscanf(string(b), "%d", &n)
				ch, _ := json.Marshal([]Change{{Path: "count.txt", Old: b, New: []byte(fmt.Sprintf("%d\n", n+1))}})
				name := filepath.Join(t.TempDir(), "c.json")
				os.WriteFile(name, ch, 0o644)
				out, err := helper(t, "land", dir, name, "")
				mu.Lock()
				if err == nil {
					landed++
					mu.Unlock()
					return
				}
				conflicts++
				mu.Unlock()
				if !strings.Contains(out, "changed since") {
					t.Errorf("unexpected failure: %v\n%s", err, out)
					return
				}
			}
			t.Error("never landed")
		}()
	}
	wg.Wait()
	if got := readFile(t, dir, "count.txt"); got != fmt.Sprintf("%d\n", procs) {
		t.Fatalf("count.txt = %q after %d landings and %d conflicts: a lost update", got, landed, conflicts)
	}
	if got := git(t, dir, "rev-list", "--count", "main..refs/graft/main"); got != fmt.Sprint(procs) {
		t.Fatalf("%s journal commits, want %d", got, procs)
	}
	fsck(t, dir)
}

func TestDeadLockHolderTakenOverLiveOneWaitedFor(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	changes := filepath.Join(t.TempDir(), "c.json")
	ch, _ := json.Marshal([]Change{{Path: "a.txt", Old: []byte("a\n"), New: []byte("A\n")}})
	os.WriteFile(changes, ch, 0o644)
	// A process killed while holding the lock.
	if _, err := helper(t, "land", dir, changes, "locked"); !killed(err) {
		t.Fatal("not killed")
	}
	h, ok := readLockHolder(filepath.Join(dir, ".git", "graft.lock"))
	if !ok || h.Alive {
		t.Fatalf("dead holder not recorded: %+v %v", h, ok)
	}
	start := time.Now()
	if out, err := helper(t, "land", dir, changes, ""); err != nil {
		t.Fatalf("dead holder's lock not taken over: %v\n%s", err, out)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("waited for a dead holder")
	}

	// A live holder: this process holds the lock; a short timeout fails
	// with a clear error naming it.
	s := open(t, dir)
	s2, err := OpenWith(dir, OpenOptions{LockTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	err = s.withLock(func() error {
		_, err := s2.Land(ctx, Call{Tool: "edit"}, []Change{{Path: "a.txt", Old: []byte("A\n"), New: []byte("B\n")}})
		return err
	})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) || !errors.Is(err, ErrLocked) {
		t.Fatalf("live lock: %v", err)
	}
}

func TestOpenStoreRecoversAnotherProcessCrash(t *testing.T) {
	dir := newRepo(t, crashBefore)
	s := open(t, dir) // a long-running process, such as an MCP server
	if _, err := helper(t, "land", dir, crashChanges(t), "rename:2"); !killed(err) {
		t.Fatal("not killed")
	}
	if _, err := s.Land(ctx, Call{Tool: "edit"}, []Change{{Path: "a.txt", Old: []byte("alpha\n"), New: []byte("alpha!\n")}}); err != nil {
		t.Fatalf("land after another process crashed: %v", err)
	}
	if s.Recovered() == nil || s.Recovered().Forward {
		t.Fatalf("recovery not reported: %+v", s.Recovered())
	}
	if readFile(t, dir, "dir/b.txt") != crashBefore["dir/b.txt"] || readFile(t, dir, "a.txt") != "alpha!\n" {
		t.Fatal("not rolled back before the new call")
	}
	fsck(t, dir)
}

func TestTornIntentIgnored(t *testing.T) {
	dir := newRepo(t, crashBefore)
	// A record cut short while it was being written: no file was touched
	// yet, so it must be ignored, not acted on.
	os.WriteFile(filepath.Join(dir, ".git", "graft-intent.json"), []byte("{\n  \"version\": 1,\n  \"ref\": \"refs/gr"), 0o644)
	s := open(t, dir)
	if s.hasIntent() || s.Recovered() != nil {
		t.Fatal("torn intent record acted on")
	}
	if worktreeState(dir) != "before" {
		t.Fatal("files touched")
	}
}

// A transaction that cannot write its intent record fails before anything
// is written: no file changes, no temporary file is left, the journal does
// not move, and its objects (computed, not yet written) are dropped, so the
// next call of the same session lands as if it had never run. Both orders
// of a transaction are checked.
func TestIntentRecordFailureChangesNothing(t *testing.T) {
	for _, early := range []int{1 << 20, 0} {
		t.Run(fmt.Sprintf("earlyTemps=%d", early), func(t *testing.T) {
			defer func(v int) { earlyTemps = v }(earlyTemps)
			earlyTemps = early
			dir := newRepo(t, map[string]string{"d/a.txt": "a0\n", "d/e/b.txt": "b0\n"})
			s := open(t, dir)
			edit(t, s, "edit", "d/a.txt", "a0", "a1")
			tip := git(t, dir, "rev-parse", "refs/graft/main")
			record := filepath.Join(dir, ".git", "graft-intent.json")
			if err := os.Remove(record); err != nil {
				t.Fatal(err)
			}
			// A link to itself cannot be opened, by root either.
			if err := os.Symlink("graft-intent.json", record); err != nil {
				t.Fatal(err)
			}
			_, err := s.Land(context.Background(), Call{Tool: "edit"}, []Change{
				{Path: "d/e/b.txt", Old: b("b0\n"), New: b("b1\n")},
				{Path: "d/new.txt", New: b("new\n")},
			})
			if err == nil || !strings.Contains(err.Error(), "intent record") {
				t.Fatalf("Land with an unwritable intent record: %v", err)
			}
			if got := readFile(t, dir, "d/e/b.txt"); got != "b0\n" {
				t.Fatalf("b.txt changed: %q", got)
			}
			if _, err := os.Stat(filepath.Join(dir, "d/new.txt")); err == nil {
				t.Fatal("new.txt created")
			}
			if l := leftovers(t, dir); len(l) > 0 {
				t.Fatalf("temporary files left: %v", l)
			}
			if got := git(t, dir, "rev-parse", "refs/graft/main"); got != tip {
				t.Fatal("journal moved")
			}
			if out, err := exec.Command("git", "-C", dir, "cat-file", "-e", hashOf(t, dir, "b1\n")).CombinedOutput(); err == nil {
				t.Fatalf("the failed call's blob was written: %s", out)
			}
			os.Remove(record)
			edit(t, s, "edit", "d/e/b.txt", "b0", "b1")
			edit(t, s, "edit", "d/a.txt", "a1", "a2")
			if got := git(t, dir, "show", "refs/graft/main:d/e/b.txt"); got != "b1" {
				t.Fatalf("journal holds %q", got)
			}
			fsck(t, dir)
		})
	}
}

// hashOf is git's blob id of content.
func hashOf(t *testing.T, dir, content string) string {
	t.Helper()
	cmd := exec.Command("git", "-C", dir, "hash-object", "--stdin")
	cmd.Stdin = strings.NewReader(content)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
