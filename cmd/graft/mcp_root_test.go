package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/gitstore/gittest"
)

// graft mcp started outside any repository with no directory named (a
// desktop client launching its servers in / or the home directory)
// refuses to start, saying how to name one; with --root or -C it serves
// that directory (issue 32 item 8).
func TestMCPOutsideRepositoryNeedsARoot(t *testing.T) {
	gittest.Isolate(t)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	t.Chdir(dir)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"

	var out, errb bytes.Buffer
	code := Main([]string{"mcp"}, strings.NewReader(init), &out, &errb)
	if code != exitError || out.Len() != 0 {
		t.Errorf("outside a repository without a root: exit %d, stdout %q; want exit %d and no session", code, out.String(), exitError)
	}
	for _, w := range []string{dir + " is not inside a git repository", "--root", `"args": ["mcp", "--root", "/path/to/project"]`} {
		if !strings.Contains(errb.String(), w) {
			t.Errorf("the refusal lacks %q:\n%s", w, errb.String())
		}
	}

	for _, args := range [][]string{{"mcp", "--root", dir}, {"-C", dir, "mcp"}, {"mcp", "-C", "."}} {
		s := startMCPArgs(t, args...)
		res, _ := s.call("edit", map[string]any{"filePath": "a.txt", "oldString": "a", "newString": "b"}, nil)
		if res["isError"] == true {
			t.Errorf("%v: edit refused: %s", args, text(res))
		}
		s.closeWait()
		os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	}
}
