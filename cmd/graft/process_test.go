package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/graftdev/graft/gitstore/gittest"
)

// straceWarmEdit makes a repository with d/a.txt, edits it once (cold: the
// identity is asked of git), then records the second edit (warm) under
// strace with the system calls trace names ("execve,openat"), and returns
// the repository and strace's record. It skips where strace is missing or
// the refs are reftable (moved through git).
func straceWarmEdit(t *testing.T, trace string) (dir string, record []byte) {
	t.Helper()
	dir, graft, traced := straceRepo(t, map[string]string{"d/a.txt": "v0\n"})
	runCmd(t, graft, "-C", dir, "edit", "d/a.txt", "--old", "v0", "--new", "v1")
	return dir, traced(trace, "-C", dir, "edit", "d/a.txt", "--old", "v1", "--new", "v2")
}

// straceRepo makes a repository of files and returns it, the graft
// binary, and record, which runs graft with args under strace with the
// system calls trace names and returns strace's record. It skips where
// strace is missing or the refs are reftable (moved through git).
func straceRepo(t *testing.T, files map[string]string) (dir, graft string, record func(trace string, args ...string) []byte) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("strace is Linux's")
	}
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed")
	}
	graft, err = exec.LookPath("graft") // testscript.Main put this test binary on PATH as graft
	if err != nil {
		t.Fatal(err)
	}
	dir = gittest.Repo(t, files)
	if _, err := os.Stat(filepath.Join(dir, ".git", "reftable")); err == nil {
		t.Skip("reftable refs are read and moved through git")
	}
	return dir, graft, func(trace string, args ...string) []byte {
		t.Helper()
		log := filepath.Join(t.TempDir(), "strace")
		runCmd(t, append([]string{strace, "-f", "-qq", "-o", log, "-e", "trace=" + trace, graft}, args...)...)
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
}

// runCmd runs a command and fails the test, with its output, if it fails.
func runCmd(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// A warm CLI edit (the identity asked of git by an earlier call, whose
// key still holds) starts no process, and reads HEAD and its branch once
// and the journal ref once plus once under its lock to move it: strace's
// record of the whole process. Skipped where strace is missing.
func TestWarmEditStartsNoProcess(t *testing.T) {
	dir, b := straceWarmEdit(t, "execve,open,openat")
	var execs []string
	opened := map[string]int{}
	openRE := regexp.MustCompile(`open(at)?\((AT_FDCWD, )?"([^"]*)"`)
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "execve(") {
			execs = append(execs, line)
		}
		// A ref's file opened O_NOFOLLOW is not read: it is held open
		// as the new one replaces it (DeferFrees).
		if m := openRE.FindStringSubmatch(line); m != nil && !strings.Contains(line, "O_NOFOLLOW") {
			opened[m[3]]++
		}
	}
	if len(execs) != 1 {
		t.Errorf("%d processes started, want graft's own only:\n%s", len(execs), strings.Join(execs, "\n"))
	}
	git := filepath.Join(dir, ".git")
	for name, most := range map[string]int{"HEAD": 1, "refs/heads/main": 1, "refs/graft/main": 2} {
		if n := opened[filepath.Join(git, name)]; n > most {
			t.Errorf("%s opened %d times, want at most %d", name, n, most)
		}
	}
	if got := gittest.Git(t, dir, "show", "refs/graft/main:d/a.txt"); got != "v2\n" {
		t.Fatalf("journal holds %q", got)
	}
}

// A CLI call frees the file versions it replaced (the file's old content,
// the journal ref's old file) after it has released the repository's lock,
// not inside it: freeing waits for the disk on some file systems, and
// writers queued on the lock need not. strace's record of a warm edit: the
// replaced file is held open (opened O_NOFOLLOW) and closed only after the
// lock's flock(LOCK_UN). Skipped where strace is missing.
func TestEditFreesReplacedAfterUnlock(t *testing.T) {
	_, b := straceWarmEdit(t, "openat,close,flock")
	// strace pads a short call to a column before its " = " (and a call
	// resumed after another thread's keeps the padding of its end).
	heldRE := regexp.MustCompile(`openat\(AT_FDCWD, "([^"]*)", [^)]*O_NOFOLLOW[^)]*\)\s+= (\d+)`)
	held := map[string]string{} // fd -> what it holds, until closed
	var freedUnder []string
	unlocked, freed := false, 0
	for _, line := range straceCalls(string(b)) {
		if m := heldRE.FindStringSubmatch(line); m != nil {
			held[m[2]] = m[1]
			continue
		}
		if strings.Contains(line, "LOCK_UN") {
			unlocked = true
			continue
		}
		if rest, ok := strings.CutPrefix(line, "close("); ok {
			fd, _, _ := strings.Cut(rest, ")")
			if name, ok := held[fd]; ok {
				delete(held, fd)
				if unlocked {
					freed++
				} else {
					freedUnder = append(freedUnder, name)
				}
			}
		}
	}
	if !unlocked {
		t.Fatalf("no flock(LOCK_UN) in the record:\n%s", b)
	}
	if len(freedUnder) > 0 {
		t.Errorf("replaced versions freed under the lock: %s", strings.Join(freedUnder, ", "))
	}
	if freed < 2 {
		t.Errorf("%d replaced versions held and freed after the lock, want the file's and the ref's:\n%s", freed, b)
	}
}

// straceCalls is strace -f's record as one line per system call, in the
// order they returned, without the thread ids: a call another thread
// interrupted ("<unfinished ...>") is joined to its "<... resumed>" end.
func straceCalls(record string) []string {
	var calls []string
	pending := map[string]string{}
	for _, line := range strings.Split(record, "\n") {
		pid, call, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			continue
		}
		call = strings.TrimSpace(call)
		if head, ok := strings.CutSuffix(call, "<unfinished ...>"); ok {
			pending[pid] = strings.TrimSpace(head)
			continue
		}
		if strings.HasPrefix(call, "<...") {
			_, tail, _ := strings.Cut(call, "resumed>")
			call = pending[pid] + tail
			delete(pending, pid)
		}
		calls = append(calls, call)
	}
	return calls
}

// The name table of the encodings and the expressions that find a file's
// declared charset are built at their first use, not at start-up, which
// every process pays: GODEBUG=inittrace=1 shows each package's init, and
// those of textedit and charset allocate next to nothing (they allocated
// 26 KB and 18 KB, a tenth of a millisecond, when built at init).
func TestStartupBuildsNoEncodingTables(t *testing.T) {
	graft, err := exec.LookPath("graft")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(graft, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	initRE := regexp.MustCompile(`(?m)^init (\S+) @.*, (\d+) bytes, \d+ allocs`)
	seen := 0
	for _, m := range initRE.FindAllStringSubmatch(string(out), -1) {
		switch m[1] {
		case "github.com/graftdev/graft/internal/textedit", "github.com/graftdev/graft/internal/charset":
			seen++
			if n, _ := strconv.Atoi(m[2]); n > 4096 {
				t.Errorf("%s allocates %d bytes at start-up, want at most 4096", m[1], n)
			}
		}
	}
	if seen != 2 {
		t.Fatalf("inittrace shows %d of the two packages:\n%s", seen, out)
	}
}

// The journal ref's lock file is created while the call's data is synced,
// not after its files are in place: by the time the worktree file is
// renamed over, only the ref's write and rename are left. strace's record
// of a warm edit: the create of refs/graft/main.lock comes before the
// rename of the file's temporary copy.
func TestEditLocksRefBeforeRename(t *testing.T) {
	_, b := straceWarmEdit(t, "openat,rename,renameat,renameat2")
	locked, renamed := -1, -1
	for i, call := range straceCalls(string(b)) {
		switch {
		case locked < 0 && strings.HasPrefix(call, "openat(") && strings.Contains(call, "refs/graft/main.lock") && strings.Contains(call, "O_EXCL"):
			locked = i
		case renamed < 0 && strings.HasPrefix(call, "rename") && strings.Contains(call, ".a.txt.graft-"):
			renamed = i
		}
	}
	if locked < 0 || renamed < 0 {
		t.Fatalf("no lock create (%d) or file rename (%d) in the record:\n%s", locked, renamed, b)
	}
	if locked > renamed {
		t.Errorf("the journal ref's lock was created after the file was renamed over")
	}
}

// A branch's first CLI edit starts a new journal, the time to drop the
// journals of removed linked worktrees; where the repository never had
// one (no ref in their namespace, loose or packed) it asks git nothing
// either. strace's record of the process. Skipped where strace is missing.
func TestNewJournalStartsNoProcess(t *testing.T) {
	dir, graft, record := straceRepo(t, map[string]string{"a.txt": "v0\n"})
	runCmd(t, graft, "-C", dir, "edit", "a.txt", "--old", "v0", "--new", "v1") // the identity asked of git
	gittest.Git(t, dir, "checkout", "-q", "-b", "feature")
	b := record("execve", "-C", dir, "edit", "a.txt", "--old", "v1", "--new", "v2")
	if n := strings.Count(string(b), "execve("); n != 1 {
		t.Errorf("%d processes started by a new journal's first edit, want graft's own only:\n%s", n, b)
	}
	if got := gittest.Git(t, dir, "show", "refs/graft/feature:a.txt"); got != "v2\n" {
		t.Fatalf("the feature journal holds %q", got)
	}
}
