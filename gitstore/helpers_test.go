package gitstore

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/gitstore/gittest"
)

// testEnv isolates git and graft from the machine's configuration.
func testEnv(t *testing.T) {
	t.Helper()
	gittest.Isolate(t)
	t.Setenv(CrashEnv, "")
	os.Unsetenv(CrashEnv)
}

// newRepo makes a repository with one commit holding files.
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := gittest.Repo(t, files)
	t.Setenv(CrashEnv, "")
	os.Unsetenv(CrashEnv)
	if len(files) == 0 {
		git(t, dir, "commit", "-q", "-m", "initial", "--allow-empty")
	}
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return strings.TrimRight(gittest.Git(t, dir, args...), "\n")
}

func fsck(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("git", "fsck", "--strict", "--no-progress")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil || strings.Contains(string(out), "error") {
		t.Fatalf("git fsck: %v\n%s", err, out)
	}
}

func writeFile(t *testing.T, dir, name, content string) { gittest.WriteFile(t, dir, name, content) }

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

// edit lands one replacement of old by new in each named file.
func edit(t *testing.T, s *Store, tool string, pairs ...string) Landed {
	t.Helper()
	var changes []Change
	for i := 0; i+2 < len(pairs)+1; i += 3 {
		name, old, nw := pairs[i], pairs[i+1], pairs[i+2]
		cur := readFile(t, s.Root(), name)
		if !strings.Contains(cur, old) {
			t.Fatalf("%s does not contain %q", name, old)
		}
		changes = append(changes, Change{Path: name, Old: []byte(cur), New: []byte(strings.Replace(cur, old, nw, 1))})
	}
	l, err := s.Land(context.Background(), Call{Tool: tool}, changes)
	if err != nil {
		t.Fatalf("Land: %v", err)
	}
	return l
}

func b(s string) []byte { return []byte(s) }

var execCommand = exec.Command
