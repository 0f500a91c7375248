package gitstore

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestZlibStoredRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 100, 0xffff - 7, 0xffff, 0x10000, 200000} {
		content := []byte(strings.Repeat("graft\n", n/6+1)[:n])
		var buf bytes.Buffer
		zlibStored(&buf, []byte("blob 1\x00"), content)
		r, err := zlib.NewReader(&buf)
		if err != nil {
			t.Fatalf("%d: %v", n, err)
		}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("%d: %v", n, err)
		}
		if !bytes.Equal(got, append([]byte("blob 1\x00"), content...)) {
			t.Fatalf("%d: round trip differs", n)
		}
	}
}

// packedRepo makes a repository whose history is all in one pack with
// deltas (git repack -adf), plus a big file so that offsets are large.
func packedRepo(t *testing.T) string {
	dir := newRepo(t, map[string]string{"a.txt": strings.Repeat("line\n", 300), "d/b.txt": "b\n"})
	for i := 0; i < 5; i++ {
		writeFile(t, dir, "a.txt", strings.Repeat("line\n", 300)+strings.Repeat("more\n", i+1))
		writeFile(t, dir, "d/b.txt", strings.Repeat("b\n", i+2))
		git(t, dir, "commit", "-q", "-am", "change")
	}
	git(t, dir, "repack", "-adfq", "--depth=10", "--window=50")
	git(t, dir, "prune-packed")
	return dir
}

func TestPackIndexMatchesGit(t *testing.T) {
	dir := packedRepo(t)
	idx := git(t, dir, "rev-parse", "--git-path", "objects/pack")
	names, _ := filepath.Glob(filepath.Join(dir, idx, "*.idx"))
	if len(names) != 1 {
		t.Fatalf("packs: %v", names)
	}
	p, err := openPackIndex(names[0])
	if err != nil {
		t.Fatal(err)
	}
	defer p.f.Close()
	deltas := 0
	for _, line := range strings.Split(git(t, dir, "verify-pack", "-v", names[0]), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || len(f[0]) != 40 {
			continue
		}
		if len(f) > 5 {
			deltas++
		}
		off, err := p.FindOffset(plumbing.NewHash(f[0]))
		if err != nil || fmt.Sprint(off) != f[4] {
			t.Fatalf("%s: offset %d (%v), git says %s", f[0], off, err, f[4])
		}
	}
	if deltas == 0 {
		t.Fatal("no deltas in the pack: the test would not exercise them")
	}
	if ok, _ := p.Contains(plumbing.NewHash("0123456789012345678901234567890123456789")); ok {
		t.Fatal("found an absent object")
	}
}

func TestJournalOnPackedRepository(t *testing.T) {
	dir := packedRepo(t)
	s := open(t, dir)
	for _, rev := range strings.Fields(git(t, dir, "rev-list", "--objects", "--all", "--no-object-names")) {
		h := plumbing.NewHash(rev)
		typ := git(t, dir, "cat-file", "-t", rev)
		ot, _ := plumbing.ParseObjectType(typ)
		obj, err := s.object(ot, h)
		if err != nil {
			t.Fatalf("%s %s: %v", typ, rev, err)
		}
		r, _ := obj.Reader()
		got, _ := io.ReadAll(r)
		if want := git(t, dir, "cat-file", typ, rev); typ != "tree" && strings.TrimRight(string(got), "\n") != want {
			t.Fatalf("%s %s: content differs", typ, rev)
		}
		if plumbing.ComputeHash(ot, got) != h {
			t.Fatalf("%s %s: content hashes to another id", typ, rev)
		}
	}
	edit(t, s, "edit", "d/b.txt", "b\n", "B\n")
	if got := git(t, dir, "diff", "--name-only", "main", "refs/graft/main"); got != "d/b.txt" {
		t.Fatalf("diff: %q", got)
	}
	if _, err := s.Undo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	fsck(t, dir)
}
