package apply_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
)

const primes = `def is_prime(n):
    if n < 2:
        return False
    for i in range(2, int(n ** 0.5) + 1):
        if n % i == 0:
            return False
    return True


def get_primes(limit):
    primes = []
    for num in range(2, limit + 1)
        if is_prime(num):
            primes.append(num)
    return primes
`

// Anthropic's text editor tool, driven with the payloads of its
// documentation (view, str_replace, create, insert with new_str) and as
// real calls send them (insert_text, view_range to -1, absolute paths).
func TestTextEditorTool(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "primes.py"), []byte(primes))
	writeFile(t, filepath.Join(dir, "pkg", "sub", "deep", "x.txt"), []byte("x\n"))
	writeFile(t, filepath.Join(dir, ".hidden", "h.txt"), []byte("h\n"))
	commitAll(t, dir)
	read := func() string {
		b, _ := os.ReadFile(filepath.Join(dir, "primes.py"))
		return string(b)
	}
	out := func(res any) string {
		t.Helper()
		r, ok := res.(*apply.TextEditorResult)
		if !ok {
			t.Fatalf("result %T", res)
		}
		return r.Output
	}

	res, err := call(t, dir, "str_replace_based_edit_tool", map[string]any{"command": "view", "path": "primes.py"})
	if err != nil || !strings.HasPrefix(out(res), "     1\tdef is_prime(n):\n") || !strings.Contains(out(res), "    15\t    return primes\n") {
		t.Fatalf("view: %v %q", err, out(res))
	}
	res, err = call(t, dir, "str_replace_based_edit_tool", map[string]any{"command": "view", "path": filepath.Join(dir, "primes.py"), "view_range": []int{11, -1}})
	if err != nil || !strings.HasPrefix(out(res), "    11\t") || strings.Count(out(res), "\n") != 5 {
		t.Fatalf("view_range to -1: %v %q", err, out(res))
	}
	if _, err := call(t, dir, "str_replace_based_edit_tool", map[string]any{"command": "view", "path": "primes.py", "view_range": []int{20, 30}}); apply.CodeOf(err) != apply.CodeInvalid {
		t.Fatalf("view_range past the end: %v", err)
	}
	res, err = call(t, dir, "str_replace_based_edit_tool", map[string]any{"command": "view", "path": dir})
	if err != nil || !strings.Contains(out(res), filepath.Join(dir, "pkg", "sub")+"\n") ||
		strings.Contains(out(res), "x.txt") || strings.Contains(out(res), ".hidden") || strings.Contains(out(res), "/.git") {
		t.Fatalf("directory view: %v %q", err, out(res))
	}

	// The documentation's str_replace: the missing colon.
	if _, err := call(t, dir, "str_replace_based_edit_tool", map[string]any{"command": "str_replace", "path": "primes.py",
		"old_str": "for num in range(2, limit + 1)", "new_str": "for num in range(2, limit + 1):"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(read(), "for num in range(2, limit + 1):\n") {
		t.Fatalf("str_replace did not land:\n%s", read())
	}
	// The fuzzy fallback: old_str sent with tabs where the file has spaces.
	if _, err := call(t, dir, "str_replace_based_edit_tool", map[string]any{"command": "str_replace", "path": "primes.py",
		"old_str": "\tprimes = []\n", "new_str": "\tprimes: list[int] = []\n"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(read(), "\n    primes: list[int] = []\n") {
		t.Fatalf("fuzzy str_replace:\n%s", read())
	}
	// insert as documented (new_str) and as real calls send it (insert_text).
	if _, err := call(t, dir, "str_replace_based_edit_tool", map[string]any{"command": "insert", "path": "primes.py",
		"insert_line": 0, "new_str": `"""Prime numbers."""`}); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, dir, "str_replace_based_edit_tool", map[string]any{"command": "insert", "path": "primes.py",
		"insert_line": 1, "insert_text": "import math\n"}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(read(), "\"\"\"Prime numbers.\"\"\"\nimport math\ndef is_prime(n):\n") {
		t.Fatalf("insert:\n%s", read())
	}
	// create: a new file lands; an existing one is refused, as the
	// reference implementation refuses it.
	if _, err := call(t, dir, "str_replace_based_edit_tool", map[string]any{"command": "create", "path": "test_primes.py",
		"file_text": "from primes import is_prime\n\nassert is_prime(7)\n"}); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, dir, "str_replace_based_edit_tool", map[string]any{"command": "create", "path": "primes.py", "file_text": "x"}); apply.CodeOf(err) != apply.CodeInvalid || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("create over a file: %v", err)
	}
	// undo_edit is the older tool's only.
	if _, err := call(t, dir, "str_replace_based_edit_tool", map[string]any{"command": "undo_edit", "path": "primes.py"}); apply.CodeOf(err) != apply.CodeInvalid {
		t.Fatalf("undo_edit on the new tool: %v", err)
	}
	// The last edit created test_primes.py: undo_edit of primes.py
	// reverts primes.py's last edit (the insert) under it, three-way,
	// and leaves test_primes.py; then undo_edit of test_primes.py
	// reverts its creation.
	if _, err := call(t, dir, "str_replace_editor", map[string]any{"command": "undo_edit", "path": "primes.py"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(read(), "import math") || !strings.HasPrefix(read(), `"""Prime numbers."""`) {
		t.Fatalf("undo_edit of the insert:\n%s", read())
	}
	if _, err := os.Stat(filepath.Join(dir, "test_primes.py")); err != nil {
		t.Fatalf("undo_edit of primes.py touched test_primes.py: %v", err)
	}
	if _, err := call(t, dir, "str_replace_editor", map[string]any{"command": "undo_edit", "path": "test_primes.py"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "test_primes.py")); !os.IsNotExist(err) {
		t.Fatalf("undo_edit left the created file: %v", err)
	}
	if _, err := call(t, dir, "str_replace_editor", map[string]any{"command": "undo_edit", "path": "test_primes.py"}); apply.CodeOf(err) != apply.CodeInvalid || !strings.Contains(err.Error(), "no edit of test_primes.py") {
		t.Fatalf("a second undo_edit of test_primes.py: %v", err)
	}
}

// OpenAI's Responses API apply_patch call: its operations as the API
// emits them, landed all or none as one call, answered with the outputs
// the API expects back.
func TestResponsesApplyPatch(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, "lib", "fib.py"), []byte("def fib(n):\n    if n in (0, 1):\n        return n\n    return fib(n-1) + fib(n-2)\n"))
	writeFile(t, filepath.Join(dir, "old.txt"), []byte("gone\n"))
	commitAll(t, dir)
	res, err := call(t, dir, "apply_patch", map[string]any{
		"type": "apply_patch_call", "id": "apc_08f3", "call_id": "call_Rjsqz", "status": "completed",
		"operation": map[string]any{"type": "update_file", "path": "lib/fib.py",
			"diff": "@@\n-def fib(n):\n+def fibonacci(n):\n     if n in (0, 1):\n         return n\n-    return fib(n-1) + fib(n-2)\n+    return fibonacci(n-1) + fibonacci(n-2)\n"},
		"operations": []any{
			map[string]any{"type": "create_file", "path": "lib/__init__.py", "diff": "+from .fib import fibonacci\n"},
			map[string]any{"type": "delete_file", "path": "old.txt"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := res.(*apply.ApplyPatchResult)
	if len(r.CallOutputs) != 3 || r.CallOutputs[0].CallID != "call_Rjsqz" || r.CallOutputs[0].Status != "completed" || r.CallOutputs[0].Type != "apply_patch_call_output" {
		t.Fatalf("call outputs: %+v", r.CallOutputs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "lib", "fib.py")); !strings.Contains(string(b), "return fibonacci(n-1) + fibonacci(n-2)\n") {
		t.Fatalf("update_file: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "lib", "__init__.py")); string(b) != "from .fib import fibonacci\n" {
		t.Fatalf("create_file: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "old.txt")); !os.IsNotExist(err) {
		t.Fatal("delete_file left the file")
	}
	// All or none: an operation that does not fit refuses the call, and
	// the create before it is not made.
	_, err = call(t, dir, "apply_patch", map[string]any{"call_id": "call_2", "operations": []any{
		map[string]any{"type": "create_file", "path": "new.py", "diff": "+x = 1\n"},
		map[string]any{"type": "update_file", "path": "lib/fib.py", "diff": "@@\n-not in the file\n+y\n"},
	}})
	if apply.CodeOf(err) != apply.CodeConflict {
		t.Fatalf("a hunk that does not fit: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.py")); !os.IsNotExist(err) {
		t.Fatal("a refused call created a file")
	}
	if _, err := call(t, dir, "apply_patch", map[string]any{"operation": map[string]any{"type": "rename_file", "path": "a"}}); apply.CodeOf(err) != apply.CodeInvalid {
		t.Fatalf("unknown operation type: %v", err)
	}
}
