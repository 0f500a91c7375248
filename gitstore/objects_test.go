package gitstore

import (
	"bytes"
	"fmt"
	"math/rand"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/gitstore/gittest"
)

// splitParts cuts content into parts at random places, with empty parts
// among them, as Change.NewParts may hold.
func splitParts(content []byte, seed int64) [][]byte {
	r := rand.New(rand.NewSource(seed))
	var parts [][]byte
	for len(content) > 0 {
		n := r.Intn(min(len(content), 1+r.Intn(70000)) + 1)
		parts = append(parts, content[:n])
		content = content[n:]
		if r.Intn(4) == 0 {
			parts = append(parts, content[:0])
		}
	}
	return append(parts, nil)
}

// packedRepo makes a repository whose history is all in one pack with
// deltas (git repack -adf), plus a big file so that offsets are large.
func packedRepo(t *testing.T, format string) string {
	dir := gittest.RepoFormat(t, format, map[string]string{"a.txt": strings.Repeat("line\n", 300), "d/b.txt": "b\n"})
	testEnv(t)
	for i := 0; i < 5; i++ {
		writeFile(t, dir, "a.txt", strings.Repeat("line\n", 300)+strings.Repeat("more\n", i+1))
		writeFile(t, dir, "d/b.txt", strings.Repeat("b\n", i+2))
		git(t, dir, "commit", "-q", "-am", "change")
	}
	git(t, dir, "repack", "-adfq", "--depth=10", "--window=50")
	git(t, dir, "prune-packed")
	return dir
}

// objectFormats are the hash algorithms the object tests run on.
var objectFormats = []string{"sha1", "sha256"}

// Every object of a packed repository (deltas included) reads back as git
// prints it and hashes to its id; then the journal works on it.
func TestJournalOnPackedRepository(t *testing.T) {
	for _, format := range objectFormats {
		t.Run(format, func(t *testing.T) {
			dir := packedRepo(t, format)
			s := open(t, dir)
			if s.algo.Name() != format {
				t.Fatalf("read the format as %s", s.algo.Name())
			}
			for _, rev := range strings.Fields(git(t, dir, "rev-list", "--objects", "--all", "--no-object-names")) {
				h := oid(rev)
				typ := git(t, dir, "cat-file", "-t", rev)
				got, err := s.object(typ, h)
				if err != nil {
					t.Fatalf("%s %s: %v", typ, rev, err)
				}
				if want := git(t, dir, "cat-file", typ, rev); typ != "tree" && strings.TrimRight(string(got), "\n") != want {
					t.Fatalf("%s %s: content differs", typ, rev)
				}
				if s.algo.Sum(typ, [][]byte{got}) != h {
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
		})
	}
}

// Reference deltas (packs written without offset deltas) and objects
// reached through alternates (git clone --shared) read back as git prints
// them.
func TestRefDeltasAndAlternates(t *testing.T) {
	for _, format := range objectFormats {
		t.Run(format, func(t *testing.T) {
			src := packedRepo(t, format)
			git(t, src, "-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq", "--depth=10", "--window=50")
			dir := filepath.Join(t.TempDir(), "shared")
			git(t, src, "clone", "-q", "--shared", src, dir)
			git(t, dir, "config", "user.name", "Test User")
			git(t, dir, "config", "user.email", "test@example.com")
			if !exists(filepath.Join(dir, ".git", "objects", "info", "alternates")) {
				t.Fatal("clone --shared made no alternates file")
			}
			s := open(t, dir)
			n := 0
			for _, rev := range strings.Fields(git(t, dir, "rev-list", "--objects", "--all", "--no-object-names")) {
				typ := git(t, dir, "cat-file", "-t", rev)
				got, err := s.object(typ, oid(rev))
				if err != nil {
					t.Fatalf("%s %s: %v", typ, rev, err)
				}
				if s.algo.Sum(typ, [][]byte{got}) != oid(rev) {
					t.Fatalf("%s %s: content hashes to another id", typ, rev)
				}
				n++
			}
			if n < 10 {
				t.Fatalf("only %d objects", n)
			}
			edit(t, s, "edit", "a.txt", "more\n", "MORE\n")
			fsck(t, dir)
		})
	}
}

// Objects of every size, across stored blocks' 65,535-byte boundaries, are
// read back by git byte for byte.
func TestLooseObjectSizesReadByGit(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	s := open(t, dir)
	for _, n := range []int{10, 65535, 65536, 1<<20 - 1, 3 << 20} {
		content := []byte(strings.Repeat("0123456789abcde\n", n/16+1)[:n])
		h, err := s.writeBlob(content)
		if err != nil {
			t.Fatal(err)
		}
		if got := git(t, dir, "cat-file", "-s", h.String()); got != fmt.Sprint(n) {
			t.Fatalf("%d: git reads size %s", n, got)
		}
		if got, err := s.readBlob(h); err != nil || !bytes.Equal(got, content) {
			t.Fatalf("%d: read back differs (%v)", n, err)
		}
		// The same content written from parts, under another id's name
		// (the content differs by its last byte).
		other := append([]byte(nil), content...)
		other[len(other)-1] = '!'
		parts := splitParts(other, int64(n))
		ph := s.algo.Sum("blob", parts)
		if ph != s.blobHash(other) {
			t.Fatalf("%d: sumParts %s, want %s", n, ph, s.blobHash(other))
		}
		if err := s.writePartsID("blob", parts, ph); err != nil {
			t.Fatal(err)
		}
		if got, err := s.readBlob(ph); err != nil || !bytes.Equal(got, other) {
			t.Fatalf("%d: read back from parts differs (%v)", n, err)
		}
	}
	fsck(t, dir)
}

// Trees are written in git's order: a directory sorts as if its name
// ended in "/" ("a.b" before the directory "a" before "a0"); git mktree,
// given the same entries, makes the same tree.
func TestTreeOrder(t *testing.T) {
	for _, format := range objectFormats {
		t.Run(format, func(t *testing.T) {
			dir := gittest.RepoFormat(t, format, map[string]string{"f": "f\n"})
			s := open(t, dir)
			blob, err := s.writeBlob([]byte("x\n"))
			if err != nil {
				t.Fatal(err)
			}
			sub, err := s.writeObject("tree", nil)
			if err != nil {
				t.Fatal(err)
			}
			es := []treeEntry{{Name: "a0", Mode: modeRegular, Hash: blob}, {Name: "a", Mode: modeDir, Hash: sub},
				{Name: "a.b", Mode: modeRegular, Hash: blob}, {Name: "b", Mode: modeExec, Hash: blob},
				{Name: "a-", Mode: modeDir, Hash: sub}, {Name: "ab", Mode: modeRegular, Hash: blob}, {Name: "A", Mode: modeRegular, Hash: blob}}
			var in strings.Builder
			for _, e := range es {
				typ := "blob"
				if e.Mode == modeDir {
					typ = "tree"
				}
				fmt.Fprintf(&in, "%o %s %s\t%s\n", e.Mode, typ, e.Hash, e.Name)
			}
			_, h, err := s.algo.EncodeTree(es)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("git", "mktree", "--missing")
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(in.String())
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.TrimSpace(string(out)); h.String() != want {
				t.Fatalf("tree %s, git mktree %s", h, want)
			}
		})
	}
}
