package apply

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/graftdev/graft/apply/fspath"
	"github.com/graftdev/graft/gitstore"
	"github.com/graftdev/graft/internal/lineindex"
	"github.com/graftdev/graft/matcher"
)

// Options configure an Engine. The zero value is usable: the current
// directory, fuzzy matching, the default limits.
type Options struct {
	// Dir is the directory relative paths start from; "" is the process's
	// working directory.
	Dir string
	// ExactMatch turns the fuzzy tiers off (--match exact).
	ExactMatch bool
	// Check is what a syntax error added by an edit does: CheckReject
	// (the default) refuses the call, CheckWarn lands it and reports the
	// errors, CheckOff skips the check.
	Check CheckMode
	// MaxFiles, MaxCallBytes and MaxFileBytes bound one call;
	// zero means the defaults below.
	MaxFiles     int
	MaxCallBytes int64
	MaxFileBytes int64
	// Logger receives debug logs: sizes, hashes and paths, never contents.
	// nil discards them.
	Logger *slog.Logger
	// Progress, if set, is told how far a long call has come.
	Progress func(Progress)
	// Store configures the repository side: journal or branch mode, lock
	// timeout.
	Store gitstore.OpenOptions
}

// CheckMode says what the syntax check does (--check).
type CheckMode string

// The syntax check modes.
const (
	CheckReject CheckMode = "reject"
	CheckWarn   CheckMode = "warn"
	CheckOff    CheckMode = "off"
)

// The default limits of one call.
const (
	DefaultMaxFiles     = 100
	DefaultMaxCallBytes = 50 << 20
	DefaultMaxFileBytes = 64 << 20
)

// Progress reports how far a call has come: Done of Total steps, or with
// Total 0 the phase a call is in when it cannot be counted (reading,
// locating or checking one big file), named by Message.
type Progress struct {
	Done, Total int
	Message     string
}

// Engine runs tools against one worktree. It is safe for sequential use by
// one caller at a time; the store serialises processes.
type Engine struct {
	store *gitstore.Store
	dir   string
	opts  Options
	log   *slog.Logger

	// reread is set while a call is recomputed because files changed
	// between its read and its write: what it read of each (see locked).
	reread map[string][]byte
	// outlines caches the outlines of recent contents (symbols.go).
	outlines outlineCache
	// rules are the worktree file system's naming rules (case folding).
	rules fspath.Rules
	// beforeLand, if set, runs just before a call's changes go to the
	// store (tests use it to change a file under a call).
	beforeLand func()
}

// maxRecompute bounds how many times one call is recomputed because its
// files keep changing between its read and its write.
const maxRecompute = 3

// locked runs one editing call holding the repository's lock from before
// it reads a file until after it lands, so that concurrent graft
// processes and MCP sessions serialise whole calls: each call reads what
// the previous one wrote, and none is refused for another's unrelated
// edit. A file changed by something other than graft between the call's
// read and its write (an editor, a formatter) makes the call run again
// against the current content, still under the lock, with what it first
// read as the base its line numbers are carried from; only an edit whose
// own text or lines changed is then refused, with a diff of the change.
func (e *Engine) locked(run func() (any, error)) (any, error) {
	var out any
	var runErr error
	err := e.store.WithLock(func() error {
		defer func() { e.reread = nil }()
		for attempt := 0; ; attempt++ {
			out, runErr = run()
			var ce *changedError
			if !errors.As(runErr, &ce) || attempt == maxRecompute {
				break
			}
			if e.reread == nil {
				e.reread = map[string][]byte{}
			}
			for rel, read := range ce.reread {
				if _, seen := e.reread[rel]; !seen {
					e.reread[rel] = read
				}
			}
			e.log.Debug("recomputing the call: a file changed under it", "path", ce.err.Path, "attempt", attempt+1)
		}
		if runErr != nil && e.reread != nil {
			runErr = e.explainChange(runErr)
		}
		return nil
	})
	if err != nil {
		return nil, storeError(err, "")
	}
	return out, runErr
}

// explainChange adds to the refusal of a recomputed call what changed in
// its file while it ran, when the refusal does not show it already: the
// text was not found or no longer fits because the file changed, which is
// a conflict.
func (e *Engine) explainChange(err error) error {
	var fe *Error
	var ce *changedError
	if errors.As(err, &ce) || !errors.As(err, &fe) || fe.Path == "" || changeShown(fe) {
		return err
	}
	read, ok := e.reread[fe.Path]
	if !ok || read == nil {
		return err
	}
	now, rerr := os.ReadFile(filepath.Join(e.store.Root(), filepath.FromSlash(fe.Path)))
	if rerr != nil || bytes.Equal(now, read) {
		return err
	}
	ai, bi := lineindex.New(read), lineindex.New(now)
	edits := diffLines(ai, 1, ai.Count()+1, bi, 1, bi.Count()+1)
	out := *fe
	if out.Code == CodeTextNotFound {
		out.Code = CodeConflict
	}
	out.Msg += "\nThe file changed while the call ran (another writer); read it again. What changed:\n" +
		clipLines(unified("a/"+fe.Path+" (read)", "b/"+fe.Path+" (now)", ai, bi, edits), 60)
	return &out
}

// Open opens the worktree containing opts.Dir and returns an engine on it.
func Open(opts Options) (*Engine, error) {
	dir := opts.Dir
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		return nil, &Error{Code: CodeFileNotFound, Path: opts.Dir, Msg: "directory not found", Err: err}
	}
	store, err := gitstore.OpenWith(dir, opts.Store)
	if err != nil {
		return nil, storeError(err, "")
	}
	return New(store, dir, opts), nil
}

// New returns an engine on an open store; dir is where relative paths
// start (absolute, symlinks resolved).
func New(store *gitstore.Store, dir string, opts Options) *Engine {
	if opts.Check == "" {
		opts.Check = CheckReject
	}
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = DefaultMaxFiles
	}
	if opts.MaxCallBytes <= 0 {
		opts.MaxCallBytes = DefaultMaxCallBytes
	}
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = DefaultMaxFileBytes
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Engine{store: store, dir: dir, opts: opts, log: log, rules: pathRules(store.Root())}
}

// Store is the engine's repository.
func (e *Engine) Store() *gitstore.Store { return e.store }

// Call runs the tool called name with JSON arguments and returns its
// result, ready to be encoded as JSON. Errors are *Error values (CodeOf
// gives their code).
func (e *Engine) Call(ctx context.Context, name string, args json.RawMessage) (any, error) {
	t := Lookup(name)
	if t == nil {
		return nil, invalidf("", "", "unknown tool %q (see `graft tools`)", name)
	}
	e.log.Debug("call", "tool", name, "args_bytes", len(args))
	res, err := t.Run(ctx, e, args)
	if err != nil {
		e.log.Debug("refused", "tool", name, "code", int(CodeOf(err)))
		return nil, err
	}
	return res, nil
}

func (e *Engine) matchOptions(hint int) matcher.Options {
	return matcher.Options{ExactOnly: e.opts.ExactMatch, Hint: hint}
}

// phaseBytes is the content size from which reading, locating and
// checking one file are reported as phases: smaller files take less than
// a progress bar's delay.
const phaseBytes = 1 << 20

// phase reports a phase of unknown length on a file of size bytes, when
// the file is big enough for the phase to take a noticeable time.
func (e *Engine) phase(size int64, msg string) {
	if size >= phaseBytes {
		e.progress(0, 0, msg)
	}
}

func (e *Engine) progress(done, total int, msg string) {
	if e.opts.Progress != nil {
		e.opts.Progress(Progress{Done: done, Total: total, Message: msg})
	}
}

// resolve turns a path from a request into the file's path relative to
// the worktree root (slash-separated) and its absolute path, after
// resolving ".." and symlinks. It refuses, before anything is read, a path
// outside the worktree, inside the git directory, or in another repository
// (a submodule or a nested repository, gitstore.ErrOtherRepository).
func (e *Engine) resolve(path, edit string) (rel, abs string, err error) {
	if strings.TrimSpace(path) == "" {
		return "", "", invalidf("", edit, "path is required")
	}
	p := filepath.FromSlash(path)
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.dir, p)
	}
	real, err := realPath(filepath.Clean(p))
	if err != nil {
		return "", "", &Error{Code: CodePermission, Path: path, Edit: edit, Msg: "cannot resolve path", Err: err}
	}
	root := e.store.Root()
	rel, where := fspath.Classify(root, e.store.GitDir(), real, e.rules)
	switch where {
	case fspath.Outside:
		return "", "", errorf(CodePermission, path, edit, "permission denied: outside the worktree %s", root)
	case fspath.GitDir:
		return "", "", errorf(CodePermission, path, edit, "permission denied: inside the git directory")
	case fspath.Root:
		return "", "", invalidf(path, edit, "is a directory, not a file")
	case fspath.Invalid:
		return "", "", errorf(CodePermission, path, edit, "permission denied: not a plain path to a file in the worktree")
	}
	// On a file system that folds case, the journal records the name as
	// the file system spells it, never as the caller did.
	rel = fspath.Canonical(rel, e.rules, func(dir string) []string {
		ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			return nil
		}
		names := make([]string, len(ents))
		for i, d := range ents {
			names[i] = d.Name()
		}
		return names
	})
	// A file of a submodule or a nested repository is that repository's.
	if err := e.store.CheckPath(rel); err != nil {
		code := CodePermission
		if !errors.Is(err, gitstore.ErrOtherRepository) {
			code = CodeInternal
		}
		return "", "", &Error{Code: code, Path: rel, Edit: edit, Msg: strings.TrimPrefix(err.Error(), rel+": "), Err: err}
	}
	return rel, filepath.Join(root, filepath.FromSlash(rel)), nil
}

// pathRules are the naming rules of the worktree's file system: Windows'
// on Windows, and case folded where the file system folds it (probed on
// the worktree's own .git, or its own name).
func pathRules(root string) fspath.Rules {
	r := fspath.Rules{Windows: runtime.GOOS == "windows"}
	probe := func(name string) (bool, bool) {
		swapped, ok := fspath.SwapCase(filepath.Base(name))
		if !ok {
			return false, false
		}
		a, err1 := os.Stat(name)
		b, err2 := os.Stat(filepath.Join(filepath.Dir(name), swapped))
		if err1 != nil {
			return false, false
		}
		return err2 == nil && os.SameFile(a, b), true
	}
	fold, known := probe(filepath.Join(root, ".git"))
	if !known {
		fold, known = probe(root)
	}
	if !known {
		fold = runtime.GOOS == "windows" || runtime.GOOS == "darwin"
	}
	r.FoldCase = fold
	return r
}

// realPath resolves symlinks in p; for a path that does not exist yet it
// resolves the longest existing prefix and keeps the rest.
func realPath(p string) (string, error) {
	r, err := filepath.EvalSymlinks(p)
	if err == nil {
		return r, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p, nil
	}
	rp, err := realPath(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(rp, filepath.Base(p)), nil
}

// errFromFS is an I/O error on path, classified by CodeOf.
func errFromFS(err error, rel, edit string) error {
	msg := fmt.Sprintf("i/o error: %v", err)
	switch CodeOf(err) {
	case CodeFileNotFound:
		msg = "file not found"
	case CodePermission:
		msg = "permission denied"
	}
	return classified(err, rel, edit, msg)
}
