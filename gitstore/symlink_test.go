package gitstore

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A call that makes symbolic links (a file turned into one, a new one) is
// wholly before or wholly after a crash at any step of its landing, like
// any call: recovery reads and writes links as links.
func TestCrashWithSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("graft makes no symbolic links on Windows")
	}
	before := map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"}
	link := fs.ModeSymlink | 0o777
	changes := []Change{
		{Path: "a.txt", Old: []byte("alpha\n"), New: []byte("b.txt"), Mode: link},
		{Path: "dir/ln", New: []byte("../b.txt"), Mode: link},
	}
	b, _ := json.Marshal(changes)
	name := filepath.Join(t.TempDir(), "changes.json")
	os.WriteFile(name, b, 0o644)
	state := func(dir string) string {
		fi, err := os.Lstat(filepath.Join(dir, "a.txt"))
		_, lnErr := os.Lstat(filepath.Join(dir, "dir/ln"))
		switch {
		case err == nil && fi.Mode().IsRegular() && lnErr != nil:
			if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) == "alpha\n" {
				return "before"
			}
		case err == nil && fi.Mode()&fs.ModeSymlink != 0 && lnErr == nil:
			t1, _ := os.Readlink(filepath.Join(dir, "a.txt"))
			t2, _ := os.Readlink(filepath.Join(dir, "dir/ln"))
			if t1 == "b.txt" && t2 == "../b.txt" {
				return "after"
			}
		}
		return "mixed"
	}
	for _, step := range []struct{ crash, want string }{
		{"intent", "before"}, {"rename:1", "before"}, {"rename:2", "before"}, {"ref", "after"}, {"done", "after"},
	} {
		t.Run(step.crash, func(t *testing.T) {
			dir := newRepo(t, before)
			out, err := helper(t, "land", dir, name, step.crash)
			if !killed(err) {
				t.Fatalf("helper was not killed at %s: %v\n%s", step.crash, err, out)
			}
			if _, err := helper(t, "open", dir, "", ""); err != nil {
				t.Fatalf("recovery: %v", err)
			}
			if got := state(dir); got != step.want {
				t.Fatalf("after recovery the worktree is %s, want %s", got, step.want)
			}
			if step.want == "after" {
				for _, p := range []string{"a.txt", "dir/ln"} {
					if tree := git(t, dir, "ls-tree", "refs/graft/main", p); !strings.HasPrefix(tree, "120000 ") {
						t.Errorf("the journal records %s as %q", p, tree)
					}
				}
			}
			fsck(t, dir)
		})
	}
}
