package apply

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/gitstore/gittest"
)

// BenchmarkFileOutline runs file_outline through the engine on a real
// 128 KB Go file (net/http/server.go of the toolchain) and Python file
// (CPython 3.11.7's typing.py): parsed each time (cold), and repeated on
// the unchanged file, served from the engine's cache by blob id (cached).
func BenchmarkFileOutline(b *testing.B) {
	for _, src := range []string{
		filepath.Join(goroot(), "src", "net", "http", "server.go"),
		"/root/.pyenv/versions/3.11.7/lib/python3.11/typing.py",
	} {
		content, err := os.ReadFile(src)
		if err != nil {
			b.Logf("skipped: %v", err)
			continue
		}
		name := filepath.Base(src)
		dir := gittest.Repo(b, map[string]string{name: string(content)})
		e, err := Open(Options{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		args, _ := json.Marshal(map[string]any{"path": name})
		run := func(b *testing.B) {
			if _, err := e.Call(context.Background(), "file_outline", args); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(name+"/cold", func(b *testing.B) {
			b.SetBytes(int64(len(content)))
			for b.Loop() {
				e.outlines.reset()
				run(b)
			}
		})
		b.Run(name+"/cached", func(b *testing.B) {
			b.SetBytes(int64(len(content)))
			run(b)
			for b.Loop() {
				run(b)
			}
		})
	}
}

// goroot is the GOROOT of the go command on the PATH.
func goroot() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func TestOutlineCacheBounded(t *testing.T) {
	var c outlineCache
	for i := range outlineCacheSize + 10 {
		c.put(string(rune('a'+i)), &cachedOutline{size: 1})
	}
	if len(c.byKey) != outlineCacheSize || c.bytes != outlineCacheSize {
		t.Errorf("%d entries, %d bytes; want %d", len(c.byKey), c.bytes, outlineCacheSize)
	}
	if c.get("a") != nil || c.get(string(rune('a'+outlineCacheSize+9))) == nil {
		t.Error("not the oldest evicted")
	}
	c.put("big", &cachedOutline{size: outlineCacheBytes - 10})
	c.put("big2", &cachedOutline{size: 20})
	if c.get("big") != nil || c.get("big2") == nil || c.bytes > outlineCacheBytes {
		t.Errorf("byte bound not kept: %d bytes", c.bytes)
	}
}
