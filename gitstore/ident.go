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
// size, modification time and inode of every config file that git read
// when it answered (listed once, by `git config --list --show-origin
// --name-only`, so included files count) and of the places a config file
// may appear (system, XDG, global, local, worktree), and, only when that
// listing has an includeIf.onbranch: key, the branch the worktree's HEAD
// names. A config edit, a new include or (with onbranch:) a checkout
// changes the key, and the next call asks git again; checking the key
// costs a few stat calls. The branch is read from the HEAD file with the
// files ref storage; with reftable HEAD lives in the worktree's reftable
// stack, which every ref move rewrites (graft's own journal moves
// included), so the branch is asked of git (`git symbolic-ref`, one
// process) and only when an onbranch: include exists.

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
		if c.key == s.identKey(c.files, c.onbranch) {
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
		listed := make(chan configListing, 1)
		go func() { other <- gitVar(dir, "GIT_COMMITTER_IDENT") }()
		go func() { listed <- configFiles(dir) }()
		job.author = gitVar(dir, "GIT_AUTHOR_IDENT")
		job.committer = <-other
		fs := s.configPlaces()
		l := <-listed
		for _, f := range l.files {
			if !slices.Contains(fs, f) {
				fs = append(fs, f)
			}
		}
		if job.author.ok && job.committer.ok {
			// The key is taken after git answered: a change made while it
			// ran is seen by the next call at worst.
			identCache.Store(dir, &identCached{key: s.identKey(fs, l.onbranch), files: fs, onbranch: l.onbranch,
				author: job.author, committer: job.committer})
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
	key   string
	files []string
	// onbranch: the answer may depend on HEAD's branch.
	onbranch          bool
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
	return append(fs, filepath.Join(s.commonDir, "config"), filepath.Join(s.gitDir, "config.worktree"))
}

// configListing is what `git config --list --show-origin --name-only`
// says about the config git reads in a worktree.
type configListing struct {
	// files are the config files read, includes included.
	files []string
	// onbranch: some config has an includeIf.onbranch: key, so the
	// identity may change with HEAD's branch; true when git cannot say.
	onbranch bool
}

// configFiles lists the config files git reads in dir.
func configFiles(dir string) configListing {
	cmd := exec.Command("git", "config", "--list", "--show-origin", "--name-only")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return configListing{onbranch: true}
	}
	seen := map[string]bool{}
	var l configListing
	for _, line := range strings.Split(string(out), "\n") {
		origin, key, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		// git prints the section lowercased; the condition is matched
		// case-insensitively here, which at worst keys on HEAD for nothing.
		if strings.HasPrefix(strings.ToLower(key), "includeif.onbranch:") {
			l.onbranch = true
		}
		if f, isFile := strings.CutPrefix(origin, "file:"); isFile && !seen[f] {
			seen[f] = true
			if !filepath.IsAbs(f) {
				f = filepath.Join(dir, f)
			}
			l.files = append(l.files, f)
		}
	}
	return l
}

// identKey is what the identity depends on: the environment variables git
// reads for it, the stat of files and, with onbranch, HEAD's branch.
func (s *Store) identKey(files []string, onbranch bool) string {
	var b strings.Builder
	env := os.Environ()
	slices.Sort(env)
	for _, e := range env {
		if k, _, _ := strings.Cut(e, "="); strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME" || k == "EMAIL" || k == "USER" || k == "LOGNAME" {
			b.WriteString(e)
			b.WriteByte(0)
		}
	}
	if onbranch {
		if r, ok := s.refs.(*gitRefs); ok {
			// A detached HEAD (or a failing git) reads as no branch.
			branch, _ := r.gitOut(nil, "symbolic-ref", "-q", "HEAD")
			b.WriteString("HEAD " + branch)
		} else if head, err := os.ReadFile(filepath.Join(s.gitDir, "HEAD")); err == nil {
			b.Write(head)
		}
		b.WriteByte(0)
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
