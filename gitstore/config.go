package gitstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// gitConfig is the layered git configuration graft reads: system, global,
// then the repository's own, later layers overriding earlier ones. Only
// the few keys graft needs are asked for, all in sections without a
// subsection; include directives are not followed.
type gitConfig struct {
	layers []*configFile // system, global..., repo (repo may be absent)
	repo   *configFile
}

// loadConfig reads system and global config and, when withRepo, the
// repository's config in commonDir. Unreadable files count as empty.
func loadConfig(commonDir string, withRepo bool) *gitConfig {
	c := &gitConfig{}
	for _, name := range outerConfigFiles() {
		if cfg := readConfigFile(name); cfg != nil {
			c.layers = append(c.layers, cfg)
		}
	}
	if withRepo {
		if cfg := readConfigFile(filepath.Join(commonDir, "config")); cfg != nil {
			c.repo = cfg
			c.layers = append(c.layers, cfg)
		}
	}
	return c
}

// outerConfigFiles lists the system and global config files as git finds
// them, honouring GIT_CONFIG_NOSYSTEM, GIT_CONFIG_SYSTEM and
// GIT_CONFIG_GLOBAL.
func outerConfigFiles() []string {
	var files []string
	if !envBool("GIT_CONFIG_NOSYSTEM") {
		if f := os.Getenv("GIT_CONFIG_SYSTEM"); f != "" {
			files = append(files, f)
		} else {
			files = append(files, "/etc/gitconfig")
		}
	}
	if f, ok := os.LookupEnv("GIT_CONFIG_GLOBAL"); ok {
		if f != "" {
			files = append(files, f)
		}
		return files
	}
	xdg := os.Getenv("XDG_CONFIG_HOME")
	home, _ := os.UserHomeDir()
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	return files
}

func envBool(name string) bool {
	switch strings.ToLower(os.Getenv(name)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// readConfigFile parses a config file; a missing, unreadable or malformed
// file is nil (git itself refuses to run on a malformed one).
func readConfigFile(name string) *configFile {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	cfg, err := parseConfig(b)
	if err != nil {
		return nil
	}
	return cfg
}

// get returns the last value of section.key over every layer, or "".
func (c *gitConfig) get(section, key string) string {
	v := ""
	for _, l := range c.layers {
		if all := l.all(section, key); len(all) > 0 {
			v = all[len(all)-1]
		}
	}
	return v
}

// outerAll returns every value of section.key in the system and global
// layers, in order (repository config is not trusted for safe.directory).
func (c *gitConfig) outerAll(section, key string) []string {
	var vs []string
	for _, l := range c.layers {
		if l != c.repo {
			vs = append(vs, l.all(section, key)...)
		}
	}
	return vs
}

// boolValue interprets a git boolean value; anything but a false value
// ("false", "no", "off", "0") is true, as a key given without a value is.
func boolValue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "false", "no", "off", "0":
		return false
	}
	return true
}

// repoValue returns section.key from the repository's own config only (format
// and extensions are the repository's, whatever other layers say).
func (c *gitConfig) repoValue(section, key string) string {
	if c.repo == nil {
		return ""
	}
	all := c.repo.all(section, key)
	if len(all) == 0 {
		return ""
	}
	return all[len(all)-1]
}

// repoKeys lists the keys of a section of the repository's own config, in
// order, spelled as the file spells them.
func (c *gitConfig) repoKeys(section string) []string {
	if c.repo == nil {
		return nil
	}
	var keys []string
	for _, e := range c.repo.entries {
		if e.section == section && !e.sub {
			keys = append(keys, e.written)
		}
	}
	return keys
}

// configFile is one parsed config file: its variables in order.
type configFile struct {
	entries []configEntry
}

// configEntry is one variable: section and key in lower case (git
// compares them without case), the subsection if the section has one
// (graft reads none), and the value ("" for a key without "=", which git
// reads as true).
type configEntry struct {
	section    string
	sub        bool
	subsection string
	key        string
	written    string // the key as the file spells it, for messages
	value      string
	bare       bool // no "=": git reads it as true
}

// all returns the values of section.key (a section without subsection);
// a bare key reads "true".
func (f *configFile) all(section, key string) []string {
	if f == nil {
		return nil
	}
	section, key = strings.ToLower(section), strings.ToLower(key)
	var vs []string
	for _, e := range f.entries {
		if e.section == section && !e.sub && e.key == key {
			if e.bare {
				vs = append(vs, "true") // as git reads a key without "="
			} else {
				vs = append(vs, e.value)
			}
		}
	}
	return vs
}

var errConfigSyntax = errors.New("bad config syntax")

// parseConfig reads git's config syntax as git's own parser does:
// "[section]", "[section "subsection"]" and the older "[section.sub]";
// "key = value" or a bare "key"; comments from ";" or "#" outside quotes;
// values with their outer white space dropped, inner runs of white space
// kept as that many spaces, double quotes removed and the escapes \n \t
// \b \\ \" decoded, and a backslash at the end of a line joining the
// next. CRLF line ends are read as LF. Anything else is an error.
func parseConfig(src []byte) (*configFile, error) {
	p := &configParser{src: src}
	f := &configFile{}
	section, subsection, sub := "", "", false
	for {
		c, ok := p.next()
		if !ok {
			return f, nil
		}
		switch {
		case c == '\n' || c == ' ' || c == '\t' || c == '\r':
		case c == '#' || c == ';':
			p.skipLine()
		case c == '[':
			var err error
			if section, subsection, sub, err = p.header(); err != nil {
				return nil, err
			}
		case isConfigAlpha(c):
			// (git reads a key before any section too, in section "")
			start := p.pos - 1
			for {
				c, ok = p.peek()
				if !ok || !(isConfigAlpha(c) || c >= '0' && c <= '9' || c == '-') {
					break
				}
				p.pos++
			}
			written := string(p.src[start:p.pos])
			value, bare, err := p.value()
			if err != nil {
				return nil, err
			}
			f.entries = append(f.entries, configEntry{section: section, sub: sub, subsection: subsection, key: strings.ToLower(written), written: written, value: value, bare: bare})
		default:
			return nil, errConfigSyntax
		}
	}
}

type configParser struct {
	src []byte
	pos int
}

// next returns the next character, with "\r\n" read as "\n".
func (p *configParser) next() (byte, bool) {
	if p.pos >= len(p.src) {
		return 0, false
	}
	c := p.src[p.pos]
	p.pos++
	if c == '\r' && p.pos < len(p.src) && p.src[p.pos] == '\n' {
		p.pos++
		return '\n', true
	}
	return c, true
}

func (p *configParser) peek() (byte, bool) {
	save := p.pos
	c, ok := p.next()
	p.pos = save
	return c, ok
}

func (p *configParser) skipLine() {
	for {
		if c, ok := p.next(); !ok || c == '\n' {
			return
		}
	}
}

// header reads a section header after its "[".
func (p *configParser) header() (section, subsection string, sub bool, err error) {
	var name []byte
	for {
		c, ok := p.next()
		switch {
		case !ok:
			return "", "", false, errConfigSyntax
		case c == ']':
			if len(name) == 0 {
				return "", "", false, errConfigSyntax
			}
			s, rest, dotted := strings.Cut(string(name), ".")
			return s, rest, dotted, nil
		case c == ' ' || c == '\t':
			// [section "subsection"]
			for c == ' ' || c == '\t' {
				if c, ok = p.next(); !ok {
					return "", "", false, errConfigSyntax
				}
			}
			if c != '"' || len(name) == 0 {
				return "", "", false, errConfigSyntax
			}
			var subName []byte
			for {
				c, ok = p.next()
				if !ok || c == '\n' {
					return "", "", false, errConfigSyntax
				}
				if c == '"' {
					break
				}
				if c == '\\' {
					if c, ok = p.next(); !ok || c == '\n' {
						return "", "", false, errConfigSyntax
					}
				}
				subName = append(subName, c)
			}
			if c, ok = p.next(); !ok || c != ']' {
				return "", "", false, errConfigSyntax
			}
			return string(name), string(subName), true, nil
		case isConfigAlpha(c) || c >= '0' && c <= '9' || c == '-' || c == '.':
			name = append(name, lower(c))
		default:
			return "", "", false, errConfigSyntax
		}
	}
}

// value reads what follows a key: nothing (a bare key), or "=" and a value.
func (p *configParser) value() (value string, bare bool, err error) {
	c, ok := p.next()
	for ok && (c == ' ' || c == '\t') {
		c, ok = p.next()
	}
	switch {
	case !ok || c == '\n':
		return "", true, nil
	case c != '=':
		return "", false, errConfigSyntax
	}
	var v []byte
	quote, comment, spaces := false, false, 0
	for {
		c, ok := p.next()
		if !ok || c == '\n' {
			if quote {
				return "", false, errConfigSyntax
			}
			return string(v), false, nil
		}
		if comment {
			continue
		}
		if !quote && (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
			if len(v) > 0 {
				spaces++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; spaces > 0; spaces-- {
			v = append(v, ' ')
		}
		switch c {
		case '\\':
			c, ok = p.next()
			switch {
			case ok && c == '\n':
				continue
			case ok && c == 't':
				c = '\t'
			case ok && c == 'b':
				c = '\b'
			case ok && c == 'n':
				c = '\n'
			case ok && (c == '\\' || c == '"'):
			default:
				return "", false, errConfigSyntax
			}
			v = append(v, c)
		case '"':
			quote = !quote
		default:
			v = append(v, c)
		}
	}
}

func isConfigAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
