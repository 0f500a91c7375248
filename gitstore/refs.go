package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/graftdev/graft/gitstore/internal/gitrepo"
)

// References: where HEAD points and where each ref is, and moving a ref by
// compare-and-swap. Two storages exist:
//
//   - files (every repository git 2.x makes by default): loose ref files
//     and packed-refs, read and written by go-git (gitrepo); a ref moves
//     while graft holds git's own lock file (REF.lock, created
//     exclusively), so a concurrent git command and graft cannot both win,
//     and go-git compares and sets the value (CheckAndSetReference);
//   - reftable (extensions.refStorage = reftable, git 2.45 and later, the
//     announced default of git 3.0): a binary format graft does not write
//     itself. Refs are read with `git symbolic-ref` and `git for-each-ref`
//     and moved with `git update-ref --create-reflog NEW OLD`, git's
//     compare-and-swap, each ref's reflog written as with files. When the
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

// A refMove is a ref's move prepared ahead (heldRefs.prepare): for a
// journal ref of the files storage, its lock file taken and its value
// compared, so that only the write and the rename are left.
type refMove interface {
	// commit makes the move.
	commit() error
	// release abandons it, if commit was not called.
	release()
}

// prepare readies the move of name from old to nw, to be committed once
// the transaction may move it. A journal ref of the files storage is
// locked and compared now (its lock file's create overlaps the
// transaction's syncs); a ref moved since it was read is the same
// ErrConflict update gives. Other refs (branches, whose lock git's own
// commands should not find held long, and reftable's) are moved by commit
// as update moves them.
func (r *heldRefs) prepare(name string, old, nw oid, who signature, reflog string) (refMove, error) {
	fr, ok := r.refStore.(*filesRefs)
	if !ok || !isJournalRef(name) {
		return &laterMove{do: func() error { return r.update(name, old, nw, false, who, reflog) }}, nil
	}
	l, err := r.s.repo().LockRef(fr.refUpdate(name, old, nw, false, who, reflog))
	if err != nil {
		delete(r.refs, name)
		return nil, fr.explain(name, old, err)
	}
	return &lockedMove{r: r, l: l, name: name, nw: nw}, nil
}

// lockedMove is a move whose ref's lock file is held.
type lockedMove struct {
	r    *heldRefs
	l    *gitrepo.RefLock
	name string
	nw   oid
}

func (m *lockedMove) commit() error {
	if err := m.l.Commit(); err != nil {
		delete(m.r.refs, m.name)
		return fmt.Errorf("gitstore: %w", err)
	}
	if m.r.s.lockOwned {
		m.r.keep(m.name, heldRef{id: m.nw, found: true})
	}
	return nil
}

func (m *lockedMove) release() { m.l.Unlock() }

// laterMove is a move made whole by commit.
type laterMove struct{ do func() error }

func (m *laterMove) commit() error { return m.do() }
func (m *laterMove) release()      {}

// heldRefs is a refStore read once per hold of the repository's lock: a
// call reads HEAD, its branch and its journal ref when it checks its paths
// and again when it commits, and each read of the files storage is an
// open and a read (with reftable, a git process). While the lock is held
// the first answer is kept, and a move made through it is kept as the new
// value; a ref moved by someone else meanwhile is still caught by the
// move's own compare-and-swap, which always reads the ref under git's
// lock file. Outside the lock every read goes to the storage.
type heldRefs struct {
	refStore
	s    *Store
	held *heldHead
	refs map[string]heldRef
}

type heldHead struct {
	branch   string
	detached oid
}

type heldRef struct {
	id    oid
	found bool
}

func (r *heldRefs) head() (string, oid, error) {
	if r.held != nil {
		return r.held.branch, r.held.detached, nil
	}
	branch, detached, err := r.refStore.head()
	if err == nil && r.s.lockOwned {
		r.held = &heldHead{branch: branch, detached: detached}
	}
	return branch, detached, err
}

func (r *heldRefs) read(name string) (oid, error) {
	if v, ok := r.refs[name]; ok {
		if !v.found {
			return "", errRefNotFound
		}
		return v.id, nil
	}
	id, err := r.refStore.read(name)
	if r.s.lockOwned && (err == nil || errors.Is(err, errRefNotFound)) {
		r.keep(name, heldRef{id: id, found: err == nil})
	}
	return id, err
}

func (r *heldRefs) update(name string, old, nw oid, force bool, who signature, reflog string) error {
	err := r.refStore.update(name, old, nw, force, who, reflog)
	if err != nil {
		delete(r.refs, name)
		return err
	}
	if r.s.lockOwned {
		r.keep(name, heldRef{id: nw, found: true})
	}
	return nil
}

func (r *heldRefs) keep(name string, v heldRef) {
	if r.refs == nil {
		r.refs = map[string]heldRef{}
	}
	r.refs[name] = v
}

// forget drops what was read: the lock is released, and from now on any
// process may move the refs.
func (r *heldRefs) forget() {
	r.held = nil
	clear(r.refs)
}

// filesRefs is the files ref storage, through go-git (gitrepo).
type filesRefs struct {
	s *Store
	// durable fsyncs a ref before its lock is released: branches, as git
	// does; journal refs need no sync, since the intent record makes a
	// lost move roll back cleanly.
	durable func(name string) bool
}

func (r *filesRefs) head() (string, oid, error) {
	target, id, err := r.s.repo().RawRef("HEAD")
	if err != nil {
		return "", "", fmt.Errorf("gitstore: HEAD: %w", err)
	}
	return target, id, nil
}

func (r *filesRefs) read(name string) (oid, error) {
	h, err := r.s.repo().Ref(name)
	if errors.Is(err, gitrepo.ErrRefNotFound) {
		return "", errRefNotFound
	}
	if err != nil {
		return "", fmt.Errorf("gitstore: %w", err)
	}
	return h, nil
}

func (r *filesRefs) update(name string, old, nw oid, force bool, who signature, reflog string) error {
	return r.explain(name, old, r.s.repo().UpdateRef(r.refUpdate(name, old, nw, force, who, reflog)))
}

// refUpdate is the move of name from old to nw as gitrepo makes it.
func (r *filesRefs) refUpdate(name string, old, nw oid, force bool, who signature, reflog string) gitrepo.RefUpdate {
	return gitrepo.RefUpdate{
		Name: name, Old: old, New: nw, Force: force,
		Durable: r.durable != nil && r.durable(name),
		// A lock on graft's own refs that outlives the wait was left by a
		// graft process that died (graft's repository lock is held while
		// it moves them, so no live graft holds it).
		TakeOver: isJournalRef(name),
		Who:      who, Message: strings.ReplaceAll(subject(reflog), "\t", " "),
		// HEAD follows branches, never graft's journal refs: a journal
		// move (every landed call) does not read HEAD again.
		FollowHEAD:    !isJournalRef(name),
		BeforeReplace: r.s.holdRefFile,
	}
}

// explain is err of a move of name from old, a ref moved by someone else
// meanwhile said as the conflict it is.
func (r *filesRefs) explain(name string, old oid, err error) error {
	if errors.Is(err, gitrepo.ErrRefChanged) {
		cur, _ := r.read(name)
		switch {
		case old.IsZero():
			return fmt.Errorf("gitstore: %s: created by someone else: %w", name, ErrConflict)
		case cur.IsZero():
			return fmt.Errorf("gitstore: %s was deleted since graft read it: %w", name, ErrConflict)
		}
		return fmt.Errorf("gitstore: %s moved to %s since graft read it: %w", name, cur, ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("gitstore: %w", err)
	}
	return nil
}

// holdRefFile keeps a ref's file open as it is replaced, when DeferFrees
// is set, so that the file system frees it once the call has answered, as
// a replaced worktree file is (keepReplaced).
func (s *Store) holdRefFile(name string) {
	if !s.opts.DeferFrees {
		return
	}
	if h := holdFile(name); h.f != nil {
		s.keepReplaced(h)
	}
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
	// --create-reflog: git logs refs/heads by default but not graft's
	// journal refs, whose reflog keeps a landed journal's old entries
	// reachable (Squash); the files storage writes every ref's reflog too.
	args := []string{"update-ref", "--create-reflog", "-m", strings.ReplaceAll(subject(reflog), "\t", " "), name, nw.String()}
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
