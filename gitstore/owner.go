package gitstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A path belongs to the repository git would give it. A file below a
// submodule (a gitlink in HEAD's tree) or below any directory holding its
// own .git (a nested repository, submodule or not) is that repository's,
// and graft refuses it here, as git add does, naming the inner repository
// so that the caller runs graft there (graft -C lib ...), where it has its
// own journal, undo and land. An uninitialised submodule's path is refused
// too, and a gitlink is never replaced by a tree or a blob (updateTree's
// guard), so a journal or a landing never drops a submodule.
//
// The check walks the path's directories from the root down: one lstat of
// DIR/.git per directory and the trees on the path in HEAD's (or the
// journal's) tree, so its cost grows with the path's depth only. It does
// not read the index: a directory missing from disk (a sparse checkout)
// costs nothing and changes nothing.

// ErrOtherRepository: the path belongs to another repository inside the
// worktree (a submodule or a nested repository). The error is an
// *OtherRepositoryError.
var ErrOtherRepository = errors.New("path belongs to another repository")

// OtherRepositoryError says which repository a refused path belongs to.
type OtherRepositoryError struct {
	// Path is the refused path and Repo the inner repository's directory,
	// both slash-separated and relative to the worktree root.
	Path, Repo string
	// Submodule is set when Repo is a submodule of this repository (a
	// gitlink in its tree); Initialized when it is checked out.
	Submodule, Initialized bool
}

func (e *OtherRepositoryError) Error() string {
	switch {
	case e.Path == e.Repo:
		return fmt.Sprintf("%s: is a submodule, not a file", e.Path)
	case e.Submodule && !e.Initialized:
		return fmt.Sprintf("%s: in the submodule %s, which is not checked out (git submodule update --init %s, then run graft there)", e.Path, e.Repo, e.Repo)
	case e.Submodule:
		return fmt.Sprintf("%s: in the submodule %s, a repository of its own: run graft there (graft -C %s ...)", e.Path, e.Repo, e.Repo)
	}
	return fmt.Sprintf("%s: in the repository %s nested in this one: run graft there (graft -C %s ...)", e.Path, e.Repo, e.Repo)
}

// Unwrap makes the error match ErrOtherRepository.
func (e *OtherRepositoryError) Unwrap() error { return ErrOtherRepository }

// CheckPath reports whether rel (slash-separated, relative to the root)
// belongs to this repository: it fails with an *OtherRepositoryError
// (ErrOtherRepository) for a path in a submodule, initialised or not, in
// a nested repository, or naming a submodule itself.
func (s *Store) CheckPath(rel string) error {
	// HEAD's tree is read once per hold of the lock (a call checks each of
	// its paths).
	tree, ok := s.heldTree, s.heldTreeOK
	if !ok {
		var err error
		if tree, err = s.headTree(); err != nil {
			return err
		}
		if s.lockOwned {
			s.heldTree, s.heldTreeOK = tree, true
		}
	}
	return s.checkPathIn(tree, rel)
}

// headTree is the tree of HEAD's commit; zero on an unborn branch or
// before the private repository exists.
func (s *Store) headTree() (oid, error) {
	if s.private && !exists(filepath.Join(s.gitDir, "HEAD")) {
		return "", nil
	}
	branch, head, err := s.refs.head()
	if err != nil {
		return "", err
	}
	if branch != "" {
		head, err = s.refs.read(branch)
		if errors.Is(err, errRefNotFound) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
	}
	return s.commitTree(head)
}

// checkPathIn is CheckPath against the tree rooted at tree.
func (s *Store) checkPathIn(tree oid, rel string) error {
	parts := strings.Split(rel, "/")
	dir := s.root
	for i, name := range parts {
		prefix := strings.Join(parts[:i+1], "/")
		gitlink := false
		if !tree.IsZero() {
			t, err := s.tree(tree)
			if err != nil {
				return err
			}
			next := oid("")
			for _, e := range t {
				if e.Name == name {
					gitlink = e.Mode == modeSubmodule
					if e.Mode == modeDir {
						next = e.Hash
					}
					break
				}
			}
			tree = next
		}
		dir = filepath.Join(dir, name)
		last := i == len(parts)-1
		var dotgit bool
		if !last || gitlink {
			_, err := os.Lstat(filepath.Join(dir, ".git"))
			dotgit = err == nil
		}
		if gitlink || dotgit {
			return &OtherRepositoryError{Path: rel, Repo: prefix, Submodule: gitlink, Initialized: dotgit}
		}
	}
	return nil
}

// errGitlink is updateTree's refusal to replace a submodule.
func errGitlink(name string) error {
	return fmt.Errorf("gitstore: %s is a submodule (a gitlink); graft never replaces it with a file or a directory: %w", name, ErrOtherRepository)
}
