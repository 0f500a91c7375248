package apply

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/internal/textedit"

	"github.com/graftdev/graft/gitstore/gittest"
	"github.com/graftdev/graft/internal/lineindex"
)

// A big file's hunks are kept in parts (no second copy of its unchanged
// bytes) and land exactly as the joined content would: the bytes on disk,
// the journal's blob, the diff (rendered from the hunks' window only) as
// the diff of the whole contents gives it. The syntax check, the binary sniff
// and a second, sequential edit of the same file see the same content.
func TestBigFileHeldInParts(t *testing.T) {
	var text, code strings.Builder
	for i := 0; text.Len() < partsBytes+4096; i++ {
		fmt.Fprintf(&text, "line %d: value = 0\n", i)
	}
	code.WriteString("package p\n\n")
	for i := 0; code.Len() < partsBytes+4096; i++ {
		fmt.Fprintf(&code, "func f%d() int { return %d }\n", i, i)
	}
	dir := gittest.Repo(t, map[string]string{"big.txt": text.String(), "big.go": code.String()})
	e, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	old := []byte(text.String())

	// One edit near the end and one near the start, in one call.
	tx := e.Begin("replace_in_file", false)
	if err := tx.editString("big.txt", "r[0]", "line 150000: value = 0\n", "line 150000: value = 1\n", false, ""); err != nil {
		t.Fatal(err)
	}
	f := tx.byRel["big.txt"]
	if f.parts == nil || f.cur != nil {
		t.Fatal("a big file's hunks are not held in parts")
	}
	want := bytes.Replace(old, []byte("line 150000: value = 0\n"), []byte("line 150000: value = 1\n"), 1)
	if f.size() != len(want) || !bytes.Equal(f.head(100), want[:100]) || !f.changed() {
		t.Fatal("size, head or changed wrong for parts")
	}
	if got := f.changedBytes(); got != 2 {
		t.Fatalf("changedBytes %d, want 2", got)
	}
	sorted := f.composed.Changes()
	ai, bi := lineindex.New(old), lineindex.New(want)
	wantDiff := unified("a/big.txt", "b/big.txt", ai, bi, editsFromHunks(ai, bi, sorted))
	land, err := tx.Land(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if land.Files[0].Diff != wantDiff || land.Files[0].LineRange != (LineRange{Start: 150001, End: 150001}) {
		t.Fatalf("diff from the window:\n%s\nwant:\n%s\nline range %+v", land.Files[0].Diff, wantDiff, land.Files[0].LineRange)
	}
	checkLanded(t, dir, "big.txt", want)

	// Sequential steps on the same file join the parts and go on.
	tx = e.Begin("multi_edit", false)
	for i, pair := range [][2]string{{"line 10: value = 0\n", "line 10: value = 2\n"}, {"line 10: value = 2\n", "line 10: value = 3\n"}} {
		if err := tx.editString("big.txt", fmt.Sprintf("edits[%d]", i), pair[0], pair[1], false, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tx.Land(ctx, ""); err != nil {
		t.Fatal(err)
	}
	want = bytes.Replace(want, []byte("line 10: value = 0\n"), []byte("line 10: value = 3\n"), 1)
	checkLanded(t, dir, "big.txt", want)

	// The syntax check runs on the joined content of a big file in a
	// language graft checks.
	res, err := e.Call(ctx, "edit", []byte(`{"filePath":"big.go","oldString":"func f70000() int { return 70000 }\n","newString":"func f70000() int { return 70001 }\n"}`))
	if err != nil {
		t.Fatal(err)
	}
	if rep := res.(*Landing).Files[0].Syntax; rep == nil || rep.Language != "go" {
		t.Fatalf("big.go was not syntax-checked: %+v", rep)
	}
	checkLanded(t, dir, "big.go", []byte(strings.Replace(code.String(), "func f70000() int { return 70000 }\n", "func f70000() int { return 70001 }\n", 1)))

	// A NUL put at the start is seen in the head of the parts.
	tx = e.Begin("edit", false)
	if err := tx.editString("big.txt", "", "line 0: value = 0\n", "line 0:\x00\n", false, ""); err != nil {
		t.Fatal(err)
	}
	if r := tx.byRel["big.txt"].result(); !strings.HasPrefix(r.Diff, "Binary files") {
		t.Fatalf("a NUL in the head is not seen: %.80q", r.Diff)
	}
}

// checkLanded checks name's bytes on disk and its blob in the journal.
func checkLanded(t *testing.T, dir, name string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s on disk differs from the expected content (%v)", name, err)
	}
	out, err := exec.Command("git", "-C", dir, "rev-parse", "refs/graft/main:"+name).Output()
	if err != nil {
		t.Fatal(err)
	}
	hash, err := exec.Command("git", "-C", dir, "hash-object", name).Output()
	if err != nil || !bytes.Equal(out, hash) {
		t.Fatalf("%s: journal blob %s, file %s (%v)", name, out, hash, err)
	}
}

// The windowed diff of random hunks is the diff of the whole contents,
// and changed, changedBytes and head agree between parts and the joined
// content.
func TestPartsAgreeWithJoined(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	for round := 0; round < 3000; round++ {
		var old []byte
		for i, n := 0, r.IntN(80); i < n; i++ {
			old = append(old, []byte([]string{"a\n", "b\n", "\n", "c\r\n", "dd"}[r.IntN(5)])...)
		}
		var hunks []textedit.Change
		for at := 0; at < len(old) && r.IntN(3) > 0; {
			start := at + r.IntN(len(old)-at+1)
			end := start + r.IntN(min(len(old)-start, 12)+1)
			hunks = append(hunks, textedit.Change{Start: start, End: end, New: []string{"", "x\n", "y", "z\nw\n", "a\n", "dd"}[r.IntN(6)]})
			at = end + 1 + r.IntN(40)
		}
		if len(hunks) == 0 {
			continue
		}
		parts, err := textedit.Parts(old, hunks)
		if err != nil {
			continue
		}
		cur := joinPieces(parts)
		sorted, _ := textedit.Check(len(old), hunks)
		fa, fb := lineindex.New(old), lineindex.New(cur)
		full := editsFromHunks(fa, fb, sorted)
		want := unified("a", "b", fa, fb, full)
		ws, we := hunkWindow(old, sorted)
		base := bytes.Count(old[:ws], []byte("\n"))
		wa, wb, edits := windowEdits(old, sorted, ws, we, base)
		if got := unifiedAt("a", "b", wa, wb, edits, base); got != want || fmt.Sprint(edits) != fmt.Sprint(full) {
			t.Fatalf("%q %+v:\nwindowed:\n%s\nfull:\n%s", old, hunks, got, want)
		}
		p, j := &TxFile{Exists: true, Old: old, parts: parts}, &TxFile{Exists: true, Old: old, cur: cur}
		if p.changed() != j.changed() || p.changedBytes() != j.changedBytes() || p.size() != len(cur) {
			t.Fatalf("%q %+v: parts say changed %v, %d bytes; joined %v, %d", old, hunks, p.changed(), p.changedBytes(), j.changed(), j.changedBytes())
		}
		if n := r.IntN(len(cur) + 2); !bytes.Equal(p.head(n), cur[:min(n, len(cur))]) {
			t.Fatalf("head(%d) differs", n)
		}
	}
}
