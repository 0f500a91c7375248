package gitrepo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v6/plumbing"
	"github.com/go-git/go-git/v6/plumbing/format/reflog"
	"github.com/go-git/go-git/v6/storage/filesystem"
)

// References of the files backend (loose ref files and packed-refs), read
// and moved through go-git's reference storage. Reftable is not go-git's
// to read (v6 refuses extensions.refStorage); gitstore moves such refs
// through the installed git.

// ErrRefNotFound: the ref does not exist.
var ErrRefNotFound = errors.New("reference not found")

// ErrRefChanged: a compare-and-swap found the ref elsewhere.
var ErrRefChanged = errors.New("reference changed")

// perWorktree reports whether a ref lives in the worktree's own git dir
// rather than the common dir.
func perWorktree(name string) bool {
	return name == "HEAD" || strings.HasPrefix(name, "refs/worktree/") || strings.HasPrefix(name, "refs/bisect/") || strings.HasPrefix(name, "refs/rewritten/")
}

// refs is the storage that holds name.
func (r *Repo) refs(name string) *filesystem.Storage {
	if r.wt != nil && perWorktree(name) {
		return r.wt
	}
	return r.st
}

// refFile is a ref's loose file.
func (r *Repo) refFile(name string) string {
	dir := r.commonDir
	if perWorktree(name) {
		dir = r.gitDir
	}
	return filepath.Join(dir, filepath.FromSlash(name))
}

// RawRef returns a ref's stored value: a symbolic target or an id;
// ErrRefNotFound when it does not exist.
func (r *Repo) RawRef(name string) (target string, id ID, err error) {
	ref, err := r.refs(name).Reference(plumbing.ReferenceName(name))
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		return "", "", ErrRefNotFound
	case err != nil:
		return "", "", fmt.Errorf("%s: %w", name, err)
	case ref.Type() == plumbing.SymbolicReference:
		return ref.Target().String(), "", nil
	}
	h := fromHash(ref.Hash())
	if !h.IsZero() && len(h) != 2*r.format.Size() {
		return "", "", fmt.Errorf("%s: not a %s id: %q", name, r.format.Name(), h)
	}
	return "", h, nil
}

// Ref returns a ref's value, following symbolic refs.
func (r *Repo) Ref(name string) (ID, error) {
	for range 5 {
		target, id, err := r.RawRef(name)
		if err != nil || target == "" {
			return id, err
		}
		name = target
	}
	return "", fmt.Errorf("%s: symbolic refs nest too deep", name)
}

// lockWait is how long a ref's lock file held by someone else is waited
// for (git's core.filesRefLockTimeout defaults to 100 ms).
const lockWait = time.Second

// RefUpdate is a move of one ref.
type RefUpdate struct {
	Name     string
	Old, New ID
	// Force skips the compare (recovery); otherwise Old zero means the
	// ref must not exist.
	Force bool
	// Durable syncs the ref file to disk before the lock is released.
	Durable bool
	// TakeOver removes a lock file that outlives the wait (left by a
	// process that died).
	TakeOver bool
	// Who and Message make the reflog entry; HEAD's reflog gets it too
	// when HEAD names the ref (FollowHEAD).
	Who        Signature
	Message    string
	FollowHEAD bool
	// BeforeReplace, when set, is called with the ref's file just before
	// the new one replaces it (graft keeps the old one open, so that the
	// file system frees it later: DeferFrees).
	BeforeReplace func(file string)
}

// UpdateRef moves a ref by compare-and-swap, as git does: git's lock file
// (REF.lock, created exclusively) is held meanwhile, so a concurrent git
// command (which takes the same lock) and graft cannot both move the ref;
// the ref is read under it (loose or packed, through go-git) and compared,
// the new value is written into the lock file, synced when Durable, and
// the lock file renamed over the ref. A crash leaves the ref whole, old or
// new, and at worst the lock file behind (TakeOver). The reflog entry is
// go-git's; failing to write it does not fail the move. It is LockRef then
// RefLock.Commit.
func (r *Repo) UpdateRef(u RefUpdate) error {
	l, err := r.LockRef(u)
	if err != nil {
		return err
	}
	return l.Commit()
}

// A RefLock is a ref's lock file held, its value compared, its move not
// yet made: the first half of UpdateRef, taken ahead so that its create
// overlaps other work (a transaction takes it while its data is synced).
// Nobody else can move the ref until Commit or Unlock.
type RefLock struct {
	r          *Repo
	u          RefUpdate
	file, lock string
	f          *os.File
	cur        ID
}

// LockRef takes the ref's lock file and compares the ref with u.Old
// (ErrRefChanged when it differs, unless u.Force); Commit makes the move,
// Unlock abandons it.
func (r *Repo) LockRef(u RefUpdate) (*RefLock, error) {
	if _, ok := hash(u.New); !ok {
		return nil, fmt.Errorf("%s: bad id %q", u.Name, u.New)
	}
	file := r.refFile(u.Name)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return nil, fmt.Errorf("%s: %w", u.Name, err)
	}
	lock := file + ".lock"
	f := r.lockFromPool(lock)
	var err error
	if f == nil {
		f, err = createLock(lock, u.TakeOver)
	}
	if err != nil {
		return nil, fmt.Errorf("%s is being updated by another git command (%s exists): %w", u.Name, lock, err)
	}
	l := &RefLock{r: r, u: u, file: file, lock: lock, f: f}
	cur, err := r.Ref(u.Name)
	if err != nil && !errors.Is(err, ErrRefNotFound) {
		if !u.Force {
			l.Unlock()
			return nil, err
		}
		cur = "" // recovery: a torn ref file is overwritten
	}
	if !u.Force && cur != u.Old {
		l.Unlock()
		return nil, fmt.Errorf("%s: %w (now %q)", u.Name, ErrRefChanged, cur)
	}
	l.cur = cur
	return l, nil
}

// Unlock removes the lock file without moving the ref; after Commit it
// does nothing.
func (l *RefLock) Unlock() {
	if l.f == nil {
		return
	}
	l.f.Close()
	os.Remove(l.lock)
	l.f = nil
}

// Commit writes the new value into the lock file (synced when Durable),
// renames it over the ref and appends the reflog entry. On failure the
// lock file is removed and the ref left as it was.
func (l *RefLock) Commit() error {
	if l.f == nil {
		return fmt.Errorf("%s: the ref's lock is no longer held", l.u.Name)
	}
	u, f := l.u, l.f
	_, err := f.Write([]byte(string(u.New) + "\n"))
	if err == nil && u.Durable {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && u.BeforeReplace != nil {
		u.BeforeReplace(l.file)
	}
	if err == nil {
		err = rename(l.lock, l.file)
	}
	if err != nil {
		os.Remove(l.lock)
		l.f = nil
		return fmt.Errorf("%s: %w", u.Name, err)
	}
	l.f = nil
	nh, _ := hash(u.New)
	e := &reflog.Entry{OldHash: l.r.zeroOr(l.cur), NewHash: nh, Message: u.Message,
		Committer: reflog.Signature{Name: u.Who.Name, Email: u.Who.Email, When: u.Who.When}}
	_ = l.r.refs(u.Name).AppendReflog(plumbing.ReferenceName(u.Name), e)
	if u.FollowHEAD {
		if target, _, err := l.r.RawRef("HEAD"); err == nil && target == u.Name {
			_ = l.r.refs("HEAD").AppendReflog(plumbing.HEAD, e)
		}
	}
	return nil
}

// zeroOr is h as go-git's id, or this format's all-zero id.
func (r *Repo) zeroOr(h ID) plumbing.Hash {
	if ph, ok := hash(h); ok {
		return ph
	}
	z, _ := plumbing.FromHex(r.format.ZeroHex())
	return z
}

// createLock creates a lock file exclusively, waiting briefly for another
// holder; with takeover, a lock that outlives the wait is removed and
// taken.
func createLock(name string, takeover bool) (*os.File, error) {
	deadline := time.Now().Add(lockWait)
	for {
		f, err := OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
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
