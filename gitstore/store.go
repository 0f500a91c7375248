package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrConflict: a file changed on disk between graft's read and its write.
var ErrConflict = errors.New("file changed since it was read")

// Change is one file's content before and after a call.
type Change struct {
	// Path is slash-separated and relative to the worktree root.
	Path string
	// Old is the content the call was computed from; nil when the call
	// creates the file.
	Old []byte
	// New is the content to write; nil when the call deletes the file.
	New []byte
	// Mode holds the permission bits of New (the executable bit matters);
	// 0 means 0o644.
	Mode fs.FileMode
}

// Call describes a call for the record: the tool and a message.
type Call struct {
	Tool    string
	Message string
}

// Landed reports a landed call.
type Landed struct {
	// Commit is the journal commit's id, or "" when no journal is kept.
	Commit string
}

// Store is a worktree that graft edits: its root, its git directory, and
// the transactions that land calls in it.
type Store struct {
	root   string
	gitDir string
}

// Open finds the worktree that contains dir, as git does: the nearest
// ancestor holding .git. Outside a repository the root is dir itself.
func Open(dir string) (*Store, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	abs, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	for d := abs; ; {
		dotgit := filepath.Join(d, ".git")
		if fi, err := os.Lstat(dotgit); err == nil {
			gitDir := dotgit
			if !fi.IsDir() {
				gitDir, err = readGitFile(d, dotgit)
				if err != nil {
					return nil, err
				}
			}
			return &Store{root: d, gitDir: gitDir}, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return &Store{root: abs}, nil
		}
		d = parent
	}
}

// readGitFile resolves a .git file ("gitdir: PATH") of a linked worktree.
func readGitFile(root, name string) (string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", err
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

// Root is the worktree's root directory (absolute, symlinks resolved).
func (s *Store) Root() string { return s.root }

// GitDir is the repository's git directory, or "" outside a repository.
func (s *Store) GitDir() string { return s.gitDir }

// Land writes every change or none. Each file's current content must still
// be its Change.Old, else the call fails with ErrConflict and nothing is
// written. Files are written through a temporary file, fsync and rename; if
// a later file fails, the ones already written are put back.
func (s *Store) Land(ctx context.Context, call Call, changes []Change) (Landed, error) {
	for _, c := range changes {
		if err := s.checkUnchanged(c); err != nil {
			return Landed{}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return Landed{}, err
	}
	var done []Change
	for _, c := range changes {
		if err := s.write(c.Path, c.New, c.Mode); err != nil {
			for i := len(done) - 1; i >= 0; i-- {
				d := done[i]
				_ = s.write(d.Path, d.Old, d.Mode)
			}
			return Landed{}, fmt.Errorf("gitstore: %s: %w", c.Path, err)
		}
		done = append(done, c)
	}
	return Landed{}, nil
}

func (s *Store) abs(p string) string { return filepath.Join(s.root, filepath.FromSlash(p)) }

func (s *Store) checkUnchanged(c Change) error {
	cur, err := os.ReadFile(s.abs(c.Path))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if c.Old == nil {
			return nil
		}
		return fmt.Errorf("%s: deleted since it was read: %w", c.Path, ErrConflict)
	case err != nil:
		return fmt.Errorf("gitstore: %w", err)
	case c.Old == nil:
		return fmt.Errorf("%s: created since it was read: %w", c.Path, ErrConflict)
	case !bytes.Equal(cur, c.Old):
		return fmt.Errorf("%s: %w", c.Path, ErrConflict)
	}
	return nil
}

// write makes path hold content (nil removes it) through a temporary file
// in the same directory, fsync and rename.
func (s *Store) write(path string, content []byte, mode fs.FileMode) error {
	name := s.abs(path)
	if content == nil {
		err := os.Remove(name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if mode == 0 {
		mode = 0o644
	}
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".graft-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(content)
	if err == nil {
		err = f.Chmod(mode.Perm())
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
