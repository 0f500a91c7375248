package gitstore

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graftdev/graft/gitstore/gittest"
)

// identRepo makes an isolated repository with one commit and no identity
// in its config; it returns the worktree and the isolated HOME.
func identRepo(t *testing.T) (dir, home string) {
	t.Helper()
	testEnv(t)
	home = os.Getenv("HOME")
	dir, _ = filepath.EvalSymlinks(t.TempDir())
	dir = filepath.Join(dir, "Repo")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if f := os.Getenv(gittest.ObjectFormatEnv); f != "" {
		git(t, dir, "init", "-q", "-b", "main", "--object-format="+f)
	} else {
		git(t, dir, "init", "-q", "-b", "main")
	}
	writeFile(t, dir, "a.txt", "a\n")
	git(t, dir, "add", "a.txt")
	git(t, dir, "-c", "user.name=Setup", "-c", "user.email=setup@example.com", "commit", "-q", "-m", "initial")
	return dir, home
}

// gitVarIdent is what `git var` says, as "NAME <EMAIL>", or "" when git
// has no identity.
func gitVarIdent(t *testing.T, dir, name string) string {
	t.Helper()
	cmd := exec.Command("git", "var", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	id := parseIdent(strings.TrimSpace(string(out)))
	return id.Name + " <" + id.Email + ">"
}

// checkIdentity lands an edit through s and checks that its commit's
// author and committer are who git var says, or want when git has none.
func checkIdentity(t *testing.T, s *Store, want string) {
	t.Helper()
	dir := s.Root()
	cur := readFile(t, dir, "a.txt")
	l, err := s.Land(context.Background(), Call{Tool: "edit"}, []Change{{Path: "a.txt", Old: b(cur), New: b(cur + "x\n")}})
	if err != nil {
		t.Fatalf("Land: %v", err)
	}
	got := git(t, dir, "log", "-1", "--format=%an <%ae>|%cn <%ce>", l.Commit)
	wa, wc := gitVarIdent(t, dir, "GIT_AUTHOR_IDENT"), gitVarIdent(t, dir, "GIT_COMMITTER_IDENT")
	if wa == "" {
		wa = want
	}
	if wc == "" {
		wc = want
	}
	if got != wa+"|"+wc {
		t.Fatalf("mode %d commit: author|committer %q, git var says %q", s.Mode(), got, wa+"|"+wc)
	}
	if want != "" && wa != want && wc != want {
		t.Fatalf("git var says %q|%q, the case expects %q in one of them", wa, wc, want)
	}
}

func TestIdentityAsGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	gitconfig := func(t *testing.T, file string, args ...string) {
		t.Helper()
		git(t, ".", append([]string{"config", "-f", file}, args...)...)
	}
	cases := []struct {
		name  string
		setup func(t *testing.T, dir, home string)
		want  string // expected in author or committer ("" for no check)
	}{
		{"global", func(t *testing.T, dir, home string) {
			gitconfig(t, filepath.Join(home, ".gitconfig"), "user.name", "Global Me")
			gitconfig(t, filepath.Join(home, ".gitconfig"), "user.email", "global@example.com")
		}, "Global Me <global@example.com>"},
		{"xdg", func(t *testing.T, dir, home string) {
			if err := os.MkdirAll(filepath.Join(home, ".config", "git"), 0o755); err != nil {
				t.Fatal(err)
			}
			gitconfig(t, filepath.Join(home, ".config", "git", "config"), "user.name", "Xdg Me")
			gitconfig(t, filepath.Join(home, ".config", "git", "config"), "user.email", "xdg@example.com")
		}, "Xdg Me <xdg@example.com>"},
		{"system", func(t *testing.T, dir, home string) {
			sys := filepath.Join(home, "system.gitconfig")
			gitconfig(t, sys, "user.name", "System Me")
			gitconfig(t, sys, "user.email", "system@example.com")
			os.Unsetenv("GIT_CONFIG_NOSYSTEM")
			t.Setenv("GIT_CONFIG_SYSTEM", sys)
		}, "System Me <system@example.com>"},
		{"local over global", func(t *testing.T, dir, home string) {
			gitconfig(t, filepath.Join(home, ".gitconfig"), "user.name", "Global Me")
			gitconfig(t, filepath.Join(home, ".gitconfig"), "user.email", "global@example.com")
			git(t, dir, "config", "user.email", "local@example.com")
		}, "Global Me <local@example.com>"},
		{"worktree config", func(t *testing.T, dir, home string) {
			git(t, dir, "config", "user.name", "Local Me")
			git(t, dir, "config", "user.email", "local@example.com")
			git(t, dir, "config", "extensions.worktreeConfig", "true")
			git(t, dir, "config", "--worktree", "user.email", "worktree@example.com")
		}, "Local Me <worktree@example.com>"},
		{"author and committer keys", func(t *testing.T, dir, home string) {
			git(t, dir, "config", "user.name", "User Me")
			git(t, dir, "config", "user.email", "user@example.com")
			git(t, dir, "config", "author.name", "Author Me")
			git(t, dir, "config", "committer.email", "committer@example.com")
		}, "Author Me <user@example.com>"},
		{"include", func(t *testing.T, dir, home string) {
			inc := filepath.Join(home, "identity.inc")
			gitconfig(t, inc, "user.name", "Included Me")
			gitconfig(t, inc, "user.email", "inc@example.com")
			gitconfig(t, filepath.Join(home, ".gitconfig"), "include.path", inc)
		}, "Included Me <inc@example.com>"},
		{"includeIf gitdir", func(t *testing.T, dir, home string) {
			g := filepath.Join(home, ".gitconfig")
			gitconfig(t, g, "user.name", "Personal Me")
			gitconfig(t, g, "user.email", "me@personal.example")
			work := filepath.Join(home, "work.inc")
			gitconfig(t, work, "user.name", "Work Me")
			gitconfig(t, work, "user.email", "work@corp.example")
			gitconfig(t, g, "includeIf.gitdir:"+filepath.Dir(dir)+"/.path", work)
		}, "Work Me <work@corp.example>"},
		{"includeIf gitdir/i", func(t *testing.T, dir, home string) {
			work := filepath.Join(home, "work.inc")
			gitconfig(t, work, "user.name", "Folded Me")
			gitconfig(t, work, "user.email", "folded@corp.example")
			gitconfig(t, filepath.Join(home, ".gitconfig"), "includeIf.gitdir/i:"+strings.ToUpper(dir)+"/.path", work)
		}, "Folded Me <folded@corp.example>"},
		{"includeIf onbranch", func(t *testing.T, dir, home string) {
			work := filepath.Join(home, "branch.inc")
			gitconfig(t, work, "user.name", "Branch Me")
			gitconfig(t, work, "user.email", "branch@example.com")
			gitconfig(t, filepath.Join(home, ".gitconfig"), "includeIf.onbranch:ma*.path", work)
		}, "Branch Me <branch@example.com>"},
		{"includeIf hasconfig remote url", func(t *testing.T, dir, home string) {
			work := filepath.Join(home, "remote.inc")
			gitconfig(t, work, "user.name", "Remote Me")
			gitconfig(t, work, "user.email", "remote@corp.example")
			gitconfig(t, filepath.Join(home, ".gitconfig"), "includeIf.hasconfig:remote.*.url:https://git.corp.example/**.path", work)
			git(t, dir, "remote", "add", "origin", "https://git.corp.example/team/repo.git")
		}, "Remote Me <remote@corp.example>"},
		{"environment", func(t *testing.T, dir, home string) {
			git(t, dir, "config", "user.name", "Config Me")
			git(t, dir, "config", "user.email", "config@example.com")
			t.Setenv("GIT_AUTHOR_NAME", "Env Author")
			t.Setenv("GIT_COMMITTER_EMAIL", "committer@env.example")
		}, "Env Author <config@example.com>"},
		{"GIT_CONFIG_GLOBAL", func(t *testing.T, dir, home string) {
			f := filepath.Join(home, "elsewhere.gitconfig")
			gitconfig(t, f, "user.name", "Elsewhere Me")
			gitconfig(t, f, "user.email", "elsewhere@example.com")
			gitconfig(t, filepath.Join(home, ".gitconfig"), "user.name", "Ignored Me")
			t.Setenv("GIT_CONFIG_GLOBAL", f)
		}, "Elsewhere Me <elsewhere@example.com>"},
		{"GIT_CONFIG_COUNT", func(t *testing.T, dir, home string) {
			git(t, dir, "config", "user.name", "Config Me")
			t.Setenv("GIT_CONFIG_COUNT", "2")
			t.Setenv("GIT_CONFIG_KEY_0", "user.email")
			t.Setenv("GIT_CONFIG_VALUE_0", "count@example.com")
			t.Setenv("GIT_CONFIG_KEY_1", "user.name")
			t.Setenv("GIT_CONFIG_VALUE_1", "Count Me")
		}, "Count Me <count@example.com>"},
		{"GIT_CONFIG_PARAMETERS", func(t *testing.T, dir, home string) {
			git(t, dir, "config", "user.name", "Config Me")
			t.Setenv("GIT_CONFIG_PARAMETERS", "'user.email'='param@example.com'")
		}, "Config Me <param@example.com>"},
		{"GIT_DIR and GIT_WORK_TREE", func(t *testing.T, dir, home string) {
			work := filepath.Join(home, "gitdir.inc")
			gitconfig(t, work, "user.name", "Dir Me")
			gitconfig(t, work, "user.email", "dir@example.com")
			gitconfig(t, filepath.Join(home, ".gitconfig"), "includeIf.gitdir:"+dir+"/.git.path", work)
			t.Setenv("GIT_DIR", filepath.Join(dir, ".git"))
			t.Setenv("GIT_WORK_TREE", dir)
		}, "Dir Me <dir@example.com>"},
		{"useConfigOnly without email", func(t *testing.T, dir, home string) {
			git(t, dir, "config", "user.useConfigOnly", "true")
			git(t, dir, "config", "user.name", "Nameonly Me")
		}, "Nameonly Me <" + DefaultEmail + ">"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, home := identRepo(t)
			tc.setup(t, dir, home)
			checkIdentity(t, open(t, dir), tc.want)
			s, err := OpenWith(dir, OpenOptions{Mode: ModeCommit})
			if err != nil {
				t.Fatal(err)
			}
			checkIdentity(t, s, tc.want)
		})
	}
}

// TestIdentityFollowsCheckout: a long-lived Store sees the branch change
// that an includeIf onbranch: depends on, and a config edit.
func TestIdentityFollowsCheckout(t *testing.T) {
	dir, home := identRepo(t)
	g := filepath.Join(home, ".gitconfig")
	git(t, ".", "config", "-f", g, "user.name", "Main Me")
	git(t, ".", "config", "-f", g, "user.email", "main@example.com")
	inc := filepath.Join(home, "feature.inc")
	git(t, ".", "config", "-f", inc, "user.name", "Feature Me")
	git(t, ".", "config", "-f", inc, "user.email", "feature@example.com")
	git(t, ".", "config", "-f", g, "includeIf.onbranch:feature/**.path", inc)
	s := open(t, dir)
	checkIdentity(t, s, "Main Me <main@example.com>")
	git(t, dir, "checkout", "-q", "-b", "feature/x")
	checkIdentity(t, s, "Feature Me <feature@example.com>")
	git(t, ".", "config", "-f", inc, "user.email", "edited@example.com")
	checkIdentity(t, s, "Feature Me <edited@example.com>")
	git(t, dir, "checkout", "-q", "main")
	checkIdentity(t, s, "Main Me <main@example.com>")
}

// An answer of git is kept while nothing it depends on changes: the next
// call asks git nothing, and once an included config file changes, git is
// asked again.
func TestIdentityCache(t *testing.T) {
	dir, home := identRepo(t)
	g := filepath.Join(home, ".gitconfig")
	git(t, ".", "config", "-f", g, "user.name", "Main Me")
	git(t, ".", "config", "-f", g, "user.email", "main@example.com")
	inc := filepath.Join(home, "work.inc")
	git(t, ".", "config", "-f", inc, "user.name", "Work Me")
	git(t, ".", "config", "-f", inc, "user.email", "work@example.com")
	git(t, ".", "config", "-f", g, "includeIf.gitdir:"+dir+"/.path", inc)
	asked := countGitVar(t)
	// checkIdentity asks git var twice itself, to compare.
	s := open(t, dir)
	checkIdentity(t, s, "Work Me <work@example.com>")
	if n := asked(); n != 2+2 {
		t.Fatalf("git var ran %d times for the first call, want 2 (and 2 of the test's)", n-2)
	}
	checkIdentity(t, s, "Work Me <work@example.com>")
	if n := asked(); n != 4+2 {
		t.Errorf("git var ran %d times though nothing changed, want 0", n-6)
	}
	if err := os.WriteFile(inc, []byte("[user]\n\tname = Work Me\n\temail = changed@example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkIdentity(t, s, "Work Me <changed@example.com>")
	if n := asked(); n != 6+2+2 {
		t.Errorf("git var ran %d times after the included file changed, want 2", n-8)
	}
}

// countGitVar puts first on PATH a git that notes each `git var` it runs;
// the function returned counts them.
func countGitVar(t *testing.T) func() int {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "calls")
	script := "#!/bin/sh\nif [ \"$1\" = var ]; then echo \"$2\" >> " + log + "; fi\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return func() int {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), "\n")
	}
}

// The identity cache in every repository format, reftable included (where
// every ref move, graft's own journal moves too, rewrites the reftable
// stack HEAD lives in): a call after a call asks git nothing, and with an
// onbranch: include a checkout in a linked worktree, which moves only
// that worktree's HEAD, is seen.
func TestIdentityCacheEveryFormat(t *testing.T) {
	for _, k := range repoKinds(t) {
		t.Run(k.name, func(t *testing.T) {
			dir := kindRepo(t, k, map[string]string{"a.txt": "a\n"})
			home := os.Getenv("HOME")
			asked := countGitVar(t)
			// checkIdentity asks git var twice itself, to compare.
			s := open(t, dir)
			checkIdentity(t, s, "Test User <test@example.com>")
			checkIdentity(t, s, "Test User <test@example.com>")
			if n := asked(); n != 2+2+2 {
				t.Fatalf("git var ran %d times for two calls with nothing changed, want 2", n-4)
			}

			// Who commits follows the branch of a linked worktree.
			git(t, dir, "config", "--unset", "user.name")
			git(t, dir, "config", "--unset", "user.email")
			g := filepath.Join(home, ".gitconfig")
			git(t, ".", "config", "-f", g, "user.name", "Main Me")
			git(t, ".", "config", "-f", g, "user.email", "main@example.com")
			inc := filepath.Join(home, "feature.inc")
			git(t, ".", "config", "-f", inc, "user.name", "Feature Me")
			git(t, ".", "config", "-f", inc, "user.email", "feature@example.com")
			git(t, ".", "config", "-f", g, "includeIf.onbranch:feature/**.path", inc)
			git(t, dir, "branch", "plain")
			wt := filepath.Join(filepath.Dir(dir), "wt")
			git(t, dir, "worktree", "add", "-q", "-b", "feature/x", wt)
			ws := open(t, wt)
			checkIdentity(t, ws, "Feature Me <feature@example.com>")
			before := asked()
			checkIdentity(t, ws, "Feature Me <feature@example.com>")
			if asked() != before+2 {
				t.Fatalf("git var ran %d times on the same branch, want 0", asked()-before-2)
			}
			git(t, wt, "checkout", "-q", "plain")
			checkIdentity(t, ws, "Main Me <main@example.com>")
			git(t, wt, "checkout", "-q", "--detach")
			checkIdentity(t, ws, "Main Me <main@example.com>")
			git(t, wt, "checkout", "-q", "feature/x")
			checkIdentity(t, ws, "Feature Me <feature@example.com>")
		})
	}
}

// BenchmarkIdentity times asking git for a call's identity, the cache
// aside (s.ident is reset, and so is the cache).
func BenchmarkIdentity(b *testing.B) {
	gittest.Isolate(b)
	dir := gittest.Repo(b, map[string]string{"a.txt": "a\n"})
	s, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s.ident = nil
		identCache.Delete(s.root)
		os.Remove(s.identPath())
		s.identity(time.Now())
	}
}

// BenchmarkIdentityCached times a call's identity when git's last answer
// still holds: the key's stat calls.
func BenchmarkIdentityCached(b *testing.B) {
	gittest.Isolate(b)
	dir := gittest.Repo(b, map[string]string{"a.txt": "a\n"})
	s, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	s.identity(time.Now())
	for b.Loop() {
		s.ident = nil
		s.identity(time.Now())
	}
}

// countGit puts first on PATH a git that notes every command it runs,
// one line each; the function returned gives the lines so far.
func countGit(t *testing.T) func() []string {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "calls")
	script := "#!/bin/sh\necho \"$*\" >> " + log + "\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return func() []string {
		b, _ := os.ReadFile(log)
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
}

// landAs lands an edit of a.txt through a Store opened as a new process
// would (the process's own cache forgotten) and returns the commit's
// "author|committer" and the git commands graft ran for it: all of them,
// and those that ask who commits (git var, git config).
func landAs(t *testing.T, dir string, ran func() []string) (who string, all, ident int) {
	t.Helper()
	identCache.Clear()
	before := len(ran())
	s := open(t, dir)
	cur := readFile(t, dir, "a.txt")
	l, err := s.Land(context.Background(), Call{Tool: "edit"}, []Change{{Path: "a.txt", Old: b(cur), New: b(cur + "x\n")}})
	if err != nil {
		t.Fatalf("Land: %v", err)
	}
	cmds := ran()[before:]
	for _, c := range cmds {
		if strings.HasPrefix(c, "var ") || strings.HasPrefix(c, "config ") {
			ident++
		}
	}
	return git(t, dir, "log", "-1", "--format=%an <%ae>|%cn <%ce>", l.Commit), len(cmds), ident
}

// A call in a new process whose identity's key still holds asks git
// nothing (and, with files refs, runs no git command at all; reftable
// refs are read and moved through git): git's answer is kept in the git
// dir. A config edit, a new include file and a checkout with an onbranch:
// include are each seen by the next process, which asks git again.
func TestIdentityWarmProcessRunsNoGit(t *testing.T) {
	dir, home := identRepo(t)
	reftable := exists(filepath.Join(dir, ".git", "reftable"))
	g := filepath.Join(home, ".gitconfig")
	git(t, ".", "config", "-f", g, "user.name", "Main Me")
	git(t, ".", "config", "-f", g, "user.email", "main@example.com")
	late := filepath.Join(home, "late.inc")
	git(t, ".", "config", "-f", g, "include.path", "~/late.inc") // does not exist yet
	feature := filepath.Join(home, "feature.inc")
	git(t, ".", "config", "-f", feature, "user.email", "feature@example.com")
	git(t, ".", "config", "-f", g, "includeIf.onbranch:feature/**.path", feature)
	ran := countGit(t)
	warm := func(what string) {
		t.Helper()
		_, all, ident := landAs(t, dir, ran)
		if ident != 0 || all != 0 && !reftable {
			t.Fatalf("%s: %d git commands, %d of them about who commits (want none)", what, all, ident)
		}
	}

	want := func(who string) string { return who + "|" + who }
	if got, _, _ := landAs(t, dir, ran); got != want("Main Me <main@example.com>") {
		t.Fatalf("cold call: %q", got)
	}
	if got, _, _ := landAs(t, dir, ran); got != want("Main Me <main@example.com>") {
		t.Fatalf("warm call: %q", got)
	}
	warm("warm call")

	git(t, ".", "config", "-f", g, "user.name", "Edited Me")
	if got, _, ident := landAs(t, dir, ran); got != want("Edited Me <main@example.com>") || ident == 0 {
		t.Fatalf("after a config edit: %q, %d commands about who commits", got, ident)
	}
	warm("after a config edit, warm again")

	git(t, ".", "config", "-f", late, "user.email", "late@example.com")
	if got, _, _ := landAs(t, dir, ran); got != want("Edited Me <late@example.com>") {
		t.Fatalf("after the include file was created: %q", got)
	}

	git(t, dir, "checkout", "-q", "-b", "feature/x")
	if got, _, _ := landAs(t, dir, ran); got != want("Edited Me <feature@example.com>") {
		t.Fatalf("on feature/x: %q", got)
	}
	warm("on feature/x, warm")
	git(t, dir, "checkout", "-q", "main")
	if got, _, _ := landAs(t, dir, ran); got != want("Edited Me <late@example.com>") {
		t.Fatalf("back on main: %q", got)
	}
}

// Issue 32: a long-running server whose config includes a file that does
// not exist yet sees it once it is created, for journal commits and for
// branch-mode commits on the user's branch alike.
func TestIdentityLateIncludeLongRunning(t *testing.T) {
	for _, mode := range []Mode{ModeJournal, ModeCommit} {
		t.Run(map[Mode]string{ModeJournal: "journal", ModeCommit: "commit"}[mode], func(t *testing.T) {
			dir, home := identRepo(t)
			g := filepath.Join(home, ".gitconfig")
			git(t, ".", "config", "-f", g, "user.name", "Old Me")
			git(t, ".", "config", "-f", g, "user.email", "old@example.com")
			inc := filepath.Join(home, "conf.d", "identity.inc")
			git(t, ".", "config", "-f", g, "include.path", "conf.d/identity.inc") // relative to ~/.gitconfig
			s, err := OpenWith(dir, OpenOptions{Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			checkIdentity(t, s, "Old Me <old@example.com>")
			checkIdentity(t, s, "Old Me <old@example.com>")
			if err := os.MkdirAll(filepath.Dir(inc), 0o755); err != nil {
				t.Fatal(err)
			}
			git(t, ".", "config", "-f", inc, "user.name", "New Me")
			git(t, ".", "config", "-f", inc, "user.email", "new@example.com")
			checkIdentity(t, s, "New Me <new@example.com>")
		})
	}
}

func TestParseConfigListing(t *testing.T) {
	out := "file:/home/u/.gitconfig\x00user.name\nMe\x00" +
		"file:/home/u/.gitconfig\x00include.path\n~/a.inc\x00" +
		"file:/home/u/.gitconfig\x00includeif.gitdir:/w/.path\nwork.inc\x00" +
		"file:/home/u/.gitconfig\x00includeif.onbranch:f/**.path\n/abs/b.inc\x00" +
		"file:.git/config\x00core.bare\nfalse\x00" +
		"file:.git/config\x00include.path\nlocal.inc\x00" +
		"file:.git/config\x00novalue\x00" +
		"command line:\x00include.path\nrel.inc\x00"
	l := parseConfigListing([]byte(out), "/r", "/home/u")
	want := []string{"/home/u/.gitconfig", "/home/u/a.inc", "/home/u/work.inc", "/abs/b.inc", "/r/.git/config", "/r/.git/local.inc"}
	if !slices.Equal(l.files, want) || !l.onbranch {
		t.Fatalf("files %q onbranch %v, want %q true", l.files, l.onbranch, want)
	}
}

// BenchmarkIdentityWarmProcess times a call's identity in a new process
// whose key still holds: graft-ident read, the key's stat calls.
func BenchmarkIdentityWarmProcess(b *testing.B) {
	gittest.Isolate(b)
	dir := gittest.Repo(b, map[string]string{"a.txt": "a\n"})
	s, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	s.identity(time.Now())
	for b.Loop() {
		s.ident = nil
		identCache.Clear()
		s.identity(time.Now())
	}
}

// BenchmarkIdentityConfigParse is the floor of the other way, reading the
// identity from the config files in process: reading and decoding a
// global config with an include and an includeIf, the two files they
// name and the repository's config, before any rule of git's is applied.
func BenchmarkIdentityConfigParse(b *testing.B) {
	gittest.Isolate(b)
	dir := gittest.Repo(b, map[string]string{"a.txt": "a\n"})
	home := os.Getenv("HOME")
	g := filepath.Join(home, ".gitconfig")
	gittest.Git(b, ".", "config", "-f", g, "user.name", "Main Me")
	gittest.Git(b, ".", "config", "-f", g, "user.email", "main@example.com")
	gittest.Git(b, ".", "config", "-f", filepath.Join(home, "a.inc"), "user.email", "a@example.com")
	gittest.Git(b, ".", "config", "-f", filepath.Join(home, "b.inc"), "user.email", "b@example.com")
	gittest.Git(b, ".", "config", "-f", g, "include.path", "~/a.inc")
	gittest.Git(b, ".", "config", "-f", g, "includeIf.gitdir:"+dir+"/.path", filepath.Join(home, "b.inc"))
	files := []string{g, filepath.Join(home, "a.inc"), filepath.Join(home, "b.inc"), filepath.Join(dir, ".git", "config")}
	for b.Loop() {
		for _, f := range files {
			if readConfigFile(f) == nil {
				b.Fatal(f)
			}
		}
	}
}
