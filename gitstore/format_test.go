package gitstore

import (
	"errors"
	"strings"
	"testing"
)

// Repository formats graft does not handle are refused before anything is
// read or written, each with a message naming what it found. git 2.39
// cannot make SHA-256 journals graft could write, nor reftable
// repositories, so the formats are set in a crafted config.
func TestRepositoryFormats(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config []string // git config key value pairs
		refuse string   // substring of the refusal; "" lands
	}{
		{"version 0 ignores extensions", []string{"extensions.somethingNew", "true"}, ""},
		{"version 1 sha1", []string{"core.repositoryformatversion", "1", "extensions.objectFormat", "sha1"}, ""},
		{"version 1 worktreeConfig", []string{"core.repositoryformatversion", "1", "extensions.worktreeConfig", "true"}, ""},
		{"version 2", []string{"core.repositoryformatversion", "2"}, "repositoryformatversion 2"},
		{"sha256", []string{"core.repositoryformatversion", "1", "extensions.objectFormat", "sha256"}, "SHA-256"},
		{"reftable", []string{"core.repositoryformatversion", "1", "extensions.refStorage", "reftable"}, "reftable"},
		{"unknown extension", []string{"core.repositoryformatversion", "1", "extensions.frobnicate", "true"}, "extensions.frobnicate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t, map[string]string{"a.txt": "a\n"})
			for i := 0; i < len(tc.config); i += 2 {
				git(t, dir, "config", tc.config[i], tc.config[i+1])
			}
			s, err := Open(dir)
			if tc.refuse == "" {
				if err != nil {
					t.Fatal(err)
				}
				edit(t, s, "edit", "a.txt", "a", "A")
				return
			}
			if !errors.Is(err, ErrUnsupportedFormat) || !strings.Contains(err.Error(), tc.refuse) {
				t.Fatalf("got %v, want a refusal naming %q", err, tc.refuse)
			}
			if readFile(t, dir, "a.txt") != "a\n" {
				t.Fatal("file changed")
			}
		})
	}
}
