package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/gitstore"
	"github.com/graftdev/graft/gitstore/gittest"
)

// graft land and status on a repository whose lock another process holds
// are refusals (exit 1, a conflict), as every tool's call is: their
// errors go through the same classification as the tools'.
func TestHeldLockExitsOne(t *testing.T) {
	dir := gittest.Repo(t, map[string]string{"a.txt": "a\n"})
	run := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := Main(append([]string{"-C", dir}, args...), strings.NewReader(""), &out, &errb)
		return code, errb.String()
	}
	if code, stderr := run("edit", "a.txt", "--old", "a", "--new", "b"); code != exitApplied {
		t.Fatalf("edit: exit %d: %s", code, stderr)
	}
	t.Setenv("GRAFT_LOCK_TIMEOUT", "50ms")
	holder, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	err = holder.WithLock(func() error {
		for _, args := range [][]string{
			{"land", "-m", "x"},
			{"edit", "a.txt", "--old", "b", "--new", "c"},
			{"undo"},
		} {
			code, stderr := run(args...)
			if code != exitRefused || !strings.Contains(stderr, "locked by another graft process") {
				t.Errorf("%s with the lock held: exit %d, want %d: %s", args[0], code, exitRefused, stderr)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if code, stderr := run("land", "-m", "x"); code != exitApplied {
		t.Fatalf("land once free: exit %d: %s", code, stderr)
	}
	if code, stderr := run("land", "-m", "again"); code != exitRefused || !strings.Contains(stderr, "nothing to land") {
		t.Fatalf("land of an empty journal: exit %d: %s", code, stderr)
	}
}

// A non-atomic multi_edit that lands some edits and not others exits 3,
// partly applied, and its result says which edits landed and which did
// not; one that lands none is a refusal (exit 1) like any other.
func TestPartlyAppliedExitsThree(t *testing.T) {
	dir := gittest.Repo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	call := func(args string) (int, map[string]any, string) {
		var out, errb bytes.Buffer
		code := Main([]string{"-C", dir, "call", "multi_edit", args}, strings.NewReader(""), &out, &errb)
		var m map[string]any
		_ = json.Unmarshal(out.Bytes(), &m)
		return code, m, errb.String()
	}
	code, res, stderr := call(`{"description":"d","atomic":false,"edits":[{"file_path":"a.txt","old_string":"a","new_string":"A"},{"file_path":"b.txt","old_string":"nope","new_string":"x"}]}`)
	if code != exitPartial || !strings.Contains(stderr, "partly applied") {
		t.Fatalf("partial: exit %d, want %d: %s", code, exitPartial, stderr)
	}
	if res["partial"] != true || res["success"] != false || !strings.Contains(fmt.Sprint(res["error"]), "(edits[1]); edits[0] landed") {
		t.Errorf("partial result does not say what landed: %v", res)
	}
	rs, _ := res["results"].([]any)
	if len(rs) != 2 || rs[0].(map[string]any)["edit"] != "edits[0]" || rs[0].(map[string]any)["success"] != true ||
		rs[1].(map[string]any)["edit"] != "edits[1]" || rs[1].(map[string]any)["success"] != false {
		t.Errorf("results: %v", rs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "A\n" {
		t.Errorf("a.txt = %q, want the landed edit", b)
	}
	code, _, stderr = call(`{"description":"d","atomic":false,"edits":[{"file_path":"a.txt","old_string":"nope","new_string":"x"},{"file_path":"b.txt","old_string":"nope","new_string":"x"}]}`)
	if code != exitRefused {
		t.Errorf("nothing landed: exit %d, want %d: %s", code, exitRefused, stderr)
	}
}

// graft land on a detached HEAD is a refusal (exit 1), not an internal
// error: it needs a branch.
func TestLandDetachedExitsOne(t *testing.T) {
	dir := gittest.Repo(t, map[string]string{"a.txt": "a\n"})
	gittest.Git(t, dir, "checkout", "-q", "--detach")
	var out, errb bytes.Buffer
	if code := Main([]string{"-C", dir, "edit", "a.txt", "--old", "a", "--new", "b"}, strings.NewReader(""), &out, &errb); code != exitApplied {
		t.Fatalf("edit: exit %d: %s", code, errb.String())
	}
	errb.Reset()
	code := Main([]string{"-C", dir, "land", "-m", "x"}, strings.NewReader(""), &out, &errb)
	if code != exitRefused || !strings.Contains(errb.String(), "HEAD is detached") {
		t.Errorf("land on a detached HEAD: exit %d, want %d: %s", code, exitRefused, errb.String())
	}
}

// A path with a name ".git" in any case is refused as git's own (-32002),
// on every file system: git stores no such path.
func TestGitNameInAnyCaseIsPermissionDenied(t *testing.T) {
	dir := gittest.Repo(t, map[string]string{"a.txt": "a\n"})
	if err := os.MkdirAll(filepath.Join(dir, ".GIT"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".GIT", "config"), []byte("x\n"), 0o644)
	for _, p := range []string{".git/config", ".GIT/config", "sub/.Git/config", ".GIT/new.txt"} {
		var out, errb bytes.Buffer
		code := Main([]string{"-C", dir, "call", "edit", fmt.Sprintf(`{"filePath":%q,"oldString":"","newString":"y"}`, p)}, strings.NewReader(""), &out, &errb)
		var res struct{ Error apply.ErrorJSON }
		_ = json.Unmarshal(out.Bytes(), &res)
		if code != exitRefused || res.Error.Code != apply.CodePermission {
			t.Errorf("%s: exit %d, code %d, want %d and %d: %s", p, code, res.Error.Code, exitRefused, apply.CodePermission, errb.String())
		}
	}
}

// A disk that fails a write (full, over quota) is an I/O error of its own
// (-32015) and a refusal, exit 1: the call rolled back and nothing
// changed. It is not an internal error.
func TestDiskFullExitsOne(t *testing.T) {
	err := &apply.Error{Code: apply.CodeInternal, Path: "a.txt", Err: fmt.Errorf("object 1234: %w", &os.PathError{Op: "write", Path: "x", Err: diskFullErrno})}
	if c := apply.CodeOf(err); c != apply.CodeIO {
		t.Errorf("ENOSPC: code %d, want %d", c, apply.CodeIO)
	}
	if c := exitCode(err); c != exitRefused {
		t.Errorf("ENOSPC: exit %d, want %d", c, exitRefused)
	}
	if c := exitCode(&apply.Error{Code: apply.CodeInternal, Msg: "a bug"}); c != exitError {
		t.Errorf("an internal error: exit %d, want %d", c, exitError)
	}
}

// diskFullErrno is how the platform says a disk is full.
var diskFullErrno = func() error {
	if runtime.GOOS == "windows" {
		return syscall.Errno(112) // ERROR_DISK_FULL
	}
	return syscall.ENOSPC
}()

// graft call runs notebook_edit like any tool.
func TestCallNotebookEdit(t *testing.T) {
	nb := "{\n \"cells\": [\n  {\n   \"cell_type\": \"markdown\",\n   \"metadata\": {},\n   \"source\": [\n    \"old\"\n   ]\n  }\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 4\n}\n"
	dir := gittest.Repo(t, map[string]string{"n.ipynb": nb})
	var out, errb bytes.Buffer
	code := Main([]string{"-C", dir, "call", "notebook_edit", `{"notebook_path":"n.ipynb","cell_number":0,"new_source":"new"}`}, strings.NewReader(""), &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got, _ := os.ReadFile(filepath.Join(dir, "n.ipynb"))
	if want := strings.Replace(nb, `"old"`, `"new"`, 1); string(got) != want {
		t.Errorf("notebook:\n%s", got)
	}
}
