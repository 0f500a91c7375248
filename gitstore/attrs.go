package gitstore

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"
)

// attributes returns the attributes that apply to path, later sources
// overriding earlier ones; "binary" expands to -text -diff -merge.
func (s *Store) attributes(path string, cache map[string][]gitattributes.MatchAttribute) map[string]gitattributes.Attribute {
	var stack []gitattributes.MatchAttribute
	load := func(file string, domain []string) {
		if m, ok := cache[file]; ok {
			stack = append(stack, m...)
			return
		}
		var m []gitattributes.MatchAttribute
		if f, err := os.Open(file); err == nil {
			m, _ = gitattributes.ReadAttributes(f, domain, len(domain) == 0)
			f.Close()
		}
		cache[file] = m
		stack = append(stack, m...)
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
		load(global, nil)
	}
	parts := strings.Split(path, "/")
	for i := 0; i < len(parts); i++ {
		dir := filepath.Join(append([]string{s.root}, parts[:i]...)...)
		load(filepath.Join(dir, ".gitattributes"), parts[:i])
	}
	load(filepath.Join(s.commonDir, "info", "attributes"), nil)

	macros := map[string][]gitattributes.Attribute{
		"binary": nil, // filled below from the parsed form of "-text -diff -merge"
	}
	if m, err := gitattributes.ParseAttributesLine("[attr]binary -diff -merge -text", nil, true); err == nil {
		macros["binary"] = m.Attributes
	}
	for _, m := range stack {
		if m.Pattern == nil {
			macros[m.Name] = m.Attributes
		}
	}
	out := map[string]gitattributes.Attribute{}
	for _, m := range stack {
		if m.Pattern == nil || !m.Pattern.Match(parts) {
			continue
		}
		for _, a := range m.Attributes {
			if a.IsSet() {
				for _, x := range macros[a.Name()] {
					out[x.Name()] = x
				}
			}
			out[a.Name()] = a
		}
	}
	return out
}
