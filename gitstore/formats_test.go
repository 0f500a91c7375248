package gitstore

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/graftdev/graft/gitstore/gittest"
)

// repoKind is a repository format the journal must work in.
type repoKind struct {
	name     string
	format   string // object format
	reftable bool
}

// repoKinds are the formats of this machine's git: SHA-1 and SHA-256
// always, and with reftable refs when git is 2.45 or later (CI's git is
// 2.39; these were also run with git 2.55 built from source, see README).
func repoKinds(t *testing.T) []repoKind {
	kinds := []repoKind{{"sha1", "sha1", false}, {"sha256", "sha256", false}}
	out, err := exec.Command("git", "version").Output()
	if v, ok := parseGitVersion(string(out)); err == nil && ok && (v[0] > 2 || v[0] == 2 && v[1] >= 45) {
		kinds = append(kinds, repoKind{"sha1-reftable", "sha1", true}, repoKind{"sha256-reftable", "sha256", true})
	} else {
		t.Logf("git is %s: reftable repositories not tested", strings.TrimSpace(string(out)))
	}
	return kinds
}

func kindRepo(t *testing.T, k repoKind, files map[string]string) string {
	t.Helper()
	gittest.Isolate(t)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	args := []string{"init", "-q", "-b", "main", "--object-format=" + k.format}
	if k.reftable {
		args = append(args, "--ref-format=reftable")
	}
	git(t, dir, args...)
	git(t, dir, "config", "user.name", "Test User")
	git(t, dir, "config", "user.email", "test@example.com")
	for name, content := range files {
		writeFile(t, dir, name, content)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "initial")
	testEnv(t)
	return dir
}

// Every journal command in every repository format: edit (with a new
// file, a deletion and a mode change), history, diff (against git's own),
// undo, redo, a file_read version, land, then branch mode. After each
// step git agrees: the journal diff is just the edit, fsck is clean, and
// after land git status is clean.
func TestJournalInEveryFormat(t *testing.T) {
	for _, k := range repoKinds(t) {
		t.Run(k.name, func(t *testing.T) {
			dir := kindRepo(t, k, map[string]string{"a.txt": "one\ntwo\nthree\n", "d/b.txt": "bee\n", "gone.txt": "bye\n"})
			s := open(t, dir)
			if s.algo.Name() != k.format {
				t.Fatalf("format read as %s", s.algo.Name())
			}
			ctx := context.Background()
			l1 := edit(t, s, "edit", "a.txt", "two", "TWO")
			if len(l1.Commit) != 2*s.algo.Size() {
				t.Fatalf("commit id %q", l1.Commit)
			}
			if got := git(t, dir, "rev-parse", "refs/graft/main"); got != l1.Commit {
				t.Fatalf("journal ref %s, want %s", got, l1.Commit)
			}
			l2, err := s.Land(ctx, Call{Tool: "multi_edit", Message: "second"}, []Change{
				{Path: "new/c.txt", New: b("sea\n")},
				{Path: "gone.txt", Old: b("bye\n")},
				{Path: "d/b.txt", Old: b("bee\n"), New: b("bee\n"), Mode: 0o755},
			})
			if err != nil {
				t.Fatal(err)
			}
			if l2.Snapshot != "" {
				t.Fatalf("snapshot %s", l2.Snapshot)
			}
			if got := git(t, dir, "diff", "--name-status", "main", "refs/graft/main"); got != "M\ta.txt\nM\td/b.txt\nD\tgone.txt\nA\tnew/c.txt" {
				t.Fatalf("git diff --name-status:\n%s", got)
			}
			if got := git(t, dir, "status", "--porcelain"); got == "" {
				t.Fatal("worktree shows no change against the branch")
			}
			if got := git(t, dir, "diff", "refs/graft/main", "--", "a.txt", "d/b.txt", "gone.txt"); got != "" {
				t.Fatalf("worktree differs from the journal:\n%s", got)
			}
			h, err := s.History(0)
			if err != nil || len(h) != 2 || h[0].ID != l2.Commit || h[1].Files[0].Path != "a.txt" || h[1].Additions != 1 {
				t.Fatalf("history %+v %v", h, err)
			}
			d, err := s.Diff("")
			if err != nil {
				t.Fatal(err)
			}
			sameDiff(t, d, git(t, dir, "diff", "main", "refs/graft/main"))
			d, err = s.Diff(l1.Commit[:10])
			if err != nil {
				t.Fatal(err)
			}
			sameDiff(t, d, git(t, dir, "diff", l1.Commit+"^", l1.Commit))

			// A version is the repository's blob id, and stored.
			v, err := s.SaveBlob(b("TWO\n"))
			if err != nil {
				t.Fatal(err)
			}
			if got, err := s.Blob(v); err != nil || string(got) != "TWO\n" || len(v) != 2*s.algo.Size() {
				t.Fatalf("blob %s: %q %v", v, got, err)
			}
			if want := strings.TrimSpace(gitIn(t, dir, "TWO\n", "hash-object", "--stdin")); v != want {
				t.Fatalf("version %s, git says %s", v, want)
			}

			if _, err := s.Undo(ctx, 1); err != nil {
				t.Fatal(err)
			}
			if !exists(filepath.Join(dir, "gone.txt")) || exists(filepath.Join(dir, "new", "c.txt")) {
				t.Fatal("undo did not restore the files")
			}
			if _, err := s.Redo(ctx, 1); err != nil {
				t.Fatal(err)
			}
			if exists(filepath.Join(dir, "gone.txt")) || readFile(t, dir, "new/c.txt") != "sea\n" {
				t.Fatal("redo did not re-apply")
			}
			fsck(t, dir)

			tip := git(t, dir, "rev-parse", "refs/graft/main")
			sq, err := s.Squash(ctx, "land it")
			if err != nil {
				t.Fatal(err)
			}
			// The landed journal's entries stay reachable through the
			// journal ref's reflog, in every ref storage.
			if got := git(t, dir, "reflog", "--format=%H", "refs/graft/main"); !strings.Contains(got, tip) || !strings.Contains(got, l1.Commit) {
				t.Fatalf("reflog of refs/graft/main lacks the landed entries %s and %s:\n%s", tip, l1.Commit, got)
			}
			if got := git(t, dir, "fsck", "--unreachable", "--no-progress"); strings.Contains(got, "unreachable commit") {
				t.Fatalf("journal entries unreachable after land:\n%s", got)
			}
			if got := git(t, dir, "rev-parse", "main"); got != sq.Commit {
				t.Fatalf("main is %s, landed %s", got, sq.Commit)
			}
			if got := git(t, dir, "status", "--porcelain"); got != "" {
				t.Fatalf("git status after land:\n%s", got)
			}
			if got := git(t, dir, "diff", "main", "refs/graft/main"); got != "" {
				t.Fatalf("journal differs from the landed branch:\n%s", got)
			}
			if got := git(t, dir, "reflog", "-1", "--format=%gs", "main"); !strings.Contains(got, "graft land: land it") {
				t.Fatalf("reflog of main: %q", got)
			}

			// Branch mode commits on main directly.
			t.Setenv(ModeEnv, "commit")
			bs := open(t, dir)
			lb := edit(t, bs, "edit", "a.txt", "one", "ONE")
			if got := git(t, dir, "rev-parse", "main"); got != lb.Commit {
				t.Fatalf("branch mode: main is %s, want %s", got, lb.Commit)
			}
			if got := git(t, dir, "status", "--porcelain"); got != "" {
				t.Fatalf("git status after a branch-mode edit:\n%s", got)
			}
			fsck(t, dir)
			if k.reftable {
				if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "graft")); err == nil {
					t.Fatal("loose refs written in a reftable repository")
				}
			}
		})
	}
}

// gitIn runs git with stdin.
func gitIn(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

var hunkContext = regexp.MustCompile(`(?m)^(@@ [^@]* @@).*$`)

// sameDiff compares graft's journal diff with git's, leaving out the
// function context git appends to hunk headers.
func sameDiff(t *testing.T, got, want string) {
	t.Helper()
	want = hunkContext.ReplaceAllString(want, "$1")
	if strings.TrimRight(got, "\n") != strings.TrimRight(want, "\n") {
		t.Fatalf("diff differs from git's\ngot:\n%s\nwant:\n%s", got, want)
	}
}
