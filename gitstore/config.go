package gitstore

import (
	"os"
	"path/filepath"
	"strings"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

// gitConfig is the layered git configuration graft reads: system, global,
// then the repository's own, later layers overriding earlier ones. Only
// the few keys graft needs are asked for; include directives are not
// followed.
type gitConfig struct {
	layers []*format.Config // system, global..., repo (repo may be absent)
	repo   *format.Config
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

func readConfigFile(name string) *format.Config {
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	cfg := format.New()
	if err := format.NewDecoder(f).Decode(cfg); err != nil {
		return nil
	}
	return cfg
}

// get returns the last value of section.key over every layer, or "".
func (c *gitConfig) get(section, key string) string {
	v := ""
	for _, l := range c.layers {
		if !l.HasSection(section) {
			continue
		}
		if all := l.Section(section).OptionAll(key); len(all) > 0 {
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
		if l == c.repo || !l.HasSection(section) {
			continue
		}
		vs = append(vs, l.Section(section).OptionAll(key)...)
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
	if c.repo == nil || !c.repo.HasSection(section) {
		return ""
	}
	all := c.repo.Section(section).OptionAll(key)
	if len(all) == 0 {
		return ""
	}
	return all[len(all)-1]
}

// repoKeys lists the keys of a section of the repository's own config.
func (c *gitConfig) repoKeys(section string) []string {
	if c.repo == nil || !c.repo.HasSection(section) {
		return nil
	}
	var keys []string
	for _, o := range c.repo.Section(section).Options {
		keys = append(keys, o.Key)
	}
	return keys
}
