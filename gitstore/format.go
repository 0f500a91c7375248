package gitstore

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrUnsupportedFormat is a repository whose format graft does not handle:
// refused up front, before anything is read or written.
var ErrUnsupportedFormat = errors.New("repository format not supported")

// knownExtensions are the repository extensions graft handles (or that do
// not concern what it does) in a version 1 repository, with the values it
// accepts ("" for any).
var knownExtensions = map[string][]string{
	"objectformat":    {"sha1", "sha256"},
	"refstorage":      {"files", "reftable"},
	"worktreeconfig":  nil, // config.worktree files: graft reads no per-worktree setting it needs
	"preciousobjects": nil, // graft never deletes objects
	"partialclone":    nil, // objects graft reads are ones it wrote or the checkout has
	"noop":            nil,
}

// checkFormat reads the repository's format: its hash algorithm (SHA-1 or
// SHA-256) and ref storage (files, or reftable through an installed git of
// 2.45 or later). It refuses a repository graft cannot work in correctly:
// a format version above 1, or (in a version 1 repository, where git
// itself honours extensions) an extension it does not know, and reftable
// without a git that handles it. Each refusal names what it found and why.
func (s *Store) checkFormat() error {
	v := strings.TrimSpace(s.cfg.repoValue("core", "repositoryformatversion"))
	version := 0
	if v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("gitstore: core.repositoryformatversion is %q: %w", v, ErrUnsupportedFormat)
		}
		version = n
	}
	if version > 1 {
		return fmt.Errorf("gitstore: core.repositoryformatversion %d (graft knows 0 and 1): %w", version, ErrUnsupportedFormat)
	}
	if version == 0 {
		return nil // git ignores extensions in a version 0 repository
	}
	for _, name := range s.cfg.repoKeys("extensions") {
		value := strings.ToLower(strings.TrimSpace(s.cfg.repoValue("extensions", name)))
		allowed, known := knownExtensions[strings.ToLower(name)]
		switch {
		case !known:
			return fmt.Errorf("gitstore: extensions.%s is set, which graft does not know: %w", name, ErrUnsupportedFormat)
		case allowed != nil && !contains(allowed, value):
			return fmt.Errorf("gitstore: extensions.%s = %s is not supported: %w", name, value, ErrUnsupportedFormat)
		case strings.EqualFold(name, "objectformat") && value == "sha256":
			s.algo = formatSHA256
		case strings.EqualFold(name, "refstorage") && value == "reftable":
			if err := checkReftableGit(); err != nil {
				return fmt.Errorf("gitstore: this repository keeps its refs in reftable (extensions.refStorage = reftable), which graft moves through git 2.45 or later, and %v: %w", err, ErrUnsupportedFormat)
			}
			s.refs = &heldRefs{s: s, refStore: &gitRefs{s: s}}
		}
	}
	return nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
