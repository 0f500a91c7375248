package apply_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/gitstore"
)

// The journal holds what git itself would commit, whatever converts the
// file on its way into git: end-of-line conversion by core.autocrlf and the
// text and eol attributes (git's safer rule included), and a clean/smudge
// filter. For each, one edit through graft: no snapshot commit, the
// journal's diff against the branch is exactly the edit, the worktree keeps
// its bytes, undo and redo give them back, and after landing git status is
// clean and git fsck too.
func TestJournalHoldsCleanForm(t *testing.T) {
	crlf := "one\r\ntwo\r\nthree\r\n"
	for _, tc := range []struct {
		name string
		// setup runs after git init; it commits the file f.txt.
		setup func(t *testing.T, dir string)
		// want is the file as git stores it after the edit.
		want string
	}{
		{"autocrlf true", func(t *testing.T, dir string) {
			git(t, dir, "config", "core.autocrlf", "true")
			writeFile(t, filepath.Join(dir, "f.txt"), []byte(crlf))
			commitAll(t, dir)
		}, "one\nTWO\nthree\n"},
		{"autocrlf input", func(t *testing.T, dir string) {
			git(t, dir, "config", "core.autocrlf", "input")
			writeFile(t, filepath.Join(dir, "f.txt"), []byte(crlf))
			commitAll(t, dir)
		}, "one\nTWO\nthree\n"},
		{"text=auto", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, ".gitattributes"), []byte("* text=auto\n"))
			writeFile(t, filepath.Join(dir, "f.txt"), []byte(crlf))
			commitAll(t, dir)
		}, "one\nTWO\nthree\n"},
		{"eol=crlf", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, ".gitattributes"), []byte("*.txt eol=crlf\n"))
			writeFile(t, filepath.Join(dir, "f.txt"), []byte(crlf))
			commitAll(t, dir)
		}, "one\nTWO\nthree\n"},
		{"CRLF already in the index (safer autocrlf)", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "f.txt"), []byte(crlf))
			commitAll(t, dir)
			writeFile(t, filepath.Join(dir, ".gitattributes"), []byte("* text=auto\n"))
			commitAll(t, dir)
		}, "one\r\nTWO\r\nthree\r\n"},
		{"clean/smudge filter", func(t *testing.T, dir string) {
			// A reversible filter, as LFS is one: ROT13.
			rot := "tr A-Za-z N-ZA-Mn-za-m"
			git(t, dir, "config", "filter.rot.clean", rot)
			git(t, dir, "config", "filter.rot.smudge", rot)
			git(t, dir, "config", "filter.rot.required", "true")
			writeFile(t, filepath.Join(dir, ".gitattributes"), []byte("f.txt filter=rot\n"))
			writeFile(t, filepath.Join(dir, "f.txt"), []byte("one\ntwo\nthree\n"))
			commitAll(t, dir)
		}, "bar\nGJB\nguerr\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			tc.setup(t, dir)
			name := filepath.Join(dir, "f.txt")
			before, _ := os.ReadFile(name)
			if _, err := call(t, dir, "edit", map[string]any{"filePath": "f.txt", "oldString": "two", "newString": "TWO"}); err != nil {
				t.Fatal(err)
			}
			after, _ := os.ReadFile(name)
			if want := strings.Replace(string(before), "two", "TWO", 1); string(after) != want {
				t.Fatalf("worktree %q, want %q", after, want)
			}
			if log := git(t, dir, "log", "--format=%s", "main..refs/graft/main"); strings.Contains(log, "snapshot") {
				t.Fatalf("snapshot commit for a file nobody changed outside graft:\n%s", log)
			}
			if got := git(t, dir, "show", "refs/graft/main:f.txt"); got != tc.want {
				t.Fatalf("journal stores %q, want %q (what git stores)", got, tc.want)
			}
			if stat := git(t, dir, "diff", "--numstat", "main", "refs/graft/main"); strings.TrimSpace(stat) != "1\t1\tf.txt" {
				t.Fatalf("journal diff is not just the edit: %q", stat)
			}
			// Undo gives the worktree bytes back; redo the edit.
			if _, err := call(t, dir, "undo", map[string]any{}); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(name); string(b) != string(before) {
				t.Fatalf("after undo %q, want %q", b, before)
			}
			if _, err := call(t, dir, "redo", map[string]any{}); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(name); string(b) != string(after) {
				t.Fatalf("after redo %q, want %q", b, after)
			}
			s, err := gitstore.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Squash(context.Background(), "land"); err != nil {
				t.Fatal(err)
			}
			if st := git(t, dir, "status", "--porcelain"); st != "" {
				t.Fatalf("git status after land: %q", st)
			}
			if got := git(t, dir, "show", "HEAD:f.txt"); got != tc.want {
				t.Fatalf("landed %q, want %q", got, tc.want)
			}
			if out := git(t, dir, "fsck", "--no-dangling"); strings.TrimSpace(out) != "" {
				t.Fatalf("fsck: %s", out)
			}
		})
	}
}

// A path under a filter needs git to clean it: without git the edit is
// refused, clearly, and nothing is written.
func TestFilterWithoutGitRefused(t *testing.T) {
	dir := newRepo(t)
	git(t, dir, "config", "filter.rot.clean", "tr A-Za-z N-ZA-Mn-za-m")
	git(t, dir, "config", "filter.rot.smudge", "tr A-Za-z N-ZA-Mn-za-m")
	writeFile(t, filepath.Join(dir, ".gitattributes"), []byte("*.sec filter=rot\n"))
	writeFile(t, filepath.Join(dir, "a.sec"), []byte("one\ntwo\n"))
	writeFile(t, filepath.Join(dir, "b.txt"), []byte("plain\n"))
	commitAll(t, dir)
	// A reftable repository (GIT_DEFAULT_REF_FORMAT=reftable) needs git
	// for every call, so without git the second half cannot hold there.
	reftable := strings.TrimSpace(git(t, dir, "rev-parse", "--show-ref-format")) == "reftable"
	t.Setenv("PATH", t.TempDir())
	_, err := call(t, dir, "edit", map[string]any{"filePath": "a.sec", "oldString": "two", "newString": "TWO"})
	if err == nil || !strings.Contains(err.Error(), "git is not installed") {
		t.Fatalf("got %v, want a refusal naming the missing git", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.sec")); string(b) != "one\ntwo\n" {
		t.Fatalf("file written: %q", b)
	}
	// A path without a filter does not need git.
	if reftable {
		return
	}
	if _, err := call(t, dir, "edit", map[string]any{"filePath": "b.txt", "oldString": "plain", "newString": "PLAIN"}); err != nil {
		t.Fatal(err)
	}
}
