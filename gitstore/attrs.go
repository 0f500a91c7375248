package gitstore

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/graftdev/graft/gitstore/internal/gitrepo"
)

// Git attributes, read as git reads them when it adds a file. go-git's
// gitattributes package parses each line; its pattern matcher does not
// follow git's wildmatch (t3070's cases, wildmatch_test.go), so patterns
// are matched by graft's own wildmatch. The files read: the global
// attributes file (core.attributesFile), then the .gitattributes of every
// directory from the root down to the file's, then $GIT_DIR/info/attributes,
// later lines overriding earlier ones; patterns match as in .gitignore
// (wildmatch), without case when core.ignoreCase is set; macros ("binary"
// and "[attr]" lines of the root, global and info files) expand where
// they are set.

// attrValue is the state of one attribute for a path.
type attrValue struct {
	state byte // '+' set, '-' unset, '!' unspecified, '=' a value
	value string
}

// IsSet reports "attr".
func (a attrValue) IsSet() bool { return a.state == '+' }

// IsUnset reports "-attr".
func (a attrValue) IsUnset() bool { return a.state == '-' }

// IsValueSet reports "attr=value".
func (a attrValue) IsValueSet() bool { return a.state == '=' }

// Value is the value of "attr=value".
func (a attrValue) Value() string { return a.value }

// attrSetting is one "attr", "-attr", "!attr" or "attr=value" of a line.
type attrSetting struct {
	name string
	attrValue
}

// attrRule is one line of an attributes file: a pattern with settings, or
// (macro set) the definition of the macro attribute macro.
type attrRule struct {
	macro    string
	pattern  string // with the anchoring "/" removed
	basename bool   // the pattern has no "/": it matches the file's name
	base     string // the directory of the file the line is in ("" at the root)
	settings []attrSetting
}

// attrCache holds parsed attribute files for one call.
type attrCache map[string][]attrRule

// attributes returns the attributes that apply to path; "binary" expands
// to -text -diff -merge.
func (s *Store) attributes(path string, cache attrCache) map[string]attrValue {
	var stack []attrRule
	load := func(file, base string, macros bool) {
		rules, ok := cache[file]
		if !ok {
			if b, err := os.ReadFile(file); err == nil {
				rules = parseAttributes(string(b), base, macros)
			}
			cache[file] = rules
		}
		stack = append(stack, rules...)
	}
	global := s.cfg.get("core", "attributesfile")
	if global == "" {
		if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
			global = filepath.Join(xdg, "git", "attributes")
		} else if home, err := os.UserHomeDir(); err == nil {
			global = filepath.Join(home, ".config", "git", "attributes")
		}
	} else if strings.HasPrefix(global, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			global = filepath.Join(home, global[2:])
		}
	}
	if global != "" {
		load(global, "", true)
	}
	parts := strings.Split(path, "/")
	for i := range parts {
		dir := filepath.Join(append([]string{s.root}, parts[:i]...)...)
		load(filepath.Join(dir, ".gitattributes"), strings.Join(parts[:i], "/"), i == 0)
	}
	load(filepath.Join(s.commonDir, "info", "attributes"), "", true)

	ic := s.cfg.get("core", "ignorecase")
	fold := ic != "" && boolValue(ic)
	macros := map[string][]attrSetting{
		"binary": {{"diff", attrValue{state: '-'}}, {"merge", attrValue{state: '-'}}, {"text", attrValue{state: '-'}}},
	}
	for _, r := range stack {
		if r.macro != "" {
			macros[r.macro] = r.settings
		}
	}
	out := map[string]attrValue{}
	for _, r := range stack {
		if r.macro != "" || !r.matches(path, fold) {
			continue
		}
		for _, a := range r.settings {
			if a.IsSet() {
				for _, x := range macros[a.name] {
					out[x.name] = x.attrValue
				}
			}
			out[a.name] = a.attrValue
		}
	}
	return out
}

// matches reports whether the rule's pattern matches path (a file's,
// slash-separated, from the root), as git's path_matches does.
func (r *attrRule) matches(path string, fold bool) bool {
	if r.basename {
		return wildmatch(r.pattern, path[strings.LastIndexByte(path, '/')+1:], false, fold)
	}
	name := path
	if r.base != "" {
		if len(path) < len(r.base)+1 || path[len(r.base)] != '/' || !samePath(path[:len(r.base)], r.base, fold) {
			return false
		}
		name = path[len(r.base)+1:]
	}
	return wildmatch(r.pattern, name, true, fold)
}

func samePath(a, b string, fold bool) bool {
	if fold {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// parseAttributes reads an attributes file whose directory is base. Lines
// git rejects (an invalid attribute name, a negative pattern, a macro
// where macros are not allowed) are skipped, as git skips them; so are
// patterns ending in "/", which match only directories.
func parseAttributes(text, base string, macrosOK bool) []attrRule {
	var rules []attrRule
	for _, line := range strings.Split(text, "\n") {
		if r, ok := parseAttrLine(line, base, macrosOK); ok {
			rules = append(rules, r)
		}
	}
	return rules
}

func parseAttrLine(line, base string, macrosOK bool) (attrRule, bool) {
	l, ok := gitrepo.ParseAttrLine(line, macrosOK)
	if !ok {
		return attrRule{}, false
	}
	r := attrRule{base: base, macro: l.Macro}
	if l.Macro == "" {
		if strings.HasPrefix(l.Pattern, "!") {
			return attrRule{}, false // negative patterns are ignored
		}
		if strings.HasSuffix(l.Pattern, "/") {
			return attrRule{}, false // matches directories only
		}
		r.basename = !strings.Contains(l.Pattern, "/")
		r.pattern = strings.TrimPrefix(l.Pattern, "/")
	}
	for _, a := range l.Settings {
		r.settings = append(r.settings, attrSetting{a.Name, attrValue{state: a.State, value: a.Value}})
	}
	return r, true
}

// WorkingTreeEncoding returns the value of path's working-tree-encoding
// attribute ("" when none is set), read from the attribute files as git
// reads them, without a git process. path is slash-separated, from the
// worktree's root.
func (s *Store) WorkingTreeEncoding(path string) string {
	if a, ok := s.attributes(path, attrCache{})["working-tree-encoding"]; ok && a.IsValueSet() {
		return a.Value()
	}
	return ""
}
