package apply_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
)

// linkPatch is a git patch that creates path as a symbolic link to target.
func linkPatch(path, target string) string {
	return "diff --git a/" + path + " b/" + path + "\nnew file mode 120000\n--- /dev/null\n+++ b/" + path +
		"\n@@ -0,0 +1 @@\n+" + target + "\n\\ No newline at end of file\n"
}

// A patch's mode 120000 makes a symbolic link, as git apply does, when
// the link leads inside the worktree; one leading outside or into the git
// directory, or a change to an existing link, is refused. A link is never
// written as a regular file holding its target (issue 32 item 6).
func TestPatchSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("graft makes no symbolic links on Windows")
	}
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "target.txt"), []byte("hi\n"))
	writeFile(t, filepath.Join(dir, "m.txt"), []byte("target.txt"))
	writeFile(t, filepath.Join(dir, "sub", "x.txt"), []byte("x\n"))
	commitAll(t, dir)
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "away")); err != nil { // a directory link leading out
		t.Fatal(err)
	}
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	call := func(tool string, args map[string]any) error {
		b, _ := json.Marshal(args)
		_, err := e.Call(context.Background(), tool, b)
		return err
	}
	isLinkTo := func(path, target string) {
		t.Helper()
		fi, err := os.Lstat(filepath.Join(dir, path))
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is not a symbolic link: %v %v", path, fi.Mode(), err)
		}
		if got, _ := os.Readlink(filepath.Join(dir, path)); got != target {
			t.Fatalf("%s -> %q, want %q", path, got, target)
		}
		if tree := git(t, dir, "ls-tree", "refs/graft/main", path); !strings.HasPrefix(tree, "120000 ") {
			t.Fatalf("the journal records %s as %q, want mode 120000", path, tree)
		}
	}

	// Created, inside the worktree (a dangling one too); a dry run
	// creates nothing.
	if err := call("apply_patch", map[string]any{"patch": linkPatch("dry", "target.txt"), "dry_run": true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "dry")); err == nil {
		t.Fatal("a dry run created the link")
	}
	if err := call("apply_patch", map[string]any{"patch": linkPatch("link", "target.txt")}); err != nil {
		t.Fatal(err)
	}
	isLinkTo("link", "target.txt")
	if err := call("apply_patch", map[string]any{"patch": linkPatch("sub/up", "../target.txt") + linkPatch("later", "sub/not-yet")}); err != nil {
		t.Fatal(err)
	}
	isLinkTo("sub/up", "../target.txt")
	isLinkTo("later", "sub/not-yet")

	// A mode change makes the file a link to its content.
	if err := call("apply_patch", map[string]any{"patch": "diff --git a/m.txt b/m.txt\nold mode 100644\nnew mode 120000\n"}); err != nil {
		t.Fatal(err)
	}
	isLinkTo("m.txt", "target.txt")

	// Undo takes the links back, redo makes them links again.
	if err := call("undo", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "m.txt")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("undo left m.txt %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "m.txt")); string(b) != "target.txt" {
		t.Fatalf("undo left m.txt holding %q", b)
	}
	if err := call("redo", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	isLinkTo("m.txt", "target.txt")

	// Refused: out of the worktree (directly, through a link, absolute),
	// into the git directory, and a change to a link.
	for _, c := range []struct {
		name, patch string
		code        apply.Code
	}{
		{"up and out", linkPatch("out1", "../outside"), apply.CodePermission},
		{"absolute", linkPatch("out2", "/etc/passwd"), apply.CodePermission},
		{"through a link", linkPatch("out3", "away/x"), apply.CodePermission},
		{"through a new link's way", linkPatch("sub/out4", "../../x"), apply.CodePermission},
		{"git directory", linkPatch("out5", ".git/config"), apply.CodePermission},
		{"delete a link", "diff --git a/link b/link\ndeleted file mode 120000\n--- a/link\n+++ /dev/null\n@@ -1 +0,0 @@\n-target.txt\n\\ No newline at end of file\n", apply.CodeInvalid},
	} {
		err := call("apply_patch", map[string]any{"patch": c.patch})
		if apply.CodeOf(err) != c.code {
			t.Errorf("%s: got %v, want code %d", c.name, err, c.code)
		}
	}
	for _, p := range []string{"out1", "out2", "out3", "sub/out4", "out5"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s was created", p)
		}
	}
	isLinkTo("link", "target.txt")
	if b, _ := os.ReadFile(filepath.Join(dir, "target.txt")); string(b) != "hi\n" {
		t.Errorf("target.txt = %q", b)
	}
}
