// Package fspath decides where a path lies — inside a worktree, in its git
// directory, or outside — as pure functions of strings, under the naming
// rules of a file system: its separators, volumes (drive letters, UNC
// shares, the \\?\ long-path prefix), whether it compares names without
// regard to case (Windows, and macOS by default), and the names Windows
// takes for others (trailing dots and spaces dropped, an 8.3 short name,
// an NTFS stream after a colon). Being pure, every rule is tested on every
// platform: Windows rules on Linux included.
//
// Symbolic links are not its business: the caller resolves them first.
package fspath

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Rules are one file system's naming rules.
type Rules struct {
	// Windows: "\" and "/" both separate, paths start with a drive ("C:")
	// or a UNC share ("\\server\share"), and a name's trailing dots and
	// spaces do not count.
	Windows bool
	// FoldCase: names that differ only in case are the same name.
	FoldCase bool
}

// Where a path lies.
type Where int

// The places Classify tells apart.
const (
	Inside  Where = iota // in the worktree, outside its git directory
	Outside              // not in the worktree
	GitDir               // in the git directory (or a .git of a nested one)
	Root                 // the worktree's root directory itself
	Invalid              // not an absolute path, or a name these rules forbid
)

// Path is an absolute path taken apart: its volume ("" on Unix, "c:" or
// "\\server\share" on Windows, as written) and its names, with "." and
// ".." resolved.
type Path struct {
	Volume string
	Names  []string
}

// Parse takes an absolute path apart under r. ok is false for a path that
// is not absolute.
func Parse(p string, r Rules) (Path, bool) {
	var vol string
	if r.Windows {
		p = strings.ReplaceAll(p, "/", `\`)
		switch {
		case strings.HasPrefix(p, `\\?\UNC\`):
			p = `\\` + p[len(`\\?\UNC\`):]
		case strings.HasPrefix(p, `\\?\`), strings.HasPrefix(p, `\\.\`):
			p = p[len(`\\?\`):]
		}
		switch {
		case len(p) >= 3 && p[1] == ':' && p[2] == '\\' && isLetter(p[0]):
			vol, p = p[:2], p[2:]
		case strings.HasPrefix(p, `\\`):
			parts := strings.SplitN(p[2:], `\`, 3)
			if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
				return Path{}, false
			}
			vol = `\\` + parts[0] + `\` + parts[1]
			p = `\`
			if len(parts) == 3 {
				p += parts[2]
			}
		default:
			return Path{}, false // relative, or rooted on the current drive
		}
	} else if !strings.HasPrefix(p, "/") {
		return Path{}, false
	}
	sep := "/"
	if r.Windows {
		sep = `\`
	}
	var names []string
	for _, n := range strings.Split(p, sep) {
		switch n {
		case "", ".":
		case "..":
			if len(names) > 0 {
				names = names[:len(names)-1]
			}
		default:
			names = append(names, n)
		}
	}
	return Path{Volume: vol, Names: names}, true
}

// Same reports whether two names are one name under r.
func Same(a, b string, r Rules) bool {
	a, b = r.canon(a), r.canon(b)
	if r.FoldCase {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// canon is the name as the file system stores it: on Windows without its
// trailing dots and spaces.
func (r Rules) canon(n string) string {
	if r.Windows {
		if t := strings.TrimRight(n, ". "); t != "" {
			return t
		}
	}
	return n
}

// IsGitName reports whether a name is the name of a git directory under
// r: ".git" in any case the rules fold, and on Windows also ".git." or
// ".git " (the trailing characters do not count), the 8.3 short name
// "git~1", and ".git" followed by an NTFS stream (".git::$INDEX_ALLOCATION").
func IsGitName(n string, r Rules) bool {
	if r.Windows {
		if i := strings.IndexByte(n, ':'); i >= 0 {
			n = n[:i]
		}
		if strings.EqualFold(r.canon(n), "git~1") {
			return true
		}
	}
	return Same(n, ".git", r)
}

// within returns p's names below dir's, or ok false when p is not in dir.
func within(dir, p Path, r Rules) ([]string, bool) {
	if !sameVolume(dir.Volume, p.Volume) || len(p.Names) < len(dir.Names) {
		return nil, false
	}
	for i, n := range dir.Names {
		if !Same(n, p.Names[i], r) {
			return nil, false
		}
	}
	return p.Names[len(dir.Names):], true
}

// sameVolume compares volumes, which Windows never tells apart by case.
func sameVolume(a, b string) bool { return strings.EqualFold(a, b) }

// Classify says where the absolute path p lies relative to the worktree
// root and its git directory gitDir ("" for none), all three with symbolic
// links already resolved. For Inside, rel is p's path below the root,
// slash-separated, in p's spelling (see Canonical for the file system's).
func Classify(root, gitDir, p string, r Rules) (rel string, where Where) {
	rp, ok1 := Parse(root, r)
	pp, ok2 := Parse(p, r)
	if !ok1 || !ok2 {
		return "", Invalid
	}
	names, ok := within(rp, pp, r)
	if !ok {
		return "", Outside
	}
	if gitDir != "" {
		if gp, ok := Parse(gitDir, r); ok {
			if _, in := within(gp, pp, r); in {
				return "", GitDir
			}
		}
	}
	if len(names) == 0 {
		return "", Root
	}
	for _, n := range names {
		// git stores no path with a name ".git" in any case, whatever the
		// file system folds (a worktree may move to one that folds it):
		// such a name is git's own, as the git directory is.
		if IsGitName(n, r) || strings.EqualFold(n, ".git") {
			return "", GitDir
		}
		if r.Windows && strings.ContainsAny(n, `:*?"<>|`) {
			return "", Invalid
		}
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = r.canon(n)
	}
	return strings.Join(out, "/"), Inside
}

// Canonical rewrites rel (slash-separated, below a directory) in the
// spelling the file system has on disk: each name that differs only by the
// rules (case, on a file system that folds it) takes the spelling of the
// entry list(dir) returns for its directory, dir being the slash-separated
// path of the names before it ("" for the root). A name with no entry (a
// file about to be created) keeps its spelling. An exact entry wins over
// one that only folds to the name.
func Canonical(rel string, r Rules, list func(dir string) []string) string {
	if !r.FoldCase && !r.Windows {
		return rel
	}
	names := strings.Split(rel, "/")
	for i, n := range names {
		entries := list(strings.Join(names[:i], "/"))
		exact, folded := false, ""
		for _, e := range entries {
			if e == n {
				exact = true
				break
			}
			if folded == "" && Same(e, n, r) {
				folded = e
			}
		}
		if !exact && folded != "" {
			names[i] = folded
		}
	}
	return strings.Join(names, "/")
}

// SwapCase returns s with the case of its letters swapped, and whether it
// has any letter that changed (for probing whether a file system folds
// case).
func SwapCase(s string) (string, bool) {
	changed := false
	out := strings.Map(func(c rune) rune {
		switch {
		case unicode.IsUpper(c):
			changed = true
			return unicode.ToLower(c)
		case unicode.IsLower(c):
			changed = true
			return unicode.ToUpper(c)
		}
		return c
	}, s)
	return out, changed && utf8.ValidString(s)
}

func isLetter(b byte) bool { return 'a' <= b|0x20 && b|0x20 <= 'z' }
