package gitstore

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A write that fails part-way (a full disk; here a file size limit, which
// fails the write the same way after the file was created) leaves no
// temporary file behind: not go-git's tmp_obj_ files in .git/objects, not
// graft's own beside the worktree file, however often the call is retried;
// the file is unchanged and the repository sound.
func TestFailedWriteLeavesNoTemporaryFiles(t *testing.T) {
	if !canLimitFileSize {
		t.Skip("no file size limit here")
	}
	// Text that compresses badly, so that its object is as big as itself.
	var big strings.Builder
	for i := 0; big.Len() < 300<<10; i++ {
		sum := sha256.Sum256([]byte{byte(i), byte(i >> 8)})
		big.WriteString(hex.EncodeToString(sum[:]) + "\n")
	}
	before := big.String()
	dir := newRepo(t, map[string]string{"big.txt": before, "small.txt": "small\n"})
	changes, _ := json.Marshal([]Change{
		{Path: "small.txt", Old: b("small\n"), New: b("SMALL\n")},
		{Path: "big.txt", Old: b(before), New: b(before + "one more line\n")},
	})
	file := filepath.Join(t.TempDir(), "changes.json")
	if err := os.WriteFile(file, changes, 0o644); err != nil {
		t.Fatal(err)
	}
	for try := 0; try < 3; try++ {
		out, err := helper(t, "land", dir, file, "", "GITSTORE_FSIZE=102400")
		if err == nil || killed(err) {
			t.Fatalf("try %d: the call landed under a 100 KB file size limit (err %v):\n%s", try, err, out)
		}
		if !strings.Contains(out, "file too large") {
			t.Fatalf("try %d: not the write failure: %s", try, out)
		}
	}
	var left []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && (strings.HasPrefix(d.Name(), "tmp_obj_") || strings.HasSuffix(d.Name(), ".tmp")) {
			left = append(left, p)
		}
		return nil
	})
	if len(left) > 0 {
		t.Fatalf("temporary files left by the failed writes: %v", left)
	}
	if got := readFile(t, dir, "big.txt"); got != before {
		t.Fatal("big.txt changed")
	}
	if got := readFile(t, dir, "small.txt"); got != "small\n" {
		t.Fatalf("small.txt changed: %q", got)
	}
	fsck(t, dir)
	// Without the limit the same call lands.
	if out, err := helper(t, "land", dir, file, ""); err != nil {
		t.Fatalf("land: %v\n%s", err, out)
	}
	fsck(t, dir)
}
