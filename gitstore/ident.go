package gitstore

import (
	"bytes"
	"os/exec"
	"strings"
)

// Who commits: graft asks the installed git, once per call, with
// `git var GIT_AUTHOR_IDENT` and `git var GIT_COMMITTER_IDENT` run in the
// worktree with graft's own environment. That is the identity git itself
// would commit with, whatever decides it: system, XDG, global, local and
// worktree config, include and includeIf (gitdir:, gitdir/i:, onbranch:,
// hasconfig:remote.*.url:), author.* and committer.*, GIT_AUTHOR_* and
// GIT_COMMITTER_*, GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM,
// GIT_CONFIG_COUNT/KEY/VALUE, GIT_CONFIG_PARAMETERS, GIT_DIR and
// GIT_WORK_TREE. Only the name and the email are taken; the time is graft's.
//
// git var is strict, as git commit is: it fails where git would refuse to
// commit (no user.email and no usable host name, or user.useConfigOnly).
// graft then falls back to its own reading of the environment and the
// repository's config, filling what is missing with DefaultName and
// DefaultEmail (identity.go), so that an edit is never refused for want of
// an identity. Where git is not installed that reading is all there is.
//
// Cost, and why there is no cache. One git var is a process of about
// 1.2 ms (hyperfine, 300 runs, git 2.39 on 2 shared cores: 1.2 ± 0.2 ms for
// GIT_AUTHOR_IDENT, 1.1 ± 0.1 ms for GIT_COMMITTER_IDENT); git var takes one
// variable per process, and `git var -l`, which lists both, is not strict
// (it prints "root@host.(none)" where git commit refuses) and prints the
// whole config besides. The two run side by side, started when a call
// begins landing and waited for only when its first commit is written, so
// some of their wall time hides behind the call's own work (a one-line
// edit still costs about 1.7 ms more at best, 3 ms on average, on 2 loaded
// cores; see doc.go); one call (its commits and its ref moves) asks once. A cache would have to be keyed on every
// file the answer depends on (the config files, the files they include,
// HEAD's branch for onbranch:, the remotes for hasconfig:) and on the
// environment; the sure way to see a checkout or a config edit in a
// long-running graft mcp is to ask again for each call, which is what
// graft does.

// gitIdent is a name and an email as git var printed them.
type gitIdent struct {
	name, email string
	ok          bool
}

// identityJob is the identity of one call, being asked of git.
type identityJob struct {
	done              chan struct{}
	author, committer gitIdent
}

// startIdentity starts asking git for the identity of the current call,
// once per hold of the lock (a call); it returns at once.
func (s *Store) startIdentity() *identityJob {
	if s.ident != nil {
		return s.ident
	}
	job := &identityJob{done: make(chan struct{})}
	dir := s.root
	go func() {
		defer close(job.done)
		other := make(chan gitIdent, 1)
		go func() { other <- gitVar(dir, "GIT_COMMITTER_IDENT") }()
		job.author = gitVar(dir, "GIT_AUTHOR_IDENT")
		job.committer = <-other
	}()
	if s.lockOwned {
		s.ident = job
	}
	return job
}

// gitVar runs `git var name` in dir and reads "NAME <EMAIL> TIME TZ"; ok is
// false when git is missing or has no such identity.
func gitVar(dir, name string) gitIdent {
	cmd := exec.Command("git", "var", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return gitIdent{}
	}
	return parseIdent(string(bytes.TrimSpace(out)))
}

// parseIdent reads the name and email of "NAME <EMAIL> TIME TZ".
func parseIdent(line string) gitIdent {
	lt := strings.IndexByte(line, '<')
	gt := strings.LastIndexByte(line, '>')
	if lt < 0 || gt < lt {
		return gitIdent{}
	}
	return gitIdent{name: strings.TrimSpace(line[:lt]), email: line[lt+1 : gt], ok: true}
}
