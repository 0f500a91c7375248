package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// superproject makes a repository with a submodule lib (holding l.txt),
// initialised, and a nested repository outer/inner that is not a
// submodule.
func superproject(t *testing.T) string {
	t.Helper()
	sub := newRepo(t, map[string]string{"l.txt": "l\n"})
	dir := newRepo(t, map[string]string{"s.txt": "s\n", "outer/o.txt": "o\n"})
	git(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "lib")
	git(t, dir, "commit", "-q", "-m", "add lib")
	inner := filepath.Join(dir, "outer", "inner")
	git(t, dir, "init", "-q", inner)
	writeFile(t, dir, "outer/inner/i.txt", "i\n")
	return dir
}

func TestPathsOfOtherRepositories(t *testing.T) {
	dir := superproject(t)
	s := open(t, dir)
	cases := []struct {
		path, repo        string
		submodule, inited bool
	}{
		{"s.txt", "", false, false},
		{"outer/o.txt", "", false, false},
		{"new/dir/n.txt", "", false, false},
		{"lib/l.txt", "lib", true, true},
		{"lib/deep/new.txt", "lib", true, true},
		{"lib", "lib", true, true},
		{"outer/inner/i.txt", "outer/inner", false, true},
	}
	for _, c := range cases {
		err := s.CheckPath(c.path)
		var oe *OtherRepositoryError
		switch {
		case c.repo == "" && err != nil:
			t.Errorf("%s: %v", c.path, err)
		case c.repo == "":
		case !errors.As(err, &oe) || !errors.Is(err, ErrOtherRepository):
			t.Errorf("%s: %v, want another repository", c.path, err)
		case oe.Repo != c.repo || oe.Submodule != c.submodule || oe.Initialized != c.inited:
			t.Errorf("%s: %+v", c.path, *oe)
		case !strings.Contains(err.Error(), c.repo):
			t.Errorf("%s: message does not name %s: %v", c.path, c.repo, err)
		}
	}

	// Land refuses such a path, alone or with a path of this repository,
	// and nothing is written.
	for _, changes := range [][]Change{
		{{Path: "lib/l.txt", Old: b("l\n"), New: b("L\n")}},
		{{Path: "s.txt", Old: b("s\n"), New: b("S\n")}, {Path: "outer/inner/i.txt", Old: b("i\n"), New: b("I\n")}},
		{{Path: "lib/new.txt", New: b("n\n")}},
	} {
		if _, err := s.Land(context.Background(), Call{Tool: "edit"}, changes); !errors.Is(err, ErrOtherRepository) {
			t.Fatalf("Land %s: %v", changes[len(changes)-1].Path, err)
		}
	}
	if readFile(t, dir, "lib/l.txt") != "l\n" || readFile(t, dir, "s.txt") != "s\n" || readFile(t, dir, "outer/inner/i.txt") != "i\n" || exists(filepath.Join(dir, "lib", "new.txt")) {
		t.Fatal("a refused call wrote a file")
	}
	if got := git(t, dir, "for-each-ref", "refs/graft/"); got != "" {
		t.Fatalf("a refused call made a journal: %s", got)
	}

	// The tree writer never replaces a gitlink.
	tree, err := s.headTree()
	if err != nil {
		t.Fatal(err)
	}
	blob := s.blobHash(b("x\n"))
	for _, set := range []map[string]entry{
		{"lib/x.txt": {Hash: blob, Mode: modeRegular}},
		{"lib": {Hash: blob, Mode: modeRegular}},
		{"lib": {}},
	} {
		if _, err := s.updateTree(tree, set); !errors.Is(err, ErrOtherRepository) {
			t.Fatalf("updateTree %v: %v", set, err)
		}
	}
	fsck(t, dir)
}

func TestUninitialisedSubmodule(t *testing.T) {
	dir := superproject(t)
	clone := filepath.Join(t.TempDir(), "clone")
	git(t, dir, "clone", "-q", dir, clone)
	s := open(t, clone)
	err := s.CheckPath("lib/l.txt")
	var oe *OtherRepositoryError
	if !errors.As(err, &oe) || !oe.Submodule || oe.Initialized || !strings.Contains(err.Error(), "not checked out") {
		t.Fatalf("uninitialised submodule: %v", err)
	}
	if _, err := s.Land(context.Background(), Call{Tool: "write"}, []Change{{Path: "lib/l.txt", New: b("l\n")}}); !errors.Is(err, ErrOtherRepository) {
		t.Fatalf("Land in an uninitialised submodule: %v", err)
	}
	if exists(filepath.Join(clone, "lib", "l.txt")) {
		t.Fatal("file written")
	}
}

// TestInsideSubmodule: graft run in an initialised submodule (whose .git
// is a file naming the superproject's .git/modules/lib) journals there.
func TestInsideSubmodule(t *testing.T) {
	dir := superproject(t)
	lib := filepath.Join(dir, "lib")
	s := open(t, lib)
	if s.Root() != lib || !strings.HasSuffix(filepath.ToSlash(s.GitDir()), ".git/modules/lib") {
		t.Fatalf("root %s, git dir %s", s.Root(), s.GitDir())
	}
	l := edit(t, s, "edit", "l.txt", "l", "L")
	if !strings.HasPrefix(l.Ref, "refs/graft/") {
		t.Fatalf("journal ref %s", l.Ref)
	}
	if got := historyTools(t, s); len(got) != 1 {
		t.Fatalf("history in lib: %q", got)
	}
	if got := git(t, lib, "log", "-1", "--format=%s", l.Ref); got != "edit: l.txt" {
		t.Fatalf("git log in lib: %q", got)
	}
	if _, err := s.Undo(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if readFile(t, lib, "l.txt") != "l\n" {
		t.Fatal("undo in lib")
	}
	// The superproject's journal and tree are untouched.
	if got := git(t, dir, "for-each-ref", "refs/graft/"); got != "" {
		t.Fatalf("superproject journal: %s", got)
	}
	if got := git(t, dir, "ls-tree", "HEAD", "lib"); !strings.HasPrefix(got, "160000 commit") {
		t.Fatalf("gitlink: %s", got)
	}
}

func TestSparseCheckout(t *testing.T) {
	dir := newRepo(t, map[string]string{"a/x.txt": "x\n", "b/y.txt": "y\n", "top.txt": "t\n"})
	git(t, dir, "sparse-checkout", "set", "a")
	if _, err := os.Stat(filepath.Join(dir, "b")); !os.IsNotExist(err) {
		t.Skipf("sparse checkout left b: %v", err)
	}
	s := open(t, dir)
	if err := s.CheckPath("b/y.txt"); err != nil {
		t.Fatalf("path outside the sparse cone: %v", err)
	}
	edit(t, s, "edit", "a/x.txt", "x", "X")
	if got := git(t, dir, "show", "refs/graft/main:b/y.txt"); got != "y" {
		t.Fatalf("journal lost b/y.txt: %q", got)
	}
	fsck(t, dir)
}
