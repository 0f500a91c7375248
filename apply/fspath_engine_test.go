package apply_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
)

// On a file system that folds case (simulated here: the engine is told
// so), the git directory is refused however it is spelled, and the journal
// records a file under the repository's spelling, not the caller's.
func TestCaseFoldingPaths(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "Src", "Main.go"), []byte("package main\n\nfunc main() {}\n"))
	commitAll(t, dir)
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	apply.FoldCase(e)
	call := func(tool string, args map[string]any) (any, error) {
		b, _ := json.Marshal(args)
		return e.Call(context.Background(), tool, b)
	}
	for _, p := range []string{".GIT/config", "Src/../.Git/HEAD", "src/../.git/config", filepath.Join(dir, ".gIt", "HEAD")} {
		if _, err := call("file_read", map[string]any{"path": p}); apply.CodeOf(err) != apply.CodePermission {
			t.Errorf("%s: got %v, want permission denied", p, err)
		}
	}
	outside := filepath.Join(filepath.Dir(dir), strings.ToUpper(filepath.Base(dir))+"2", "x.txt")
	if _, err := call("file_read", map[string]any{"path": outside}); apply.CodeOf(err) != apply.CodePermission {
		t.Errorf("%s: got %v, want permission denied", outside, err)
	}
	res, err := call("edit", map[string]any{"filePath": "SRC/MAIN.GO", "oldString": "func main() {}", "newString": "func main() { println() }"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.(*apply.Landing).Files[0].Path; got != "Src/Main.go" {
		t.Fatalf("result names %q, want the repository's spelling Src/Main.go", got)
	}
	files := git(t, dir, "diff", "--name-only", "main", "refs/graft/main")
	if strings.TrimSpace(files) != "Src/Main.go" {
		t.Fatalf("journal records %q", files)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "Src", "Main.go"))
	if !strings.Contains(string(b), "println") {
		t.Fatalf("not edited: %s", b)
	}
}
