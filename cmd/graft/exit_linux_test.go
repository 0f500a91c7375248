//go:build linux

package main

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/gitstore/gittest"
)

// The same on a real full disk: a 1 MiB tmpfs (Linux, as root; skipped
// elsewhere) and an edit bigger than the room left.
func TestDiskFullOnATinyFileSystem(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs")
	}
	mnt := filepath.Join(t.TempDir(), "full")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m"); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, syscall.MNT_DETACH) })
	gittest.Isolate(t)
	gittest.Git(t, mnt, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(mnt, "a.txt"), []byte("a\n"), 0o644)
	gittest.Git(t, mnt, "add", ".")
	gittest.Git(t, mnt, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", "i")
	noise := make([]byte, 900<<10)
	rand.Read(noise)
	args, _ := json.Marshal(map[string]any{"command": "insert", "path": "a.txt", "insert_line": 0, "new_content": base64.StdEncoding.EncodeToString(noise)})
	argFile := filepath.Join(t.TempDir(), "args.json")
	os.WriteFile(argFile, args, 0o644)
	var out, errb bytes.Buffer
	code := Main([]string{"-C", mnt, "call", "edit_lines", "@" + argFile}, strings.NewReader(""), &out, &errb)
	var res struct{ Error apply.ErrorJSON }
	_ = json.Unmarshal(out.Bytes(), &res)
	if code != exitRefused || res.Error.Code != apply.CodeIO || !strings.Contains(res.Error.Message, "no space left") {
		t.Errorf("disk full: exit %d, code %d, want %d and %d: %s", code, res.Error.Code, exitRefused, apply.CodeIO, errb.String())
	}
	if b, _ := os.ReadFile(filepath.Join(mnt, "a.txt")); string(b) != "a\n" {
		t.Errorf("a.txt changed: %d bytes", len(b))
	}
}
