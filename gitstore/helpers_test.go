package gitstore

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testEnv isolates git and graft from the machine's configuration.
func testEnv(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".state"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE", "EMAIL", "GIT_DIR", "GIT_WORK_TREE", CrashEnv} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
}

// newRepo makes a repository with one commit holding files.
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	testEnv(t)
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "config", "user.name", "Test User")
	git(t, dir, "config", "user.email", "test@example.com")
	for name, content := range files {
		writeFile(t, dir, name, content)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "initial", "--allow-empty")
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimRight(string(out), "\n")
}

func fsck(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("git", "fsck", "--strict", "--no-progress")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil || strings.Contains(string(out), "error") {
		t.Fatalf("git fsck: %v\n%s", err, out)
	}
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

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
