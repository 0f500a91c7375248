package gitstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Who commits: the identity git itself would commit with, as
// `git var GIT_AUTHOR_IDENT` and `git var GIT_COMMITTER_IDENT` print it
// when run in the worktree with graft's own environment, whatever decides
// it: system, XDG, global, local and worktree config, include and
// includeIf (gitdir:, gitdir/i:, onbranch:, hasconfig:remote.*.url:),
// author.* and committer.*, GIT_AUTHOR_* and GIT_COMMITTER_*,
// GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM,
// GIT_CONFIG_COUNT/KEY/VALUE, GIT_CONFIG_PARAMETERS, GIT_DIR and
// GIT_WORK_TREE, and, where nothing configures it, the user's passwd entry
// and the host's name. Only the name and the email are taken; the time is
// graft's.
//
// git var is strict, as git commit is: it fails where git would refuse to
// commit (no user.email and no usable host name, or user.useConfigOnly).
// graft then falls back to its own reading of the environment and the
// repository's config, filling what is missing with DefaultName and
// DefaultEmail (identity.go), so that an edit is never refused for want of
// an identity. Where git is not installed that reading is all there is.
//
// The cache. git's answer is kept with the key it depends on (identKey):
// the environment variables git reads for it (GIT_*, but not the two
// dates, HOME, XDG_CONFIG_HOME, EMAIL, USER, LOGNAME), the host's name, and
// the size, modification time and inode of every file it may have read:
// each config file git listed when it answered (`git config --list
// --show-origin -z`, includes included), the places a config file may
// appear (system, XDG, global, local, worktree), every file an include or
// includeIf directive names, whether it exists yet or not (a file created
// after the answer changes the key; issue 32), and /etc/passwd and
// /etc/hosts, where git finds a name and a domain nothing configures; and,
// only when the listing has an includeIf.onbranch: key, the branch HEAD
// names. The answer and its key are kept twice: in memory for the
// process (a long-running graft mcp), and in the file graft-ident of the
// worktree's git dir, so that the next CLI process finds it. A call whose
// key matches asks git nothing: it reads that file (CLI) and stats about
// ten files. A config edit, a new include file, a checkout with an
// onbranch: include, a new environment: the key differs and git is asked
// again, three processes started when the call begins landing and waited
// for when its first commit is written. gitstore/doc.go says why graft
// asks git and keeps the answer rather than reading the config itself.
//
// With reftable HEAD lives in the worktree's reftable stack, which every
// ref move rewrites (graft's own journal moves included), so the branch is
// asked of git (`git symbolic-ref`, one process, once per call: refs are
// read once per hold of the lock), and only when an onbranch: include
// exists.

// gitIdent is a name and an email as git var printed them.
type gitIdent struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	OK    bool   `json:"ok"`
}

// identityJob is the identity of one call, being asked of git.
type identityJob struct {
	done              chan struct{}
	author, committer gitIdent
	// fresh is git's new answer to keep in graft-ident, written by the
	// call that waits for it (not by the goroutine, which may outlive a
	// call that failed).
	fresh *identCached
}

// wait waits for the identity and keeps a new answer of git's for the
// next process.
func (j *identityJob) wait(s *Store) {
	<-j.done
	if j.fresh != nil {
		s.saveIdentity(j.fresh)
		j.fresh = nil
	}
}

// identFileName is the file in the worktree's git dir that keeps git's
// last answer and its key for the next process.
const identFileName = "graft-ident"

// startIdentity starts asking git for the identity of the current call,
// once per hold of the lock (a call), unless its last answer still holds;
// it returns at once.
func (s *Store) startIdentity() *identityJob {
	if s.ident != nil {
		return s.ident
	}
	job := &identityJob{done: make(chan struct{})}
	if s.lockOwned {
		s.ident = job
	}
	if c := s.cachedIdentity(); c != nil {
		job.author, job.committer = c.Author, c.Committer
		close(job.done)
		return job
	}
	dir := s.root
	go func() {
		defer close(job.done)
		other := make(chan gitIdent, 1)
		listed := make(chan configListing, 1)
		go func() { other <- gitVar(dir, "GIT_COMMITTER_IDENT") }()
		go func() { listed <- configFiles(dir) }()
		var ran bool
		job.author, ran = gitVarRan(dir, "GIT_AUTHOR_IDENT")
		job.committer = <-other
		l := <-listed
		if !ran {
			// git is not installed: nothing to keep, and nothing started.
			identCache.Delete(dir)
			return
		}
		fs := s.configPlaces()
		for _, f := range l.files {
			if !slices.Contains(fs, f) {
				fs = append(fs, f)
			}
		}
		// The key is taken after git answered: a change made while it
		// ran is seen by the next call at worst.
		c := &identCached{Version: identVersion, Files: fs, OnBranch: l.onbranch,
			Author: job.author, Committer: job.committer}
		c.Key = s.identKey(fs, l.onbranch, s.storedBranch)
		identCache.Store(dir, c)
		job.fresh = c
	}()
	return job
}

// identCache holds, per worktree root, the last identity git gave and the
// key it depends on.
var identCache sync.Map // string -> *identCached

// identVersion is the form of graft-ident; another version is ignored.
const identVersion = 1

// identCached is git's answer and what it depends on, as graft-ident
// keeps it (JSON).
type identCached struct {
	Version int `json:"version"`
	// Key is the SHA-256 of identKey's text when git answered.
	Key   string   `json:"key"`
	Files []string `json:"files"`
	// OnBranch: the answer may depend on HEAD's branch.
	OnBranch  bool     `json:"onbranch"`
	Author    gitIdent `json:"author"`
	Committer gitIdent `json:"committer"`
}

// cachedIdentity is git's last answer for this worktree if its key still
// holds: the process's own, else the one graft-ident keeps; nil when git
// must be asked.
func (s *Store) cachedIdentity() *identCached {
	if v, ok := identCache.Load(s.root); ok {
		c := v.(*identCached)
		if c.Key == s.identKey(c.Files, c.OnBranch, s.headBranch) {
			return c
		}
	}
	c := s.loadIdentity()
	if c == nil || c.Key != s.identKey(c.Files, c.OnBranch, s.headBranch) {
		return nil
	}
	identCache.Store(s.root, c)
	return c
}

func (s *Store) identPath() string { return filepath.Join(s.gitDir, identFileName) }

// loadIdentity reads graft-ident; nil when it is missing or not of this
// version.
func (s *Store) loadIdentity() *identCached {
	f, err := openFile(s.identPath(), os.O_RDONLY, 0)
	if err != nil {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	f.Close()
	if err != nil {
		return nil
	}
	var c identCached
	if json.Unmarshal(b, &c) != nil || c.Version != identVersion || c.Key == "" {
		return nil
	}
	return &c
}

// saveIdentity writes graft-ident whole (a temporary file renamed over
// it), so that a reader never sees half of it. It is a cache: not synced,
// and a failure to write it only means the next process asks git again.
func (s *Store) saveIdentity(c *identCached) {
	b, err := json.Marshal(c)
	if err != nil {
		return
	}
	f, err := os.CreateTemp(s.gitDir, identFileName+".tmp*")
	if err != nil {
		return
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = replaceFile(f.Name(), s.identPath())
	}
	if err != nil {
		os.Remove(f.Name())
	}
}

// configPlaces are the files git may read config from for this worktree,
// whether they exist or not (one created later changes the key), and the
// files git reads an identity from when no config gives one.
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
		"/etc/passwd", "/etc/hosts")
}

// configListing is what `git config --list --show-origin -z` says about
// the config git reads in a worktree.
type configListing struct {
	// files are the config files read, includes included, and every file
	// an include or includeIf directive names, read or not (it may not
	// exist yet, or its condition may not hold).
	files []string
	// onbranch: some config has an includeIf.onbranch: key, so the
	// identity may change with HEAD's branch; true when git cannot say.
	onbranch bool
}

// configFiles lists the config files git reads in dir.
func configFiles(dir string) configListing {
	cmd := exec.Command("git", "config", "--list", "--show-origin", "-z")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return configListing{onbranch: true}
	}
	return parseConfigListing(out, dir, os.Getenv("HOME"))
}

// parseConfigListing reads the records "ORIGIN\0KEY\nVALUE\0" (or
// "ORIGIN\0KEY\0" for a key without a value) of `git config --list
// --show-origin -z` run in dir, home being $HOME.
func parseConfigListing(out []byte, dir, home string) configListing {
	var l configListing
	add := func(f string) {
		if !slices.Contains(l.files, f) {
			l.files = append(l.files, f)
		}
	}
	recs := strings.Split(string(out), "\x00")
	for i := 0; i+1 < len(recs); i += 2 {
		origin, kv := recs[i], recs[i+1]
		key, value, _ := strings.Cut(kv, "\n")
		file, isFile := strings.CutPrefix(origin, "file:")
		if isFile && !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		if isFile {
			add(file)
		}
		// git prints the section and the name lowercased and the
		// subsection as written; the condition is matched
		// case-insensitively here, which at worst keys on HEAD for nothing.
		lower := strings.ToLower(key)
		if strings.HasPrefix(lower, "includeif.onbranch:") {
			l.onbranch = true
		}
		if lower == "include.path" || strings.HasPrefix(lower, "includeif.") && strings.HasSuffix(lower, ".path") {
			if p := includeTarget(value, file, isFile, home); p != "" {
				add(p)
			}
		}
	}
	return l
}

// includeTarget is the file an include path names, as git resolves it: a
// leading ~/ is $HOME, a relative path is relative to the directory of
// the file holding the directive; "" when it cannot be resolved here (a
// ~user path, or a relative path given outside any file).
func includeTarget(value, from string, fromFile bool, home string) string {
	switch {
	case value == "":
		return ""
	case value == "~" || strings.HasPrefix(value, "~/"):
		if home == "" {
			return ""
		}
		return filepath.Join(home, strings.TrimPrefix(value, "~"))
	case strings.HasPrefix(value, "~"):
		return ""
	case filepath.IsAbs(value):
		return filepath.Clean(value)
	case fromFile:
		return filepath.Join(filepath.Dir(from), value)
	}
	return ""
}

// identKey is what the identity depends on, as the hex SHA-256 of: the
// environment variables git reads for it, the host's name, the stat of
// files and, with onbranch, HEAD's branch as branch reads it.
func (s *Store) identKey(files []string, onbranch bool, branch func() string) string {
	h := sha256.New()
	env := os.Environ()
	slices.Sort(env)
	for _, e := range env {
		k, _, _ := strings.Cut(e, "=")
		if k == "GIT_AUTHOR_DATE" || k == "GIT_COMMITTER_DATE" {
			continue // the dates are graft's to read, not git var's
		}
		if strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME" || k == "EMAIL" || k == "USER" || k == "LOGNAME" {
			h.Write([]byte(e))
			h.Write([]byte{0})
		}
	}
	fmt.Fprintf(h, "host %s\x00", hostname())
	if onbranch {
		fmt.Fprintf(h, "HEAD %s\x00", branch())
	}
	var b bytes.Buffer
	for _, f := range files {
		b.Reset()
		b.WriteString(f)
		if fi, err := os.Stat(f); err == nil {
			fmt.Fprintf(&b, " %d %d %v", fi.Size(), fi.ModTime().UnixNano(), statID(fi))
		}
		b.WriteByte(0)
		h.Write(b.Bytes())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// headBranch is the branch HEAD names, "" when it is detached or cannot
// be read; read once per hold of the lock (refs.go).
func (s *Store) headBranch() string {
	branch, _, _ := s.refs.head()
	return branch
}

// storedBranch is headBranch read from the storage itself, without the
// refs kept for the call, for the goroutine that asks git while the call
// goes on: the HEAD file, or with reftable git symbolic-ref.
func (s *Store) storedBranch() string {
	if _, ok := s.refs.refStore.(*gitRefs); ok {
		branch, _ := (&gitRefs{s: s}).gitOut(nil, "symbolic-ref", "-q", "HEAD")
		return branch
	}
	b, err := os.ReadFile(filepath.Join(s.gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref:")
	if !ok {
		return ""
	}
	return strings.TrimSpace(target)
}

// gitVar runs `git var name` in dir and reads "NAME <EMAIL> TIME TZ"; OK
// is false when git is missing or has no such identity.
func gitVar(dir, name string) gitIdent {
	id, _ := gitVarRan(dir, name)
	return id
}

// gitVarRan is gitVar, and whether git could be run at all.
func gitVarRan(dir, name string) (gitIdent, bool) {
	cmd := exec.Command("git", "var", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		return gitIdent{}, errors.As(err, &ee)
	}
	return parseIdent(string(bytes.TrimSpace(out))), true
}

// parseIdent reads the name and email of "NAME <EMAIL> TIME TZ".
func parseIdent(line string) gitIdent {
	lt := strings.IndexByte(line, '<')
	gt := strings.LastIndexByte(line, '>')
	if lt < 0 || gt < lt {
		return gitIdent{}
	}
	return gitIdent{Name: strings.TrimSpace(line[:lt]), Email: line[lt+1 : gt], OK: true}
}
