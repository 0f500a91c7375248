package gitstore

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/graftdev/graft/gitstore/gittest"
)

// Repository formats graft does not handle are refused before anything is
// read or written, each with a message naming what it found. The formats
// are set in a crafted config of a SHA-1 repository; reftable is refused
// there only when the installed git is older than 2.45 (it is 2.39 on the
// machines CI runs on).
func TestRepositoryFormats(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config []string // git config key value pairs
		refuse string   // substring of the refusal; "" lands
	}{
		{"version 0 ignores extensions", []string{"extensions.somethingNew", "true"}, ""},
		{"version 1 sha1", []string{"core.repositoryformatversion", "1", "extensions.objectFormat", "sha1"}, ""},
		{"version 1 worktreeConfig", []string{"core.repositoryformatversion", "1", "extensions.worktreeConfig", "true"}, ""},
		{"version 2", []string{"core.repositoryformatversion", "2"}, "repositoryformatversion 2"},
		{"unknown object format", []string{"core.repositoryformatversion", "1", "extensions.objectFormat", "sha512"}, "extensions.objectFormat = sha512"},
		{"unknown ref storage", []string{"core.repositoryformatversion", "1", "extensions.refStorage", "sql"}, "extensions.refStorage = sql"},
		{"unknown extension", []string{"core.repositoryformatversion", "1", "extensions.frobnicate", "true"}, "extensions.frobnicate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.RepoFormat(t, "sha1", map[string]string{"a.txt": "a\n"})
			testEnv(t)
			if v := strings.TrimSpace(git(t, dir, "config", "core.repositoryformatversion")); v != "0" && strings.HasPrefix(tc.name, "version 0") {
				// git made a version 1 repository: GIT_DEFAULT_REF_FORMAT=reftable.
				t.Skipf("git made a repository of format version %s", v)
			}
			for i := 0; i < len(tc.config); i += 2 {
				git(t, dir, "config", tc.config[i], tc.config[i+1])
			}
			s, err := Open(dir)
			if tc.refuse == "" {
				if err != nil {
					t.Fatal(err)
				}
				edit(t, s, "edit", "a.txt", "a", "A")
				return
			}
			if !errors.Is(err, ErrUnsupportedFormat) || !strings.Contains(err.Error(), tc.refuse) {
				t.Fatalf("got %v, want a refusal naming %q", err, tc.refuse)
			}
			if readFile(t, dir, "a.txt") != "a\n" {
				t.Fatal("file changed")
			}
		})
	}
}

// A reftable repository with a git older than 2.45 is refused, naming the
// format and the version needed.
func TestReftableNeedsNewGit(t *testing.T) {
	out, err := exec.Command("git", "version").Output()
	if err != nil {
		t.Skip("git not installed")
	}
	if v, _ := parseGitVersion(string(out)); v[0] > 2 || v[0] == 2 && v[1] >= 45 {
		t.Skipf("%s reads reftable: TestJournalInEveryFormat covers it", strings.TrimSpace(string(out)))
	}
	dir := gittest.RepoFormat(t, "sha1", map[string]string{"a.txt": "a\n"})
	testEnv(t)
	git(t, dir, "config", "core.repositoryformatversion", "1")
	git(t, dir, "config", "extensions.refStorage", "reftable")
	_, err = Open(dir)
	if !errors.Is(err, ErrUnsupportedFormat) || !strings.Contains(err.Error(), "reftable") || !strings.Contains(err.Error(), "2.45") {
		t.Fatalf("got %v, want a refusal naming reftable and git 2.45", err)
	}
}

func TestParseGitVersion(t *testing.T) {
	for in, want := range map[string][3]int{
		"git version 2.39.5":                 {2, 39, 5},
		"git version 2.45.0.windows.1":       {2, 45, 0},
		"git version 2.50.1 (Apple Git-155)": {2, 50, 1},
		"git version 2.46.0-rc1":             {2, 46, 0},
		"git version 3.0":                    {3, 0, 0},
	} {
		if got, ok := parseGitVersion(in); !ok || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, ok, want)
		}
	}
	if _, ok := parseGitVersion("not git"); ok {
		t.Error("read a version from nothing")
	}
}
