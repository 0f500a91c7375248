// Package gittest makes scratch git repositories for tests, with git and
// graft isolated from the machine's configuration: one set of helpers for
// the tests of every package (apply, gitstore, cmd/graft, fixtures).
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Isolate points HOME, the XDG directories and git's system config away
// from the machine's, and clears the identity and repository variables a
// developer's shell may set.
func Isolate(t testing.TB) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".state"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
		"GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE", "EMAIL", "GIT_DIR", "GIT_WORK_TREE"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
}

// ObjectFormatEnv names the hash algorithm of the repositories Repo makes
// ("sha1", the default, or "sha256"), so that a package's tests can be run
// again on SHA-256 repositories: GRAFT_TEST_OBJECT_FORMAT=sha256 go test.
//
// There is no such variable for the ref storage: with git 2.45 or later,
// GIT_DEFAULT_REF_FORMAT=reftable makes every git init reftable. The
// CLI's scripts do not pass the environment on, so the suites are run on
// reftable with a git wrapper first on PATH that sets it
// (`GIT_DEFAULT_REF_FORMAT=reftable exec /path/to/git "$@"`).
const ObjectFormatEnv = "GRAFT_TEST_OBJECT_FORMAT"

// Repo makes an isolated repository on branch main with a fixed identity.
// With files (path: content), it commits them as its first commit; with
// none, it has no commit. Its object format is ObjectFormatEnv's.
func Repo(t testing.TB, files map[string]string) string {
	return RepoFormat(t, os.Getenv(ObjectFormatEnv), files)
}

// RepoFormat is Repo with the object format given ("" for git's default).
func RepoFormat(t testing.TB, format string, files map[string]string) string {
	t.Helper()
	Isolate(t)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	if format != "" {
		Git(t, dir, "init", "-q", "-b", "main", "--object-format="+format)
	} else {
		Git(t, dir, "init", "-q", "-b", "main")
	}
	Git(t, dir, "config", "user.name", "Test User")
	Git(t, dir, "config", "user.email", "test@example.com")
	if len(files) > 0 {
		for name, content := range files {
			WriteFile(t, dir, name, content)
		}
		Git(t, dir, "add", "-A")
		Git(t, dir, "commit", "-q", "-m", "initial")
	}
	return dir
}

// Git runs git in dir and returns its combined output; a failure fails the
// test.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// WriteFile writes content to the slash-separated path name below dir,
// making its directories.
func WriteFile(t testing.TB, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
