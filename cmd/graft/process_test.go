package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/graftdev/graft/gitstore/gittest"
)

// A warm CLI edit (the identity asked of git by an earlier call, whose
// key still holds) starts no process, and reads HEAD and its branch once
// and the journal ref once plus once under its lock to move it: strace's
// record of the whole process. Skipped where strace is missing.
func TestWarmEditStartsNoProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("strace is Linux's")
	}
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed")
	}
	graft, err := exec.LookPath("graft") // testscript.Main put this test binary on PATH as graft
	if err != nil {
		t.Fatal(err)
	}
	dir := gittest.Repo(t, map[string]string{"d/a.txt": "v0\n"})
	if _, err := os.Stat(filepath.Join(dir, ".git", "reftable")); err == nil {
		t.Skip("reftable refs are read and moved through git")
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run(graft, "-C", dir, "edit", "d/a.txt", "--old", "v0", "--new", "v1") // cold: asks git who commits
	log := filepath.Join(t.TempDir(), "strace")
	run(strace, "-f", "-qq", "-o", log, "-e", "trace=execve,open,openat", graft, "-C", dir, "edit", "d/a.txt", "--old", "v1", "--new", "v2")
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var execs []string
	opened := map[string]int{}
	openRE := regexp.MustCompile(`open(at)?\((AT_FDCWD, )?"([^"]*)"`)
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "execve(") {
			execs = append(execs, line)
		}
		if m := openRE.FindStringSubmatch(line); m != nil {
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
