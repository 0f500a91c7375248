package gitrepo

import (
	"bytes"
	"os/exec"
	"strings"

	format "github.com/go-git/go-git/v6/plumbing/format/config"
)

// Config is one config file as go-git's decoder reads it: sections, their
// subsections and their options in order (sections of the same name
// merged). A key without "=" reads as "" (go-git does not tell it from an
// empty value). Include directives are not followed (go-git does not).
type Config struct {
	cfg *format.Config
}

// ParseConfig reads git's config syntax with go-git's decoder. Where it
// refuses a text git reads (keys before the first section, the older
// "[section.sub]" headers, a key on its header's line), the installed git
// reads the file instead (git config --list), so that such a file is not
// taken for empty; name is the file, "" for a text of no file.
func ParseConfig(src []byte, name string) (*Config, error) {
	cfg := format.New()
	err := format.NewDecoder(bytes.NewReader(src)).Decode(cfg)
	if err == nil {
		return &Config{cfg: cfg}, nil
	}
	if name == "" {
		return nil, err
	}
	out, gerr := exec.Command("git", "config", "--no-includes", "--file", name, "--list", "-z").Output()
	if gerr != nil {
		return nil, err
	}
	cfg = format.New()
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		kv, value, _ := strings.Cut(rec, "\n")
		section, rest, ok := strings.Cut(kv, ".")
		if !ok {
			continue
		}
		sub, key := "", rest
		if i := strings.LastIndexByte(rest, '.'); i >= 0 {
			sub, key = rest[:i], rest[i+1:]
		}
		cfg.AddOption(section, sub, key, value)
	}
	return &Config{cfg: cfg}, nil
}

// All returns the values of section.key (a section without subsection),
// in order.
func (c *Config) All(section, key string) []string {
	if c == nil {
		return nil
	}
	var vs []string
	for _, sec := range c.cfg.Sections {
		if sec.IsName(section) {
			vs = append(vs, sec.Options.GetAll(key)...)
		}
	}
	return vs
}

// Keys lists the keys of a section (without subsection), spelled as the
// file spells them.
func (c *Config) Keys(section string) []string {
	if c == nil {
		return nil
	}
	var keys []string
	for _, sec := range c.cfg.Sections {
		if sec.IsName(section) {
			for _, o := range sec.Options {
				keys = append(keys, o.Key)
			}
		}
	}
	return keys
}

// Each calls fn for every variable: "section.key" or
// "section.subsection.key", section and key in lower case.
func (c *Config) Each(fn func(key, value string)) {
	for _, sec := range c.cfg.Sections {
		name := strings.ToLower(sec.Name)
		for _, o := range sec.Options {
			fn(name+"."+strings.ToLower(o.Key), o.Value)
		}
		for _, sub := range sec.Subsections {
			for _, o := range sub.Options {
				fn(name+"."+sub.Name+"."+strings.ToLower(o.Key), o.Value)
			}
		}
	}
}
