package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// checkSafe refuses a repository owned by another user, as git's
// safe.directory check does: the worktree, its .git file (for a linked
// worktree) and the git dir must belong to the current user (root acting
// through sudo counts as SUDO_UID), unless safe.directory in the system or
// global config names the worktree or is "*".
func (s *Store) checkSafe() error {
	uid, ok := currentUID()
	if !ok {
		return nil // no ownership notion on this platform
	}
	paths := []string{s.root, filepath.Join(s.root, ".git"), s.gitDir}
	owned := true
	for _, p := range paths {
		o, ok := ownerUID(p)
		if ok && o != uid {
			owned = false
			break
		}
	}
	if owned {
		return nil
	}
	if safeDirectoryAllows(s.cfg.outerAll("safe", "directory"), s.root) {
		return nil
	}
	return fmt.Errorf("gitstore: %s: %w (git config --global --add safe.directory %s)", s.root, ErrUnsafeRepository, s.root)
}

// safeDirectoryAllows applies git's safe.directory rules to the list of
// values: an empty value resets the list, "*" allows everything, "DIR/*"
// allows DIR and everything below it, anything else must name the
// directory exactly (after resolving symlinks).
func safeDirectoryAllows(values []string, dir string) bool {
	allowed := false
	for _, v := range values {
		v = strings.TrimSpace(v)
		switch {
		case v == "":
			allowed = false
		case v == "*":
			allowed = true
		default:
			if strings.HasPrefix(v, "~/") {
				if home, err := os.UserHomeDir(); err == nil {
					v = filepath.Join(home, v[2:])
				}
			}
			if prefix, ok := strings.CutSuffix(v, "/*"); ok {
				prefix = resolve(prefix)
				if dir == prefix || strings.HasPrefix(dir, prefix+string(filepath.Separator)) {
					allowed = true
				}
				continue
			}
			if resolve(v) == dir {
				allowed = true
			}
		}
	}
	return allowed
}

func resolve(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}
