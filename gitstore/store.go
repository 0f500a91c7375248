package gitstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/graftdev/graft/gitstore/internal/gitrepo"
)

// ErrConflict: a file changed on disk between graft's read and its write,
// or (for undo and redo) a file no longer fits the change being reversed.
var ErrConflict = errors.New("file changed since it was read")

// ErrUnsafeRepository: the repository is owned by another user and is not
// listed in safe.directory, so graft refuses it as git does.
var ErrUnsafeRepository = errors.New("repository owned by another user (see git config safe.directory)")

// ErrLocked: another graft process held the repository's lock for longer
// than the lock timeout.
var ErrLocked = errors.New("repository is locked by another graft process")

// ErrFiltered: branch mode refuses a path that git would convert on commit
// (a clean/smudge filter such as LFS, or end-of-line conversion).
var ErrFiltered = errors.New("path is under a git filter or end-of-line conversion")

// ErrReadOnly: a file its owner cannot write (mode 0444, or the read-only
// attribute on Windows) is not changed or deleted, not even by a process
// that could (root): graft respects the mode rather than overriding it.
var ErrReadOnly = errors.New("file is read-only")

// ErrNoBranch: landing the journal (or branch mode) needs a branch, and
// HEAD is detached, or the journal is kept outside any repository.
var ErrNoBranch = errors.New("no branch")

// ErrNothingToUndo and ErrNothingToRedo: the journal has no edit to undo or
// no undone edit to redo.
var (
	ErrNothingToUndo = errors.New("nothing to undo")
	ErrNothingToRedo = errors.New("nothing to redo")
)

// Change is one file's content before and after a call.
type Change struct {
	// Path is slash-separated and relative to the worktree root.
	Path string
	// Old is the content the call was computed from; nil when the call
	// creates the file.
	Old []byte
	// New is the content to write; nil when the call deletes the file
	// (and NewParts is nil).
	New []byte
	// NewParts, when not nil, is the content to write as consecutive parts
	// (spans of Old and the texts put between them), and New is nil: a
	// small edit of a big file is then hashed and written without a copy
	// of its unchanged bytes.
	NewParts [][]byte
	// Mode holds the permission bits of New (the executable bit matters);
	// 0 keeps the file's current mode (0o644 for a new file). With
	// fs.ModeSymlink, New is the target of a symbolic link written at Path.
	Mode fs.FileMode
	// OldHash and NewHash, when set, are the blob ids of Old and New
	// being computed already (Store.HashAsync of these very slices, or
	// Store.HashPartsAsync of these very NewParts).
	OldHash, NewHash *PendingHash
}

// deletes reports whether the change deletes its file.
func (c Change) deletes() bool { return c.New == nil && c.NewParts == nil }

// newParts is the new content as parts: NewParts, or New alone; nil when
// the change deletes the file.
func (c Change) newParts() [][]byte {
	switch {
	case c.NewParts != nil:
		return c.NewParts
	case c.New != nil:
		return [][]byte{c.New}
	}
	return nil
}

// partsLen is the length of the concatenation of parts.
func partsLen(parts [][]byte) int {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	return n
}

// joinParts is the concatenation of parts (never nil).
func joinParts(parts [][]byte) []byte {
	if len(parts) == 1 && parts[0] != nil {
		return parts[0]
	}
	out := make([]byte, 0, partsLen(parts))
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// Call describes a call for the record: the tool and a message.
type Call struct {
	// Tool is the tool's name; it becomes the Graft-Tool trailer.
	Tool string
	// Message is the call's description; when empty a summary naming the
	// tool and the files is generated.
	Message string
}

// Landed reports a landed call.
type Landed struct {
	// Commit is the id of the commit that records the call: on the journal
	// ref, or on the current branch in branch mode.
	Commit string
	// Snapshot is the id of the snapshot commit written first because a
	// touched file had changed outside graft, or "".
	Snapshot string
	// Ref is the full name of the ref that Commit is on.
	Ref string
}

// Mode says where landed calls are recorded.
type Mode int

const (
	// ModeDefault reads the mode from $GRAFT_MODE, else git config
	// graft.mode ("commit" or "journal"), falling back to ModeJournal.
	ModeDefault Mode = iota
	// ModeJournal records each call as a commit on refs/graft/<branch>,
	// leaving HEAD, the index and the branches alone.
	ModeJournal
	// ModeCommit records each call as a commit on the current branch and
	// updates the index entries of the touched paths.
	ModeCommit
)

// ModeEnv names the environment variable that chooses the mode when
// OpenOptions.Mode is ModeDefault: "commit" or "journal". It overrides git
// config graft.mode (the CLI's --commit flag sets it).
const ModeEnv = "GRAFT_MODE"

// OpenOptions tunes Open. The zero value is what Open uses.
type OpenOptions struct {
	// Mode chooses journal or branch mode; ModeDefault asks git config.
	Mode Mode
	// LockTimeout bounds the wait for another graft process's lock;
	// 0 means 30 s.
	LockTimeout time.Duration
	// StateDir holds the private repositories of directories outside any
	// repository; "" means %LOCALAPPDATA%\graft on Windows, else
	// $XDG_STATE_HOME/graft or ~/.local/state/graft.
	StateDir string
	// DeferFrees keeps the versions a transaction replaces (each file's
	// old content, the ref's old file) open until ReleaseReplaced, so that
	// the file system frees them then instead of inside the rename, which
	// on some file systems waits for the freed blocks to be discarded. A
	// long-lived process (graft mcp) releases them once it has answered.
	// At most 256 are kept; beyond that the oldest are closed at once.
	// Unix only; elsewhere it does nothing.
	DeferFrees bool
	// PoolFiles, when above 0, keeps up to that many empty files made
	// ahead in the objects directory for the loose objects and temporary
	// copies of the next calls (FillPool makes them, ClosePool removes
	// them): a long-lived process (graft mcp) makes them while it is
	// idle, so that a call renames files instead of creating them. Unix
	// only; elsewhere it does nothing.
	PoolFiles int
	// Trailers are trailer templates ("Assisted-by: {agent}") written on
	// the user's branch by Squash and in branch mode, before those of git
	// config graft.trailer; {agent} stands for each agent whose edits the
	// commit holds (attribution.go). None are written unless asked for.
	Trailers []string
}

// Store is a worktree that graft edits: its root, its git directory, and
// the transactions that land calls in it.
type Store struct {
	root      string
	gitDir    string // the worktree's git dir (per-worktree files: HEAD, locks)
	commonDir string // objects, refs and config
	private   bool   // the git dir is graft's private repository
	opts      OpenOptions
	mode      Mode
	cfg       *gitConfig
	algo      objectFormat // the repository's object ids: SHA-1 or SHA-256
	refs      *heldRefs    // files, or reftable through git, read once per lock hold
	opened    bool         // the private repository exists (openStorage)
	lockOwned bool
	// lockWaited: another process held the lock when this hold asked for
	// it (flushBatch).
	lockWaited bool
	ident      *identityJob // the current call's identity (ident.go)
	// heldTree is HEAD's tree while the lock is held, once CheckPath has
	// read it (owner.go).
	heldTree   oid
	heldTreeOK bool
	recovered  *Recovery
	trees      treeCache
	// commitTrees caches the trees of commits read (commitTree).
	commitTrees map[oid]oid
	batch       *objectBatch  // a transaction's objects, not yet written
	replaced    []*os.File    // replaced files, kept open (DeferFrees)
	gr          *gitrepo.Repo // objects through go-git (repo opens it)
}

// Open finds the worktree that contains dir, as git does: the nearest
// ancestor holding .git (a directory, or a file naming a linked worktree's
// git dir). Outside a repository the root is dir itself and the journal is
// kept in a private repository under the user's state directory.
//
// Before returning, Open finishes or rolls back a call that an earlier
// process left interrupted, so every file is wholly before or wholly after.
// It fails with ErrUnsafeRepository for a repository owned by another user
// that safe.directory does not allow, and with ErrLocked when another
// graft process holds the lock past the timeout.
func Open(dir string) (*Store, error) { return OpenWith(dir, OpenOptions{}) }

// OpenWith is Open with options.
func OpenWith(dir string, o OpenOptions) (*Store, error) {
	if o.LockTimeout == 0 {
		o.LockTimeout = 30 * time.Second
		if v, err := time.ParseDuration(os.Getenv("GRAFT_LOCK_TIMEOUT")); err == nil && v > 0 {
			o.LockTimeout = v
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	abs, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	s := &Store{opts: o}
	root, gitDir, err := discover(abs)
	if err != nil {
		return nil, err
	}
	if gitDir == "" {
		s.root = abs
		s.private = true
		s.gitDir = privateRepoDir(o.StateDir, abs)
		s.commonDir = s.gitDir
	} else {
		s.root, s.gitDir = root, gitDir
		s.commonDir = commonDir(gitDir)
	}
	s.cfg = loadConfig(s.commonDir, !s.private)
	s.algo = formatSHA1
	s.refs = &heldRefs{s: s, refStore: &filesRefs{s: s, durable: func(name string) bool { return !isJournalRef(name) }}}
	if !s.private {
		if err := s.checkSafe(); err != nil {
			return nil, err
		}
		if err := s.checkFormat(); err != nil {
			return nil, err
		}
	}
	s.mode = o.Mode
	if s.mode == ModeDefault {
		s.mode = ModeJournal
		setting := os.Getenv(ModeEnv)
		if setting == "" {
			setting = s.cfg.get("graft", "mode")
		}
		if strings.EqualFold(setting, "commit") {
			s.mode = ModeCommit
		}
	}
	if s.private {
		s.mode = ModeJournal
		if !exists(filepath.Join(s.gitDir, "HEAD")) {
			// Nothing recorded yet: nothing to recover, and the private
			// repository is created by the first call that lands.
			return s, nil
		}
	}
	if err := s.openStorage(); err != nil {
		return nil, err
	}
	if s.hasIntent() || s.hasPending() {
		// withLock recovers before running its function.
		if err := s.withLock(func() error { return nil }); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// discover walks up from abs to the nearest directory holding .git and
// returns the worktree root and its git dir; gitDir is "" outside any
// repository.
func discover(abs string) (root, gitDir string, err error) {
	for d := abs; ; {
		dotgit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			gitDir := dotgit
			if !fi.IsDir() {
				gitDir, err = readGitFile(d, dotgit)
				if err != nil {
					return "", "", err
				}
			}
			return d, gitDir, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", nil
		}
		d = parent
	}
}

// readGitFile resolves a .git file ("gitdir: PATH") of a linked worktree.
func readGitFile(root, name string) (string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("gitstore: %w", err)
	}
	line, ok := bytes.CutPrefix(bytes.TrimSpace(b), []byte("gitdir:"))
	if !ok {
		return "", fmt.Errorf("gitstore: %s: not a gitdir file", name)
	}
	p := string(bytes.TrimSpace(line))
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	return filepath.Clean(p), nil
}

// commonDir reads the commondir file of a linked worktree's git dir.
func commonDir(gitDir string) string {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	p := strings.TrimSpace(string(b))
	if !filepath.IsAbs(p) {
		p = filepath.Join(gitDir, p)
	}
	return filepath.Clean(p)
}

// privateRepoDir names the private repository that journals an edited
// directory outside any repository.
func privateRepoDir(stateDir, dir string) string {
	if stateDir == "" {
		stateDir = defaultStateDir()
	}
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(stateDir, "repos", filepath.Base(dir)+"-"+hex.EncodeToString(sum[:8])+".git")
}

func defaultStateDir() string { return stateDirFor(runtime.GOOS, os.Getenv, os.UserHomeDir) }

// stateDirFor is where graft keeps its state on goos: %LOCALAPPDATA%\graft
// on Windows, else $XDG_STATE_HOME/graft or ~/.local/state/graft.
func stateDirFor(goos string, getenv func(string) string, home func() (string, error)) string {
	if goos == "windows" {
		if d := getenv("LOCALAPPDATA"); d != "" {
			return filepath.Join(d, "graft")
		}
	}
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "graft")
	}
	h, err := home()
	if err != nil {
		return filepath.Join(os.TempDir(), "graft-state")
	}
	return filepath.Join(h, ".local", "state", "graft")
}

// openStorage creates graft's private repository when it does not exist
// yet; in a repository it has nothing to do.
func (s *Store) openStorage() error {
	if s.opened {
		return nil
	}
	if s.private && !exists(filepath.Join(s.gitDir, "HEAD")) {
		if err := initPrivate(s.gitDir, s.root); err != nil {
			return fmt.Errorf("gitstore: private repository for %s: %w", s.root, err)
		}
	}
	s.opened = true
	return nil
}

// initPrivate creates a bare repository whose core.worktree is root.
func initPrivate(dir, root string) error {
	for _, d := range []string{"objects/info", "objects/pack", "refs/heads", "refs/tags", "refs/graft"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			return err
		}
	}
	cfg := "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = " +
		quoteConfig(root) + "\n[graft]\n\tprivate = true\n"
	if err := writeFileSync(filepath.Join(dir, "config"), []byte(cfg), 0o600); err != nil {
		return err
	}
	return writeFileSync(filepath.Join(dir, "HEAD"), []byte("ref: refs/heads/main\n"), 0o600)
}

func quoteConfig(v string) string {
	v = strings.ReplaceAll(v, `\`, `\\`)
	v = strings.ReplaceAll(v, `"`, `\"`)
	return `"` + v + `"`
}

// Root is the worktree's root directory (absolute, symlinks resolved).
func (s *Store) Root() string { return s.root }

// GitDir is the worktree's git directory. Outside a repository it is
// graft's private repository under the user's state directory.
func (s *Store) GitDir() string { return s.gitDir }

// Private reports whether the journal is kept in graft's private
// repository because the worktree is outside any repository.
func (s *Store) Private() bool { return s.private }

// Mode reports whether calls land on the journal or on the branch.
func (s *Store) Mode() Mode { return s.mode }

// Land writes every change or none and records the call. Under the
// repository's lock, each file's current content must still be its
// Change.Old, else the call fails with ErrConflict (wrapped with the path)
// and nothing is written. The objects and the commit are written first,
// then an intent record in the git dir, then each file through a temporary
// file, fsync and rename, then the ref is moved by compare-and-swap and the
// intent removed; a crash anywhere is finished or rolled back by the next
// Open. In branch mode a path under a git filter fails with ErrFiltered.
func (s *Store) Land(ctx context.Context, call Call, changes []Change) (Landed, error) {
	if err := validateChanges(changes); err != nil {
		return Landed{}, err
	}
	var landed Landed
	err := s.withLock(func() error {
		var err error
		landed, err = s.landLocked(ctx, call, changes, nil)
		return err
	})
	return landed, err
}

func validateChanges(changes []Change) error {
	seen := make(map[string]bool, len(changes))
	for i, c := range changes {
		p := c.Path
		if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") && filepath.Separator == '\\' {
			return fmt.Errorf("gitstore: change %d: bad path %q", i, p)
		}
		for _, part := range strings.Split(p, "/") {
			if part == "" || part == "." || part == ".." || strings.EqualFold(part, ".git") {
				return fmt.Errorf("gitstore: change %d: bad path %q", i, p)
			}
		}
		if seen[p] {
			return fmt.Errorf("gitstore: change %d: path %q appears twice", i, p)
		}
		seen[p] = true
	}
	return nil
}

func (s *Store) abs(p string) string { return filepath.Join(s.root, filepath.FromSlash(p)) }

func exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}

// FillPool returns the function that makes the files of the next calls
// ahead (OpenOptions.PoolFiles), which may run on any goroutine once the
// process is idle; nil when there is no pool, or no call has opened the
// repository's storage yet.
func (s *Store) FillPool() func() {
	if s.opts.PoolFiles <= 0 || s.gr == nil {
		return nil
	}
	return s.gr.FillPool
}

// ClosePool removes the files made ahead and not used (OpenOptions.PoolFiles).
func (s *Store) ClosePool() {
	if s.gr != nil {
		s.gr.ClosePool()
	}
}

// maxReplaced bounds the replaced files kept open between two
// ReleaseReplaced calls; beyond it the oldest are closed at once.
const maxReplaced = 256

// ReleaseReplaced hands over the replaced files kept open since the last
// call (DeferFrees) and returns the function that closes them, which may
// run on any goroutine; nil when there are none.
func (s *Store) ReleaseReplaced() func() {
	files := s.replaced
	s.replaced = nil
	if len(files) == 0 {
		return nil
	}
	return func() {
		for _, f := range files {
			f.Close()
		}
	}
}
