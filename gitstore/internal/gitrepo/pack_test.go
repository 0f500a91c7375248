package gitrepo

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v6/plumbing/filemode"
	"github.com/go-git/go-git/v6/plumbing/object"
	"github.com/graftdev/graft/gitstore/gittest"
)

// historyRepo makes a repository whose objects delta well: a file
// rewritten a line at a time over many commits, in a few directories.
func historyRepo(t *testing.T) string {
	t.Helper()
	dir := gittest.Repo(t, nil)
	var body strings.Builder
	for i := range 400 {
		fmt.Fprintf(&body, "line %d of a file that changes a little in every commit\n", i)
	}
	text := body.String()
	for c := range 30 {
		text = strings.Replace(text, fmt.Sprintf("line %d ", c*7), fmt.Sprintf("LINE %d ", c*7), 1)
		for _, d := range []string{"a", "b/c", "b/d"} {
			gittest.WriteFile(t, dir, d+"/f.txt", text+d+"\n")
		}
		gittest.WriteFile(t, dir, fmt.Sprintf("b/c/n%02d.txt", c), "new\n")
		gittest.Git(t, dir, "add", "-A")
		gittest.Git(t, dir, "commit", "-q", "-m", fmt.Sprintf("commit %d", c))
	}
	return dir
}

// gitObjects reads every object of the repository with git cat-file.
func gitObjects(t *testing.T, dir string) map[ID]struct {
	typ  string
	data []byte
} {
	t.Helper()
	cmd := exec.Command("git", "cat-file", "--batch-all-objects", "--batch")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file: %v", err)
	}
	objs := map[ID]struct {
		typ  string
		data []byte
	}{}
	r := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF {
			break
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("cat-file: %q", line)
		}
		n, _ := strconv.Atoi(f[2])
		data := make([]byte, n+1)
		if _, err := io.ReadFull(r, data); err != nil {
			t.Fatal(err)
		}
		objs[ID(f[0])] = struct {
			typ  string
			data []byte
		}{f[1], data[:n]}
	}
	return objs
}

func formatOf(t *testing.T, dir string) Format {
	t.Helper()
	if strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "--show-object-format")) == "sha256" {
		return SHA256
	}
	return SHA1
}

// checkAll reads every object git knows through a new Repo and compares.
func checkAll(t *testing.T, dir string) {
	t.Helper()
	want := gitObjects(t, dir)
	if len(want) < 100 {
		t.Fatalf("only %d objects", len(want))
	}
	git := filepath.Join(dir, ".git")
	packs := func() []string {
		names, _ := filepath.Glob(filepath.Join(git, "objects", "pack", "*"))
		return names
	}
	before := packs()
	r := Open(git, git, formatOf(t, dir))
	defer r.Close()
	defer func() {
		if after := packs(); strings.Join(after, "\n") != strings.Join(before, "\n") {
			t.Errorf("the pack directory changed: %q, was %q", after, before)
		}
	}()
	for h, w := range want {
		typ, data, err := r.Read(h)
		if err != nil {
			t.Fatalf("Read %s: %v", h, err)
		}
		if typ != w.typ || !bytes.Equal(data, w.data) {
			t.Fatalf("Read %s: %s of %d bytes, git says %s of %d bytes", h, typ, len(data), w.typ, len(w.data))
		}
		if !r.Has(h) {
			t.Fatalf("Has %s: false", h)
		}
	}
	if r.objs.partial() {
		t.Fatalf("some pack was left to go-git")
	}
	missing := ID(strings.Repeat("0", 2*r.format.Size()-1) + "1")
	if _, _, err := r.Read(missing); err == nil || r.Has(missing) {
		t.Fatalf("a missing object was found (%v)", err)
	}
}

// countDeltas counts the entries of each kind git verify-pack lists.
func countDeltas(t *testing.T, dir string) (deltas int) {
	t.Helper()
	idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
	for _, f := range idx {
		out := gittest.Git(t, dir, "verify-pack", "-v", f)
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) == 7 {
				deltas++ // "id type size size-in-pack offset depth base"
			}
		}
	}
	return deltas
}

// Every object of packs as git writes them — offset deltas, id deltas,
// 64-bit offsets, with and without a reverse index — and of loose files
// reads as git cat-file reads it.
func TestReadPacked(t *testing.T) {
	cases := []struct {
		name   string
		repack func(t *testing.T, dir string)
	}{
		{"loose", func(t *testing.T, dir string) {}},
		{"offset deltas", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "-c", "pack.writeReverseIndex=false", "repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50")
		}},
		{"offset deltas with .rev", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "-c", "pack.writeReverseIndex=true", "repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50")
		}},
		{"id deltas", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "-c", "repack.useDeltaBaseOffset=false", "repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50")
		}},
		{"64-bit offsets", func(t *testing.T, dir string) {
			pack := filepath.Join(dir, ".git", "objects", "pack")
			old, _ := filepath.Glob(filepath.Join(pack, "*"))
			cmd := exec.Command("sh", "-c", "git rev-list --objects --all | git pack-objects -q --index-version=2,0x100 --window=50 --depth=50 "+filepath.Join(pack, "pack"))
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("pack-objects: %v\n%s", err, out)
			}
			for _, f := range old {
				os.Remove(f)
			}
			gittest.Git(t, dir, "prune-packed")
		}},
		{"packed and loose", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "repack", "-a", "-d", "-q")
			gittest.WriteFile(t, dir, "a/f.txt", "rewritten\n")
			gittest.Git(t, dir, "commit", "-q", "-a", "-m", "loose")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := historyRepo(t)
			tc.repack(t, dir)
			if tc.name != "loose" && tc.name != "packed and loose" && countDeltas(t, dir) < 50 {
				t.Fatalf("the pack has few deltas")
			}
			checkAll(t, dir)
		})
	}
}

// Objects of an alternate's packs are read too (git clone --shared).
func TestReadAlternates(t *testing.T) {
	src := historyRepo(t)
	gittest.Git(t, src, "repack", "-a", "-d", "-q")
	dst := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, ".", "clone", "-q", "--shared", src, dst)
	gittest.WriteFile(t, dst, "own.txt", "own\n")
	gittest.Git(t, dst, "add", "own.txt")
	gittest.Git(t, dst, "-c", "user.name=Test", "-c", "user.email=t@example.com", "commit", "-q", "-m", "own")
	checkAll(t, dst)
}

// A pack added after the first read (git repacked or fetched) is found
// by the next read; so is an object git packed and pruned meanwhile.
func TestReadAfterRepack(t *testing.T) {
	dir := historyRepo(t)
	git := filepath.Join(dir, ".git")
	r := Open(git, git, formatOf(t, dir))
	defer r.Close()
	head := ID(strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD")))
	if _, _, err := r.Read(head); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "repack", "-a", "-d", "-q")
	gittest.Git(t, dir, "prune-packed")
	tree := ID(strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD^{tree}")))
	if typ, _, err := r.Read(tree); err != nil || typ != "tree" {
		t.Fatalf("after repack: %s %v", typ, err)
	}
}

// A loose object written here is what git writes: git reads it, fsck
// finds it sound, and it is read-only.
func TestWriteLoose(t *testing.T) {
	dir := gittest.Repo(t, map[string]string{"a.txt": "a\n"})
	git := filepath.Join(dir, ".git")
	f := formatOf(t, dir)
	r := Open(git, git, f)
	defer r.Close()
	for _, size := range []int{0, 10, 64<<10 + 1, 1<<20 + 1} {
		content := bytes.Repeat([]byte("0123456789abcdef"), size/16+1)[:size]
		parts := [][]byte{content[:size/2], content[size/2:]}
		h := f.Sum("blob", parts)
		if err := r.Write("blob", parts, h); err != nil {
			t.Fatal(err)
		}
		if got := gittest.Git(t, dir, "cat-file", "blob", string(h)); got != string(content) {
			t.Fatalf("%d bytes: git reads %d bytes", size, len(got))
		}
		fi, err := os.Stat(filepath.Join(git, "objects", string(h[:2]), string(h[2:])))
		if err != nil || fi.Mode().Perm()&0o222 != 0 {
			t.Fatalf("%d bytes: %v, mode %v", size, err, fi.Mode())
		}
		if _, data, err := r.Read(h); err != nil || !bytes.Equal(data, content) {
			t.Fatalf("%d bytes: read back %d bytes, %v", size, len(data), err)
		}
		if err := r.Write("blob", parts, h); err != nil {
			t.Fatalf("writing it again: %v", err)
		}
	}
	gittest.Git(t, dir, "fsck", "--strict", "--no-dangling")
	tmps, _ := filepath.Glob(filepath.Join(git, "objects", "*", "tmp_obj_*"))
	if len(tmps) > 0 {
		t.Fatalf("temporary files left: %q", tmps)
	}
}

// EncodeTree writes what go-git's tree encoder writes, in git's order,
// for names that sort differently as trees and as files, and git reads
// the result as the same tree (git mktree gives the same id).
func TestEncodeTree(t *testing.T) {
	dir := gittest.Repo(t, map[string]string{"a.txt": "a\n"})
	f := formatOf(t, dir)
	blob := ID(strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD:a.txt")))
	tree := ID(strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD^{tree}")))
	names := []string{"a", "a-b", "a.b", "a0", "ab", "b", "foo", "foo.c", "foo-bar", "foo bar", "Z", "é", "x/y"[:1]}
	for seed := range 50 {
		var entries []TreeEntry
		var mktree strings.Builder
		for i, n := range names {
			if (seed>>uint(i%6))&1 == 1 && i%3 == seed%3 {
				continue
			}
			mode, h, typ := ModeRegular, blob, "blob"
			switch (seed + i) % 4 {
			case 1:
				mode, h, typ = ModeDir, tree, "tree"
			case 2:
				mode = ModeExec
			case 3:
				mode = ModeSymlink
			}
			entries = append(entries, TreeEntry{Name: n, Mode: mode, Hash: h})
			fmt.Fprintf(&mktree, "%06o %s %s\t%s\n", mode, typ, h, n)
		}
		content, id, err := f.EncodeTree(entries)
		if err != nil {
			t.Fatal(err)
		}
		gg := &object.Tree{}
		for _, e := range entries {
			h, _ := hash(e.Hash)
			gg.Entries = append(gg.Entries, object.TreeEntry{Name: e.Name, Mode: filemode.FileMode(e.Mode), Hash: h})
		}
		sort.Sort(object.TreeEntrySorter(gg.Entries))
		want, wantID, err := f.encode(gg)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(content, want) || id != wantID {
			t.Fatalf("seed %d: %q (%s), go-git writes %q (%s)", seed, content, id, want, wantID)
		}
		cmd := exec.Command("git", "mktree")
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(mktree.String())
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git mktree: %v", err)
		}
		if got := ID(strings.TrimSpace(string(out))); got != id {
			t.Fatalf("seed %d: id %s, git mktree says %s", seed, id, got)
		}
	}
	for _, bad := range [][]TreeEntry{
		{{Name: "", Mode: ModeRegular, Hash: blob}},
		{{Name: ".git", Mode: ModeDir, Hash: tree}},
		{{Name: "..", Mode: ModeDir, Hash: tree}},
		{{Name: "a/b", Mode: ModeRegular, Hash: blob}},
		{{Name: "a", Mode: 0o100664, Hash: blob}},
		{{Name: "a", Mode: ModeRegular, Hash: "12"}},
		{{Name: "a", Mode: ModeRegular, Hash: blob}, {Name: "a", Mode: ModeRegular, Hash: blob}},
		{{Name: "a", Mode: ModeRegular, Hash: blob}, {Name: "a-b", Mode: ModeRegular, Hash: blob}, {Name: "a", Mode: ModeDir, Hash: tree}},
	} {
		if _, _, err := f.EncodeTree(bad); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
