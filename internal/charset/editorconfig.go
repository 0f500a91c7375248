package charset

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// EditorConfig returns the charset .editorconfig files give the file at
// abs (an absolute path inside the directory top): "latin1", "utf-8",
// "utf-8-bom", "utf-16be", "utf-16le" (lower case), or "" when none does.
// Files are read from the file's directory up to top (the worktree: a
// file above it is no part of the project), as EditorConfig says: sections
// whose glob matches the path apply, a later section over an earlier one,
// a nearer file over a farther one, and a file with root = true ends the
// search.
func EditorConfig(top, abs string) string {
	dir := filepath.Dir(abs)
	for {
		cs, root, ok := editorConfigIn(dir, abs)
		if ok {
			return cs
		}
		up := filepath.Dir(dir)
		if root || dir == top || up == dir || !strings.HasPrefix(dir, top) {
			return ""
		}
		dir = up
	}
}

// editorConfigIn reads dir's .editorconfig: the charset it gives abs
// (ok), and whether it is the root one.
func editorConfigIn(dir, abs string) (charset string, root, ok bool) {
	b, err := os.ReadFile(filepath.Join(dir, ".editorconfig"))
	if err != nil {
		return "", false, false
	}
	rel := filepath.ToSlash(abs)
	base := filepath.ToSlash(dir)
	section := ""
	matches := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			if end := strings.LastIndexByte(line, ']'); end > 0 {
				section = line[1:end]
				matches = globMatch(base, section, rel)
			}
			continue
		}
		k, v, found := strings.Cut(line, "=")
		if !found {
			continue
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		switch {
		case section == "" && k == "root":
			root = strings.EqualFold(v, "true")
		case matches && k == "charset":
			charset, ok = strings.ToLower(v), true
			if charset == "unset" {
				charset = ""
			}
		}
	}
	return charset, root, ok
}

// globMatch reports whether the EditorConfig glob of a section in the
// file of directory base matches path: a glob without "/" matches the
// file's name in any directory below base; one with "/" the path from
// base ("/" at its start anchors it there, as without).
func globMatch(base, glob, path string) bool {
	rest, ok := strings.CutPrefix(path, strings.TrimSuffix(base, "/")+"/")
	if !ok {
		return false
	}
	if !strings.Contains(glob, "/") {
		glob = "**/" + glob
	} else {
		glob = strings.TrimPrefix(glob, "/")
	}
	re, err := globRegexp(glob)
	return err == nil && re.MatchString(rest)
}

var (
	globMu    sync.Mutex
	globCache = map[string]*regexp.Regexp{}
)

// globRegexp translates an EditorConfig glob: "*" any characters but
// "/", "**" any characters, "?" one character but "/", "[abc]" and
// "[!abc]", "{a,b}" (nested), "{1..10}" a number in the range, "\" an
// escape.
func globRegexp(glob string) (*regexp.Regexp, error) {
	globMu.Lock()
	defer globMu.Unlock()
	if re, ok := globCache[glob]; ok {
		return re, nil
	}
	var b strings.Builder
	b.WriteString("^")
	depth := 0
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch c {
		case '\\':
			if i+1 < len(glob) {
				i++
				b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
			}
		case '*':
			if i+1 < len(glob) && glob[i+1] == '*' {
				i++
				// "**/" also matches no directory at all.
				if i+1 < len(glob) && glob[i+1] == '/' {
					i++
					b.WriteString("(?:.*/)?")
				} else {
					b.WriteString(".*")
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '[':
			end := strings.IndexByte(glob[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := glob[i+1 : i+1+end]
			i += end + 1
			b.WriteString("[")
			if strings.HasPrefix(class, "!") {
				b.WriteString("^")
				class = class[1:]
			}
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(class, `\`, `\\`), "[", `\[`))
			b.WriteString("]")
		case '{':
			end := matchingBrace(glob, i)
			if end < 0 {
				b.WriteString(`\{`)
				continue
			}
			inner := glob[i+1 : end]
			if lo, hi, ok := numRange(inner); ok {
				b.WriteString(`(?:`)
				var alts []string
				if hi-lo <= 1000 {
					for n := lo; n <= hi; n++ {
						alts = append(alts, strconv.Itoa(n))
					}
				}
				b.WriteString(strings.Join(alts, "|"))
				b.WriteString(`)`)
				i = end
				continue
			}
			if !strings.Contains(inner, ",") {
				b.WriteString(regexp.QuoteMeta("{" + inner + "}"))
				i = end
				continue
			}
			b.WriteString("(?:")
			depth++
		case '}':
			if depth > 0 {
				b.WriteString(")")
				depth--
			} else {
				b.WriteString(`\}`)
			}
		case ',':
			if depth > 0 {
				b.WriteString("|")
			} else {
				b.WriteString(",")
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err == nil && len(globCache) < 256 {
		globCache[glob] = re
	}
	return re, err
}

// matchingBrace returns the index of the "}" closing the "{" at i, or -1.
func matchingBrace(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

func numRange(s string) (lo, hi int, ok bool) {
	a, b, found := strings.Cut(s, "..")
	if !found {
		return 0, 0, false
	}
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	if lo > hi {
		lo, hi = hi, lo
	}
	return lo, hi, true
}
