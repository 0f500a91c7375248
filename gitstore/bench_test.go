package gitstore

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// benchRepo makes a repository of n files (3 directory levels) with git
// fast-import and checks it out.
func benchRepo(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	run := func(stdin []byte, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Stdin = bytes.NewReader(stdin)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@b", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@b")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run(nil, "init", "-q", "-b", "main")
	var s bytes.Buffer
	s.WriteString("commit refs/heads/main\ncommitter b <b@b> 1700000000 +0000\ndata 7\ninitial\n")
	for i := 0; i < n; i++ {
		body := fmt.Sprintf("%svalue = 0\n", strings.Repeat(fmt.Sprintf("file %d line\n", i), 20))
		fmt.Fprintf(&s, "M 100644 inline d%03d/s%02d/f%06d.txt\ndata %d\n%s\n", i%100, i/100%10, i, len(body), body)
	}
	run(s.Bytes(), "fast-import", "--quiet")
	run(nil, "checkout", "-q", "-f", "main")
	return dir
}

// BenchmarkLand is one call as a graft process does it: Open (discovery,
// config, recovery check) and Land of a one-line edit in one file, in
// repositories of growing size. The cost should not grow with the size.
func BenchmarkLand(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			dir := benchRepo(b, n)
			b.Setenv("GIT_AUTHOR_NAME", "b")
			b.Setenv("GIT_AUTHOR_EMAIL", "b@b")
			path := "d050/s00/f000050.txt"
			name := filepath.Join(dir, path)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				old, err := os.ReadFile(name)
				if err != nil {
					b.Fatal(err)
				}
				nw := bytes.Replace(old, []byte(fmt.Sprintf("value = %d\n", i)), []byte(fmt.Sprintf("value = %d\n", i+1)), 1)
				s, err := Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Land(ctx, Call{Tool: "edit"}, []Change{{Path: path, Old: old, New: nw, Mode: 0o644}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
