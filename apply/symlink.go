package apply

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/graftdev/graft/apply/fspath"
)

// gitLinkMode is git's mode of a symbolic link, as a patch states it
// ("new file mode 120000"); its blob holds the link's target.
const gitLinkMode = 0o120000

// linkMode is TxFile.Mode (and gitstore.Change.Mode) of a symbolic link.
const linkMode = fs.ModeSymlink | 0o777

// isLink reports whether a file's mode is a symbolic link's.
func isLink(m fs.FileMode) bool { return m&fs.ModeSymlink != 0 }

// checkLink decides whether the call may make f a symbolic link whose
// target is f's new content, as git apply does for "new file mode 120000"
// or a mode change to it: only where the platform has symbolic links
// without a privilege (not Windows), and only when the target, resolved
// as the kernel would from the link's directory, lies inside the worktree
// and outside the git directory. Otherwise the call is refused: a link is
// never written as a regular file holding its target.
func (tx *Tx) checkLink(f *TxFile, edit string) error {
	target := f.Content()
	if runtime.GOOS == "windows" {
		return invalidf(f.Rel, edit, "the patch makes a symbolic link (mode 120000), which graft does not create on Windows")
	}
	if len(target) == 0 || len(target) >= 4096 || bytes.IndexByte(target, 0) >= 0 {
		return invalidf(f.Rel, edit, "the patch makes a symbolic link (mode 120000) whose target is not a path (empty, over 4095 bytes, or with a NUL byte)")
	}
	e := tx.e
	p, err := resolveLink(filepath.Dir(f.Abs), string(target))
	if err != nil {
		return errorf(CodePermission, f.Rel, edit, "the patch makes a symbolic link to %q, which cannot be followed: %v", target, err)
	}
	if _, where := fspath.Classify(e.store.Root(), e.store.GitDir(), p, e.rules); where != fspath.Inside && where != fspath.Root {
		return errorf(CodePermission, f.Rel, edit, "permission denied: the patch makes a symbolic link to %q, outside the worktree or inside the git directory", target)
	}
	return nil
}

// resolveLink is where a symbolic link in the directory dir (a real path)
// whose target is target leads, as the kernel follows it: each name of the
// target in turn, ".." going up from where the names before it led, and
// each symbolic link met on the way followed through its own target (at
// most 40 of them, as Linux does). The place need not exist: a dangling
// link is still a link to somewhere.
func resolveLink(dir, target string) (string, error) {
	hops := 0
	return resolveFrom(dir, target, &hops)
}

func resolveFrom(dir, target string, hops *int) (string, error) {
	p := dir
	if filepath.IsAbs(target) {
		p = string(filepath.Separator)
	}
	for _, name := range strings.Split(filepath.ToSlash(target), "/") {
		switch name {
		case "", ".":
			continue
		case "..":
			p = filepath.Dir(p)
			continue
		}
		next := filepath.Join(p, name)
		if fi, err := os.Lstat(next); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			if *hops++; *hops > 40 {
				return "", errors.New("too many levels of symbolic links")
			}
			t, err := os.Readlink(next)
			if err != nil {
				return "", err
			}
			if next, err = resolveFrom(p, t, hops); err != nil {
				return "", err
			}
		}
		p = next
	}
	return p, nil
}
