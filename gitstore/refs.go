package gitstore

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// References: where HEAD points and where each ref is, and moving a ref by
// compare-and-swap. Two storages exist:
//
//   - files (every repository git 2.x makes by default): loose ref files
//     and packed-refs, read here; a ref moves with git's own lock-file
//     protocol (REF.lock created exclusively, the current value checked,
//     written, renamed over), so a concurrent git command and graft cannot
//     both win;
//   - reftable (extensions.refStorage = reftable, git 2.45 and later, the
//     announced default of git 3.0): a binary format graft does not write
//     itself. Refs are read with `git symbolic-ref` and `git show-ref` and
//     moved with `git update-ref NEW OLD`, git's compare-and-swap. When the
//     installed git is older than 2.45 the repository is refused.
//
// Everything else graft does in such a repository (objects, the worktree,
// the intent record) is the same in both.

// refStore reads and moves references.
type refStore interface {
	// head returns the branch HEAD names ("" when detached) and, when
	// detached, the commit it holds.
	head() (branch string, detached oid, err error)
	// read returns a ref's value; errRefNotFound when it does not exist.
	read(name string) (oid, error)
	// update moves name from old to nw. old zero means the ref must not
	// exist; force skips the check (recovery). reflog is the message
	// recorded for the move, by the committer who.
	update(name string, old, nw oid, force bool, who signature, reflog string) error
}

// errRefNotFound: the ref does not exist.
var errRefNotFound = errors.New("reference not found")

// filesRefs is the files ref storage.
type filesRefs struct {
	s *Store
	// durable fsyncs a ref before renaming it into place: branches, as
	// git does; journal refs need no sync, since the intent record makes
	// a lost move roll back cleanly.
	durable func(name string) bool
}

// refDir is where a ref's loose file lives: the worktree's git dir for
// HEAD and the per-worktree refs, the common dir for the others.
func (r *filesRefs) refDir(name string) string {
	if name == "HEAD" || strings.HasPrefix(name, "refs/worktree/") || strings.HasPrefix(name, "refs/bisect/") || strings.HasPrefix(name, "refs/rewritten/") {
		return r.s.gitDir
	}
	return r.s.commonDir
}

// raw returns a ref's stored value: a symbolic target or an id.
func (r *filesRefs) raw(name string) (target string, id oid, err error) {
	b, err := readWhole(filepath.Join(r.refDir(name), filepath.FromSlash(name)))
	switch {
	case err == nil:
		v := strings.TrimSpace(string(b))
		if t, ok := strings.CutPrefix(v, "ref:"); ok {
			return strings.TrimSpace(t), "", nil
		}
		h, ok := r.s.algo.Parse(v)
		if !ok {
			return "", "", fmt.Errorf("gitstore: %s: not a %s id: %q", name, r.s.algo.Name(), v)
		}
		return "", h, nil
	case errors.Is(err, fs.ErrNotExist), isDirErr(err):
		return r.packed(name)
	default:
		return "", "", fmt.Errorf("gitstore: %s: %w", name, err)
	}
}

// isDirErr reports a read of a directory (a ref name that is a prefix of
// others).
func isDirErr(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "directory")
}

// packed looks a ref up in packed-refs.
func (r *filesRefs) packed(name string) (string, oid, error) {
	f, err := os.Open(filepath.Join(r.s.commonDir, "packed-refs"))
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", errRefNotFound
	}
	if err != nil {
		return "", "", fmt.Errorf("gitstore: packed-refs: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] == '#' || line[0] == '^' {
			continue
		}
		id, ref, ok := bytes.Cut(line, []byte(" "))
		if ok && string(ref) == name {
			h, ok := r.s.algo.Parse(string(id))
			if !ok {
				return "", "", fmt.Errorf("gitstore: packed-refs: %s: bad id", name)
			}
			return "", h, nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", "", fmt.Errorf("gitstore: packed-refs: %w", err)
	}
	return "", "", errRefNotFound
}

func (r *filesRefs) head() (string, oid, error) {
	target, id, err := r.raw("HEAD")
	if err != nil {
		return "", "", fmt.Errorf("gitstore: HEAD: %w", err)
	}
	return target, id, nil
}

func (r *filesRefs) read(name string) (oid, error) {
	for i := 0; i < 5; i++ {
		target, id, err := r.raw(name)
		if err != nil || target == "" {
			return id, err
		}
		name = target
	}
	return "", fmt.Errorf("gitstore: %s: symbolic refs nest too deep", name)
}

// lockWait is how long a ref's lock file held by someone else is waited
// for (git's core.filesRefLockTimeout defaults to 100 ms).
const lockWait = time.Second

func (r *filesRefs) update(name string, old, nw oid, force bool, who signature, reflog string) error {
	file := filepath.Join(r.refDir(name), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("gitstore: %s: %w", name, err)
	}
	lock := file + ".lock"
	f, err := createLock(lock, strings.HasPrefix(name, "refs/graft/"))
	if err != nil {
		return fmt.Errorf("gitstore: %s is being updated by another git command (%s exists): %w", name, lock, err)
	}
	committed := false
	defer func() {
		if !committed {
			f.Close()
			os.Remove(lock)
		}
	}()
	cur, err := r.read(name)
	if err != nil && !errors.Is(err, errRefNotFound) {
		if !force {
			return err
		}
		cur = "" // recovery: a torn ref file is overwritten
	}
	if !force && cur != old {
		if old.IsZero() {
			return fmt.Errorf("gitstore: %s: created by someone else: %w", name, ErrConflict)
		}
		what := "was deleted"
		if !cur.IsZero() {
			what = "moved to " + cur.String()
		}
		return fmt.Errorf("gitstore: %s %s since graft read it: %w", name, what, ErrConflict)
	}
	if _, err := f.WriteString(nw.String() + "\n"); err != nil {
		return err
	}
	if r.durable != nil && r.durable(name) {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	r.s.holdReplaced(file)
	if err := replaceFile(lock, file); err != nil {
		return err
	}
	committed = true
	line := reflogLine(r.s.algo, cur, nw, who, reflog)
	r.appendReflog(name, line)
	// HEAD follows branches, never graft's journal refs: a journal move
	// (every landed call) does not read HEAD again.
	if !strings.HasPrefix(name, "refs/graft/") {
		if target, _, err := r.raw("HEAD"); err == nil && target == name {
			r.appendReflog("HEAD", line)
		}
	}
	return nil
}

// createLock creates a lock file exclusively, waiting briefly for another
// holder. A lock on graft's own refs that outlives the wait was left by a
// graft process that died (graft's repository lock is held while it moves
// them, so no live graft holds it): it is taken over.
func createLock(name string, takeover bool) (*os.File, error) {
	deadline := time.Now().Add(lockWait)
	for {
		f, err := openFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil || !errors.Is(err, fs.ErrExist) {
			return f, err
		}
		if time.Now().After(deadline) {
			if !takeover {
				return nil, err
			}
			takeover = false
			os.Remove(name)
			continue
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// appendReflog adds a line to the ref's reflog. Reflogs are a
// convenience: failing to write one does not fail the call.
func (r *filesRefs) appendReflog(name, line string) {
	if line == "" {
		return
	}
	file := filepath.Join(r.refDir(name), "logs", filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return
	}
	f, err := openFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(line)
}

// reflogLine formats a reflog entry moving from old to nw.
func reflogLine(f objectFormat, old, nw oid, who signature, msg string) string {
	msg = strings.ReplaceAll(subject(msg), "\t", " ")
	o := old.String()
	if old.IsZero() {
		o = f.ZeroHex()
	}
	return fmt.Sprintf("%s %s %s\t%s\n", o, nw, who, msg)
}

// gitRefs is the reftable ref storage, through the installed git.
type gitRefs struct{ s *Store }

// minReftableGit is the first git release that reads and writes reftable.
var minReftableGit = [3]int{2, 45, 0}

// checkReftableGit reports whether the installed git handles reftable.
func checkReftableGit() error {
	out, err := exec.Command("git", "version").Output()
	if err != nil {
		return fmt.Errorf("git is not installed (%v)", err)
	}
	v, ok := parseGitVersion(string(out))
	if !ok {
		return fmt.Errorf("cannot read the version of git from %q", strings.TrimSpace(string(out)))
	}
	for i := range v {
		if v[i] != minReftableGit[i] {
			if v[i] < minReftableGit[i] {
				return fmt.Errorf("the installed git is %d.%d.%d", v[0], v[1], v[2])
			}
			break
		}
	}
	return nil
}

// parseGitVersion reads "git version 2.45.1[.vendor]".
func parseGitVersion(s string) ([3]int, bool) {
	var v [3]int
	f := strings.Fields(s)
	if len(f) < 3 {
		return v, false
	}
	parts := strings.Split(f[2], ".")
	if len(parts) < 2 {
		return v, false
	}
	for i := 0; i < 3 && i < len(parts); i++ {
		n, err := strconv.Atoi(parts[i])
		if err != nil {
			if i < 2 {
				return v, false
			}
			break
		}
		v[i] = n
	}
	return v, true
}

// gitOut runs git in the repository and returns its trimmed output.
func (r *gitRefs) gitOut(env []string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"--git-dir", r.s.gitDir}, args...)...)
	cmd.Dir = r.s.root
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

func (r *gitRefs) head() (string, oid, error) {
	if out, err := r.gitOut(nil, "symbolic-ref", "-q", "HEAD"); err == nil && out != "" {
		return out, "", nil
	}
	out, err := r.gitOut(nil, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	if err != nil {
		return "", "", fmt.Errorf("gitstore: HEAD: %w", err)
	}
	h, ok := r.s.algo.Parse(out)
	if !ok {
		return "", "", fmt.Errorf("gitstore: HEAD: git printed %q", out)
	}
	return "", h, nil
}

func (r *gitRefs) read(name string) (oid, error) {
	// The pattern matches name and the refs below it: keep the exact one.
	out, err := r.gitOut(nil, "for-each-ref", "--format=%(refname) %(objectname)", "--", name)
	if err != nil {
		return "", fmt.Errorf("gitstore: %s: %w", name, err)
	}
	for _, line := range strings.Split(out, "\n") {
		if ref, id, ok := strings.Cut(line, " "); ok && ref == name {
			h, ok := r.s.algo.Parse(id)
			if !ok {
				return "", fmt.Errorf("gitstore: %s: git printed %q", name, id)
			}
			return h, nil
		}
	}
	return "", errRefNotFound
}

func (r *gitRefs) update(name string, old, nw oid, force bool, who signature, reflog string) error {
	args := []string{"update-ref", "-m", strings.ReplaceAll(subject(reflog), "\t", " "), name, nw.String()}
	if !force {
		o := old.String()
		if old.IsZero() {
			o = r.s.algo.ZeroHex() // must not exist yet
		}
		args = append(args, o)
	}
	env := []string{"GIT_COMMITTER_NAME=" + who.Name, "GIT_COMMITTER_EMAIL=" + who.Email,
		"GIT_COMMITTER_DATE=" + strconv.FormatInt(who.When.Unix(), 10) + " " + who.When.Format("-0700")}
	if _, err := r.gitOut(env, args...); err != nil {
		if cur, rerr := r.read(name); !force && (rerr == nil && cur != old || errors.Is(rerr, errRefNotFound) && !old.IsZero()) {
			return fmt.Errorf("gitstore: %s moved since graft read it: %w", name, ErrConflict)
		}
		return fmt.Errorf("gitstore: %s: %w", name, err)
	}
	return nil
}
