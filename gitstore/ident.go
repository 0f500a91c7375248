package gitstore

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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
// Cost, and the cache. One git var is a process of about 1.2 ms
// (hyperfine, 300 runs, git 2.39 on 2 shared cores: 1.2 ± 0.2 ms for
// GIT_AUTHOR_IDENT, 1.1 ± 0.1 ms for GIT_COMMITTER_IDENT); git var takes one
// variable per process, and `git var -l`, which lists both, is not strict
// (it prints "root@host.(none)" where git commit refuses). The two run side
// by side, started when a call begins landing and waited for only when its
// first commit is written. A CLI call pays them once (about 1.7 ms at best,
// 3 ms on average on 2 loaded cores). A long-running graft mcp would pay
// them on every call, so an answer is kept, per worktree, with the key it
// depends on (identKey): the environment variables git reads for it, the
// worktree's HEAD (onbranch:), and the size, modification time and inode
// of every config file that git read when it answered (listed once, by
// `git config --list --show-origin --name-only`, so included files count)
// and of the places a config file may appear (system, XDG, global, local,
// worktree). A checkout, a config edit or a new include changes the key,
// and the next call asks git again; checking the key costs a few stat
// calls.

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
	if c, ok := identCache.Load(dir); ok {
		c := c.(*identCached)
		if c.key == s.identKey(c.files) {
			job.author, job.committer = c.author, c.committer
			close(job.done)
			if s.lockOwned {
				s.ident = job
			}
			return job
		}
	}
	go func() {
		defer close(job.done)
		other := make(chan gitIdent, 1)
		files := make(chan []string, 1)
		go func() { other <- gitVar(dir, "GIT_COMMITTER_IDENT") }()
		go func() { files <- configFiles(dir) }()
		job.author = gitVar(dir, "GIT_AUTHOR_IDENT")
		job.committer = <-other
		fs := s.configPlaces()
		for _, f := range <-files {
			if !slices.Contains(fs, f) {
				fs = append(fs, f)
			}
		}
		if job.author.ok && job.committer.ok {
			// The key is taken after git answered: a change made while it
			// ran is seen by the next call at worst.
			identCache.Store(dir, &identCached{key: s.identKey(fs), files: fs, author: job.author, committer: job.committer})
		} else {
			identCache.Delete(dir)
		}
	}()
	if s.lockOwned {
		s.ident = job
	}
	return job
}

// identCache holds, per worktree root, the last identity git gave and the
// key it depends on.
var identCache sync.Map // string -> *identCached

type identCached struct {
	key               string
	files             []string
	author, committer gitIdent
}

// configPlaces are the files git may read config from for this worktree,
// whether they exist or not (one created later changes the key).
func (s *Store) configPlaces() []string {
	var fs []string
	if v := os.Getenv("GIT_CONFIG_SYSTEM"); v != "" {
		fs = append(fs, v)
	} else {
		fs = append(fs, "/etc/gitconfig")
	}
	home, _ := os.UserHomeDir()
	if v := os.Getenv("GIT_CONFIG_GLOBAL"); v != "" {
		fs = append(fs, v)
	} else if home != "" {
		fs = append(fs, filepath.Join(home, ".gitconfig"))
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		fs = append(fs, filepath.Join(x, "git", "config"))
	} else if home != "" {
		fs = append(fs, filepath.Join(home, ".config", "git", "config"))
	}
	return append(fs, filepath.Join(s.commonDir, "config"), filepath.Join(s.gitDir, "config.worktree"),
		filepath.Join(s.gitDir, "HEAD"), filepath.Join(s.commonDir, "reftable", "tables.list"))
}

// configFiles lists the config files git reads in dir, includes
// included; nil when git cannot say.
func configFiles(dir string) []string {
	cmd := exec.Command("git", "config", "--list", "--show-origin", "--name-only")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var fs []string
	for _, l := range strings.Split(string(out), "\n") {
		origin, _, ok := strings.Cut(l, "\t")
		if f, isFile := strings.CutPrefix(origin, "file:"); ok && isFile && !seen[f] {
			seen[f] = true
			if !filepath.IsAbs(f) {
				f = filepath.Join(dir, f)
			}
			fs = append(fs, f)
		}
	}
	return fs
}

// identKey is what the identity depends on: the environment variables git
// reads for it, the worktree's HEAD and the stat of files.
func (s *Store) identKey(files []string) string {
	var b strings.Builder
	env := os.Environ()
	slices.Sort(env)
	for _, e := range env {
		if k, _, _ := strings.Cut(e, "="); strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME" || k == "EMAIL" || k == "USER" || k == "LOGNAME" {
			b.WriteString(e)
			b.WriteByte(0)
		}
	}
	if head, err := os.ReadFile(filepath.Join(s.gitDir, "HEAD")); err == nil {
		b.Write(head)
	}
	for _, f := range files {
		b.WriteString(f)
		if fi, err := os.Stat(f); err == nil {
			fmt.Fprintf(&b, " %d %d %v", fi.Size(), fi.ModTime().UnixNano(), statID(fi))
		}
		b.WriteByte(0)
	}
	return b.String()
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
