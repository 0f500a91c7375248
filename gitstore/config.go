package gitstore

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/graftdev/graft/gitstore/internal/gitrepo"
)

// gitConfig is the layered git configuration graft reads: system, global,
// then the repository's own, later layers overriding earlier ones. Only
// the few keys graft needs are asked for, all in sections without a
// subsection; include directives are not followed.
type gitConfig struct {
	layers []*gitrepo.Config // system, global..., repo (repo may be absent)
	repo   *gitrepo.Config
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
func readConfigFile(name string) *gitrepo.Config {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	cfg, err := gitrepo.ParseConfig(b, name)
	if err != nil {
		return nil
	}
	return cfg
}

// get returns the last value of section.key over every layer, or "".
func (c *gitConfig) get(section, key string) string {
	v := ""
	for _, l := range c.layers {
		if all := l.All(section, key); len(all) > 0 {
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
			vs = append(vs, l.All(section, key)...)
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
	all := c.repo.All(section, key)
	if len(all) == 0 {
		return ""
	}
	return all[len(all)-1]
}

// repoKeys lists the keys of a section of the repository's own config, in
// order, spelled as the file spells them.
func (c *gitConfig) repoKeys(section string) []string { return c.repo.Keys(section) }
