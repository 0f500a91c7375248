package gitstore

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/gitstore/gittest"
)

func TestZlibStoredRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 100, 0xffff - 8, 0xffff - 7, 0xffff - 6, 0xffff, 0x10000, 2*0xffff - 7, 200000} {
		content := []byte(strings.Repeat("graft\n", n/6+1)[:n])
		var buf bytes.Buffer
		if err := writeZlibStored(&buf, []byte("blob 1\x00"), content); err != nil {
			t.Fatal(err)
		}
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
		// The same content in parts (Change.NewParts) gives the same stream.
		var whole bytes.Buffer
		writeZlibStored(&whole, []byte("blob 1\x00"), content)
		for seed := range int64(4) {
			var split bytes.Buffer
			if err := writeZlibStored(&split, []byte("blob 1\x00"), splitParts(content, seed)...); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(split.Bytes(), whole.Bytes()) {
				t.Fatalf("%d, seed %d: the stream of the parts differs", n, seed)
			}
		}
	}
}

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

func TestPackIndexMatchesGit(t *testing.T) {
	for _, format := range objectFormats {
		t.Run(format, func(t *testing.T) {
			dir := packedRepo(t, format)
			s := open(t, dir)
			idx := git(t, dir, "rev-parse", "--git-path", "objects/pack")
			names, _ := filepath.Glob(filepath.Join(dir, idx, "*.idx"))
			if len(names) != 1 {
				t.Fatalf("packs: %v", names)
			}
			p, err := openPackIndex(names[0], s.algo.size)
			if err != nil {
				t.Fatal(err)
			}
			defer p.f.Close()
			deltas := 0
			for _, line := range strings.Split(git(t, dir, "verify-pack", "-v", names[0]), "\n") {
				f := strings.Fields(line)
				if len(f) < 5 || len(f[0]) != 2*s.algo.size {
					continue
				}
				if len(f) > 5 {
					deltas++
				}
				off, ok, err := p.find(oid(f[0]))
				if err != nil || !ok || fmt.Sprint(off) != f[4] {
					t.Fatalf("%s: offset %d (%v %v), git says %s", f[0], off, ok, err, f[4])
				}
			}
			if deltas == 0 {
				t.Fatal("no deltas in the pack: the test would not exercise them")
			}
			if _, ok, _ := p.find(oid(strings.Repeat("01", s.algo.size))); ok {
				t.Fatal("found an absent object")
			}
		})
	}
}

// Every object of a packed repository (deltas included) reads back as git
// prints it and hashes to its id; then the journal works on it.
func TestJournalOnPackedRepository(t *testing.T) {
	for _, format := range objectFormats {
		t.Run(format, func(t *testing.T) {
			dir := packedRepo(t, format)
			s := open(t, dir)
			if s.algo.name != format {
				t.Fatalf("read the format as %s", s.algo.name)
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
				if s.algo.sum(typ, got) != h {
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
				if s.algo.sum(typ, got) != oid(rev) {
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

// A damaged delta is an error, never a panic or a wrong object.
func TestApplyDeltaRejectsDamage(t *testing.T) {
	base := []byte("hello, world\n")
	// src 13, dst 5, copy offset 0 size 5.
	good := []byte{13, 5, 0x80 | 0x10, 5}
	if out, err := applyDelta(base, good); err != nil || string(out) != "hello" {
		t.Fatalf("good delta: %q %v", out, err)
	}
	for name, d := range map[string][]byte{
		"wrong source size": {12, 5, 0x90, 5},
		"copy past the end": {13, 5, 0x91, 10, 5},
		"short insert":      {13, 5, 4, 'a'},
		"size mismatch":     {13, 6, 0x90, 5},
		"reserved opcode":   {13, 0, 0},
		"truncated":         {13},
	} {
		if _, err := applyDelta(base, d); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// Objects of every size class (stored, compressed, stored again past
// compressLimit) are read back by git byte for byte.
func TestLooseObjectSizesReadByGit(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	s := open(t, dir)
	for _, n := range []int{10, storedLimit + 1, compressLimit - 1, compressLimit, 3 * compressLimit} {
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
		ph := s.algo.sumParts("blob", parts)
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

// Entries sort as git sorts them: a directory as if its name ended in
// "/" ("a.b" before the directory "a" before "a0").
func TestTreeOrder(t *testing.T) {
	es := []treeEntry{{Name: "a0", Mode: 0o100644}, {Name: "a", Mode: modeDir}, {Name: "a.b", Mode: 0o100644},
		{Name: "b", Mode: 0o100644}, {Name: "a-", Mode: modeDir}, {Name: "ab", Mode: 0o100644}, {Name: "A", Mode: 0o100644}}
	for i := range es {
		for j := range es {
			want := strings.Compare(treeKey(es[i]), treeKey(es[j]))
			if got := compareTreeEntries(es[i], es[j]); got != want {
				t.Errorf("compare(%q, %q) = %d, want %d", treeKey(es[i]), treeKey(es[j]), got, want)
			}
		}
	}
}
