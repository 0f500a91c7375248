package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/gitstore/gittest"
)

// These tests drive `graft mcp` (Main, in process) over pipes with raw
// JSON-RPC lines, as a client would, and read every line it writes.

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type mcpSession struct {
	t      testing.TB
	in     *io.PipeWriter
	lines  chan []byte
	exit   chan int
	stderr *lockedBuffer
	nextID int
}

// gitRepo makes a repository with files committed on main.
func gitRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	return gittest.Repo(t, files)
}

func gitRun(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return gittest.Git(t, dir, args...)
}

// startMCP runs `graft -C dir mcp ARGS` in process and initializes the
// session.
func startMCP(t testing.TB, dir string, args ...string) *mcpSession {
	t.Helper()
	return startMCPArgs(t, append([]string{"-C", dir, "mcp"}, args...)...)
}

// startMCPArgs runs `graft ARGS` in process (ARGS start the server) and
// initializes the session.
func startMCPArgs(t testing.TB, args ...string) *mcpSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &mcpSession{t: t, in: inW, lines: make(chan []byte, 1024), exit: make(chan int, 1), stderr: &lockedBuffer{}, nextID: 100}
	go func() {
		code := Main(args, inR, outW, s.stderr)
		outW.Close()
		s.exit <- code
	}()
	go func() {
		br := bufio.NewReader(outR)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				s.lines <- line
			}
			if err != nil {
				close(s.lines)
				return
			}
		}
	}()
	t.Cleanup(func() { s.in.Close() })
	s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	if r := s.response(1, nil); r["result"] == nil {
		t.Fatalf("initialize failed: %v", r)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *mcpSession) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("writing to the server: %v", err)
	}
}

// next returns the next message the server wrote; every line of stdout
// must be one JSON-RPC message.
func (s *mcpSession) next() map[string]any {
	s.t.Helper()
	select {
	case line, ok := <-s.lines:
		if !ok {
			s.t.Fatalf("server closed stdout; stderr:\n%s", s.stderr)
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil || m["jsonrpc"] != "2.0" {
			s.t.Fatalf("stdout line is not a JSON-RPC message: %q", line)
		}
		return m
	case <-time.After(20 * time.Second):
		s.t.Fatalf("no message from the server in 20s; stderr:\n%s", s.stderr)
	}
	return nil
}

// response reads messages until the response with id (nil for a null id),
// collecting notifications into notes.
func (s *mcpSession) response(id any, notes *[]map[string]any) map[string]any {
	s.t.Helper()
	for {
		m := s.next()
		if _, isResp := m["method"]; isResp {
			if notes != nil {
				*notes = append(*notes, m)
			}
			continue
		}
		got, _ := m["id"].(float64)
		if (id == nil && m["id"] == nil) || (id != nil && got == float64(id.(int))) {
			return m
		}
		s.t.Fatalf("unexpected message while waiting for id %v: %v", id, m)
	}
}

// call sends tools/call and returns the result (failing on a protocol
// error) and the notifications that came before it.
func (s *mcpSession) call(tool string, args any, meta map[string]any) (map[string]any, []map[string]any) {
	s.t.Helper()
	s.nextID++
	params := map[string]any{"name": tool, "arguments": args}
	if meta != nil {
		params["_meta"] = meta
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": s.nextID, "method": "tools/call", "params": params})
	s.send(string(b))
	var notes []map[string]any
	r := s.response(s.nextID, &notes)
	res, ok := r["result"].(map[string]any)
	if !ok {
		s.t.Fatalf("tools/call %s: protocol error %v", tool, r["error"])
	}
	return res, notes
}

// closeWait closes stdin and returns the exit code.
func (s *mcpSession) closeWait() int {
	s.t.Helper()
	s.in.Close()
	for range s.lines { // drain
	}
	select {
	case code := <-s.exit:
		return code
	case <-time.After(20 * time.Second):
		s.t.Fatal("server did not exit after stdin closed")
	}
	return -1
}

func errorOf(t *testing.T, res map[string]any) apply.ErrorJSON {
	t.Helper()
	if res["isError"] != true {
		t.Fatalf("want a tool error, got %v", res)
	}
	content := res["content"].([]any)
	if len(content) != 2 {
		t.Fatalf("want 2 content blocks (summary, JSON), got %d", len(content))
	}
	var j struct {
		Error apply.ErrorJSON `json:"error"`
	}
	if err := json.Unmarshal([]byte(content[1].(map[string]any)["text"].(string)), &j); err != nil {
		t.Fatalf("error JSON: %v", err)
	}
	return j.Error
}

func text(res map[string]any) string {
	var b strings.Builder
	for _, c := range res["content"].([]any) {
		b.WriteString(c.(map[string]any)["text"].(string))
	}
	return b.String()
}

func TestMCPBadInputKeepsServing(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "one\ntwo\n"})
	s := startMCP(t, dir)

	cases := []struct {
		name, line string
		id         any
		code       float64
	}{
		{"malformed JSON", `{"jsonrpc":"2.0","id":2,"method":`, nil, -32700},
		{"not JSON at all", `hello`, nil, -32700},
		{"batch", `[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, nil, -32600},
		{"no version tag", `{"id":4,"method":"ping"}`, 4, -32600},
		{"object id", `{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, nil, -32600},
		{"unknown method", `{"jsonrpc":"2.0","id":5,"method":"no/such"}`, 5, -32601},
		{"unknown tool", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"no_such","arguments":{}}}`, 6, -32602},
		{"params not an object", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":[1,2]}`, 8, -32602},
	}
	for _, c := range cases {
		s.send(c.line)
		r := s.response(c.id, nil)
		e, ok := r["error"].(map[string]any)
		if !ok || e["code"] != c.code {
			t.Errorf("%s: want error code %v, got %v", c.name, c.code, r)
		}
	}

	// Arguments that are not an object, wrong argument types, missing and
	// unknown fields: tool errors a model can read and retry from, with
	// graft's invalid-request code.
	for _, args := range []string{
		`"filePath=a.txt"`,
		`{"filePath":5,"oldString":"one","newString":"1"}`,
		`{"filePath":"a.txt","oldString":"one"}`,
		`{"filePath":"a.txt","oldString":"one","newString":"1","bogus":true}`,
		`{"filePath":"a.txt","oldString":"one","newString":"1","replaceAll":"yes"}`,
	} {
		res, _ := s.call("edit", json.RawMessage(args), nil)
		if e := errorOf(t, res); e.Code != apply.CodeInvalid || e.Message == "" {
			t.Errorf("args %s: want code %d, got %+v", args, apply.CodeInvalid, e)
		}
	}

	// A message over the limit is answered by its id, and nothing of it
	// reaches the engine.
	s.nextID++
	huge := fmt.Sprintf(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"edit","arguments":{"filePath":"a.txt","oldString":"one","newString":"%s"}},"id":%d}`,
		strings.Repeat("x", maxMessageBytes), s.nextID)
	s.send(huge)
	r := s.response(s.nextID, nil)
	if e, ok := r["error"].(map[string]any); !ok || e["code"] != float64(-32600) || !strings.Contains(e["message"].(string), "over the limit") {
		t.Errorf("huge message: got %v", r)
	}

	// Still serving, and the file was never touched.
	res, _ := s.call("edit", map[string]any{"filePath": "a.txt", "oldString": "two", "newString": "2"}, nil)
	if res["isError"] == true {
		t.Fatalf("edit after bad input: %s", text(res))
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "one\n2\n" {
		t.Errorf("a.txt = %q", b)
	}
	if code := s.closeWait(); code != 0 {
		t.Errorf("exit code %d; stderr:\n%s", code, s.stderr)
	}
}

func TestMCPResultsAndErrors(t *testing.T) {
	dir := gitRepo(t, map[string]string{
		"main.go": "package main\n\nfunc main() {\n\tprintln(\"hi\")\n\tprintln(\"hi\")\n}\n",
	})
	s := startMCP(t, dir)

	// Structured content is exactly what `graft call` prints.
	args := map[string]any{"path": "main.go", "start_line": 3, "end_line": 4}
	res, _ := s.call("file_read", args, nil)
	want := callJSON(t, dir, "file_read", args)
	if got, _ := json.Marshal(res["structuredContent"]); !jsonEqual(got, want) {
		t.Errorf("file_read structured content\n got %s\nwant %s", got, want)
	}
	if txt := text(res); !strings.Contains(txt, "3: func main() {\n4: \tprintln(\"hi\")\n") || !strings.Contains(txt, "version ") {
		t.Errorf("file_read text: %q", txt)
	}

	// A refusal: several matches, with the count and candidates.
	res, _ = s.call("edit", map[string]any{"filePath": "main.go", "oldString": "\tprintln(\"hi\")\n", "newString": "\tprintln(\"bye\")\n"}, nil)
	e := errorOf(t, res)
	if e.Code != apply.CodeAmbiguous || e.Count != 2 || e.Path != "main.go" {
		t.Errorf("ambiguous edit: %+v", e)
	}
	if !strings.Contains(text(res), "-32011") {
		t.Errorf("summary line lacks the code: %q", text(res))
	}

	// A landed edit: summary, diff and journal commit in the text.
	res, _ = s.call("edit", map[string]any{"filePath": "main.go", "oldString": "\tprintln(\"hi\")\n}", "newString": "\tprintln(\"bye\")\n}"}, nil)
	if res["isError"] == true {
		t.Fatalf("edit: %s", text(res))
	}
	sc := res["structuredContent"].(map[string]any)
	commit, _ := sc["commit"].(string)
	txt := text(res)
	for _, w := range []string{"edited main.go: +1 -1", "-\tprintln(\"hi\")\n+\tprintln(\"bye\")", "journal commit " + commit} {
		if !strings.Contains(txt, w) {
			t.Errorf("edit text lacks %q:\n%s", w, txt)
		}
	}
	if commit == "" {
		t.Fatalf("no journal commit in %v", sc)
	}
	if got := strings.TrimSpace(gitRun(t, dir, "rev-parse", "refs/graft/main")); got != commit {
		t.Errorf("refs/graft/main = %s, result says %s", got, commit)
	}
	s.closeWait()
}

// callJSON runs `graft call` and returns its stdout.
func callJSON(t *testing.T, dir, tool string, args any) []byte {
	t.Helper()
	b, _ := json.Marshal(args)
	var out, errb bytes.Buffer
	if code := Main([]string{"-C", dir, "call", tool, string(b)}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("graft call %s: exit %d: %s", tool, code, errb.String())
	}
	return out.Bytes()
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

func TestMCPProgress(t *testing.T) {
	files := map[string]string{}
	var edits []map[string]any
	for i := range 5 {
		name := fmt.Sprintf("f%d.txt", i)
		files[name] = "old\n"
		edits = append(edits, map[string]any{"file_path": name, "old_string": "old", "new_string": "new"})
	}
	dir := gitRepo(t, files)
	s := startMCP(t, dir)
	res, notes := s.call("multi_edit", map[string]any{"description": "rename", "edits": edits}, map[string]any{"progressToken": "tok-1"})
	if res["isError"] == true {
		t.Fatalf("multi_edit: %s", text(res))
	}
	if len(notes) < 2 {
		t.Fatalf("want progress notifications before the response, got %d", len(notes))
	}
	last := -1.0
	for _, n := range notes {
		p := n["params"].(map[string]any)
		if n["method"] != "notifications/progress" || p["progressToken"] != "tok-1" {
			t.Fatalf("unexpected notification %v", n)
		}
		v := p["progress"].(float64)
		if v <= last {
			t.Errorf("progress does not increase: %v after %v", v, last)
		}
		if total, ok := p["total"].(float64); ok && total < v {
			t.Errorf("progress %v over total %v", v, total)
		}
		last = v
	}
	// Without a token, no notification.
	_, notes = s.call("edit", map[string]any{"filePath": "f0.txt", "oldString": "new", "newString": "newer"}, nil)
	if len(notes) != 0 {
		t.Errorf("notifications without a progress token: %v", notes)
	}
	s.closeWait()
}

func TestMCPToolSelection(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "a\n"})
	list := func(args ...string) []string {
		s := startMCP(t, dir, args...)
		s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		r := s.response(2, nil)
		var names []string
		for _, tv := range r["result"].(map[string]any)["tools"].([]any) {
			tool := tv.(map[string]any)
			names = append(names, tool["name"].(string))
			if tool["inputSchema"].(map[string]any)["type"] != "object" {
				t.Errorf("%s: input schema is not an object schema", tool["name"])
			}
		}
		s.closeWait()
		slices.Sort(names) // the SDK lists tools by name
		return names
	}
	var all, readOnly []string
	for _, tool := range apply.Tools() {
		all = append(all, tool.Name)
		if tool.ReadOnly {
			readOnly = append(readOnly, tool.Name)
		}
	}
	slices.Sort(all)
	slices.Sort(readOnly)
	if got := list("--tools", "all"); !slices.Equal(got, all) {
		t.Errorf("--tools all = %v, want the registry %v", got, all)
	}
	if got := list(); !slices.Equal(got, []string{"apply_patch", "edit", "edit_lines", "file_read", "multi_edit", "undo"}) {
		t.Errorf("default tools = %v", got)
	}
	if got := list("--tools", "journal,file_read"); !slices.Equal(got, []string{"diff", "file_read", "history", "redo", "undo"}) {
		t.Errorf("--tools journal,file_read = %v", got)
	}
	if got := list("--read-only"); !slices.Equal(got, readOnly) || !slices.Contains(got, "file_read") {
		t.Errorf("--read-only tools = %v, want %v", got, readOnly)
	}
	if got := list("--tools", "edit_lines,file_read"); !slices.Equal(got, []string{"edit_lines", "file_read"}) {
		t.Errorf("--tools subset = %v", got)
	}
	if got := list("--tools", "notebooks"); !slices.Equal(got, []string{"apply_patch", "edit", "edit_lines", "file_read", "multi_edit", "notebook_edit", "undo"}) {
		t.Errorf("--tools notebooks = %v", got)
	}

	for _, args := range [][]string{{"--tools", "nope"}, {"--read-only", "--tools", "edit"}, {"extra"}, {"--token-file", "x"}, {"--http", "0.0.0.0:0"}, {"--http", "nonsense"}} {
		var out, errb bytes.Buffer
		code := Main(append([]string{"-C", dir, "mcp"}, args...), strings.NewReader(""), &out, &errb)
		if code != exitError || out.Len() != 0 || errb.Len() == 0 {
			t.Errorf("mcp %v: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
}

// A client may write its requests and close stdin at once: every request
// is still answered before the server exits 0, and nothing but protocol
// reaches stdout.
func TestMCPStdinClosedAnswersPending(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "secret-alpha\n"})
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"edit","arguments":{"filePath":"a.txt","oldString":"alpha","newString":"beta"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"file_read","arguments":{"path":"a.txt"}}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	errb := &lockedBuffer{}
	done := make(chan int, 1)
	go func() { done <- Main([]string{"-v", "-C", dir, "mcp"}, strings.NewReader(in), &out, errb) }()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errb)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server did not exit at the end of stdin")
	}
	ids := map[float64]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Fatalf("stdout line is not JSON-RPC: %q", line)
		}
		if id, ok := m["id"].(float64); ok {
			ids[id] = true
		}
	}
	for _, id := range []float64{1, 2, 3} {
		if !ids[id] {
			t.Errorf("no response to request %v; stdout:\n%s", id, out.String())
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "secret-beta\n" {
		t.Errorf("a.txt = %q", b)
	}
	if !strings.Contains(errb.String(), "mcp: call") {
		t.Errorf("-v logs no calls on stderr: %q", errb)
	}
	// A marker no log line can contain by chance (a hash ending in "a"
	// followed by a newline once made a bare "a\n" check flaky).
	if strings.Contains(errb.String(), "secret-") {
		t.Errorf("logs hold file contents: %q", errb)
	}
}

func TestIDScanner(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":42,"method":"x"}`, "42"},
		{`{"method":"x","params":{"id":1,"s":"\"id\":9"},"id":"abc"}`, `"abc"`},
		{`{"params":{"arguments":{"id":5}},"id": 7 }`, "7"},
		{`{"a":"}{,","id":-3}`, "-3"},
		{`{"ids":1,"id":{"x":1}}`, ""},
		{`{"params":{"id":1}}`, ""},
		{`[{"id":1}]`, ""},
	} {
		// Feed in small chunks, as a stream arrives.
		s := &idScanner{}
		for i := 0; i < len(c.in); i += 3 {
			s.feed([]byte(c.in[i:min(i+3, len(c.in))]))
		}
		if got := string(s.id()); got != c.want {
			t.Errorf("%s: id %q, want %q", c.in, got, c.want)
		}
	}
}

// Tool calls sent back to back, without waiting, run in the order they
// were sent: each edit here only fits after the one before it.
func TestMCPCallsRunInArrivalOrder(t *testing.T) {
	dir := gitRepo(t, map[string]string{"count.txt": "count: 0\n"})
	s := startMCP(t, dir)
	const n = 30
	for i := range n {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1000 + i, "method": "tools/call", "params": map[string]any{
			"name": "edit", "arguments": map[string]any{"filePath": "count.txt", "oldString": fmt.Sprintf("count: %d\n", i), "newString": fmt.Sprintf("count: %d\n", i+1)}}})
		s.send(string(b))
	}
	for range n {
		m := s.next()
		res, _ := m["result"].(map[string]any)
		if res == nil || res["isError"] == true {
			t.Errorf("call %v failed: %v", m["id"], m)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "count.txt")); string(b) != fmt.Sprintf("count: %d\n", n) {
		t.Errorf("count.txt = %q", b)
	}
	s.closeWait()
}

// BenchmarkMCPEdit times one edit call through a server session against
// the same edit through the engine directly, in the same run: the
// difference is what MCP (JSON-RPC encoding, pipes, the summary) costs.
func BenchmarkMCPEdit(b *testing.B) {
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("d%d/f%d.go", i%10, i)] = fmt.Sprintf("package d\n\nfunc F%d() int {\n\treturn 0\n}\n", i)
	}
	edit := func(k int) map[string]any {
		// Alternate between two values so that every call changes the file.
		return map[string]any{"filePath": fmt.Sprintf("d%d/f%d.go", k%200%10, k%200),
			"oldString": fmt.Sprintf("\treturn %d\n", k/200%2), "newString": fmt.Sprintf("\treturn %d\n", 1-k/200%2)}
	}
	b.Run("mcp", func(b *testing.B) {
		s := startMCP(b, gitRepo(b, files))
		b.ResetTimer()
		for k := 0; k < b.N; k++ {
			res, _ := s.call("edit", edit(k), nil)
			if res["isError"] == true {
				b.Fatalf("edit refused: %s", text(res))
			}
		}
		b.StopTimer()
		s.closeWait()
	})
	b.Run("engine", func(b *testing.B) {
		e, err := apply.Open(apply.Options{Dir: gitRepo(b, files)})
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for k := 0; k < b.N; k++ {
			args, _ := json.Marshal(edit(k))
			if _, err := e.Call(context.Background(), "edit", args); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestSummarize(t *testing.T) {
	for _, c := range []struct {
		tool, json string
		want       []string
	}{
		{"edit", `{"success":true,"dry_run":true,"files":[{"path":"a.go","diff":"--- a/a.go\n+++ b/a.go\n","additions":1,"deletions":2,"line_range":{"start":3,"end":4},"hunks":[{"line":3,"end_line":4,"located":"indentation","similarity":0.9}]}]}`,
			[]string{"dry run, nothing written:\nwould edit a.go: +1 -2, lines 3-4 [located by indentation at line 3, similarity 0.90]", "\n--- a/a.go\n+++ b/a.go\n"}},
		{"multi_edit", `{"success":false,"files":[{"path":"b.txt","diff":"","additions":0,"deletions":0,"created":true}],"results":[{"file_path":"c.txt","success":false,"error":"c.txt: text not found"}],"commit":"abc"}`,
			[]string{"created b.txt: +0 -0", "failed c.txt: c.txt: text not found\n", "journal commit abc\n"}},
		{"undo", `{"success":true,"commit":"c1","entries":["0123456789abcdef"],"files":["a.go"],"diff":"diff --git a/a.go b/a.go\n"}`,
			[]string{"undo: 0123456789ab (a.go)\n", "journal commit c1\n\ndiff --git"}},
		{"history", `{"journal":"refs/graft/main","entries":[{"id":"0123456789abcdef","time":"T","tool":"edit","message":"edit: a.go (+1 -0)","additions":1,"deletions":0}]}`,
			[]string{"0123456789ab T edit: a.go (+1 -0)\n"}},
		{"diff", `{"diff":""}`, []string{"no changes"}},
		{"multi_edit", `{"success":true,"files":[{"path":"a.go","diff":"","additions":1,"deletions":1}],"unchanged":[{"edit":"edits[1]","path":"a.go","line":7,"end_line":7,"note":"unchanged: old and new are identical"}]}`,
			[]string{"edits[1] a.go line 7: unchanged: old and new are identical\n"}},
		{"edit_symbol", `{"success":true,"files":[{"path":"s.py","diff":"","additions":1,"deletions":1,"hunks":[{"line":2,"end_line":3,"located":"symbol","similarity":1,"symbol":"shlex.pop_source"}]}]}`,
			[]string{"edited s.py: +1 -1 [symbol: shlex.pop_source]"}},
		{"other", `{"x":1}`, []string{`"x": 1`}},
	} {
		got := summarize(c.tool, []byte(c.json))
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: summary lacks %q:\n%s", c.tool, w, got)
			}
		}
	}
}

// initialize answers with the client's protocol version when graft
// speaks it, and with its newest otherwise.
func TestMCPVersionNegotiation(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "a\n"})
	for _, c := range []struct{ asked, want string }{
		{"2024-11-05", "2024-11-05"},
		{"2025-03-26", "2025-03-26"},
		{"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"},
		{"2099-01-01", ""}, // the SDK's newest
	} {
		in := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n", c.asked)
		var out bytes.Buffer
		if code := Main([]string{"-C", dir, "mcp"}, strings.NewReader(in), &out, io.Discard); code != 0 {
			t.Fatalf("exit %d", code)
		}
		var r map[string]any
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("asked %s: %q", c.asked, out.String())
		}
		res, _ := r["result"].(map[string]any)
		if v, _ := res["protocolVersion"].(string); res == nil || (c.want != "" && v != c.want) || (c.want == "" && v < "2025-11-25") {
			t.Errorf("asked %s: got %v, want %s", c.asked, r, c.want)
			continue
		}
		caps, _ := res["capabilities"].(map[string]any)
		if _, ok := caps["tools"]; !ok || len(caps) != 1 {
			t.Errorf("capabilities %v, want tools only", caps)
		}
		if info, _ := res["serverInfo"].(map[string]any); info["name"] != "graft" || info["version"] == "" {
			t.Errorf("serverInfo %v", res["serverInfo"])
		}
	}
	// A response from the client is ignored; a ping is answered.
	s := startMCP(t, dir)
	s.send(`{"jsonrpc":"2.0","id":77,"result":{}}`)
	s.send(`{"jsonrpc":"2.0","id":78,"method":"ping"}`)
	if r := s.response(78, nil); r["result"] == nil {
		t.Errorf("ping: %v", r)
	}
	s.closeWait()
}

// A call cancelled while it waits its turn never runs and, as MCP asks,
// gets no response; the calls before and after it are answered.
func TestMCPCancelledCallNeverRuns(t *testing.T) {
	dir := gitRepo(t, map[string]string{"count.txt": "count: 0\n"})
	s := startMCP(t, dir)
	const n = 20
	var lines []string
	for i := range n {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1000 + i, "method": "tools/call", "params": map[string]any{
			"name": "edit", "arguments": map[string]any{"filePath": "count.txt", "oldString": fmt.Sprintf("count: %d\n", i), "newString": fmt.Sprintf("count: %d\n", i+1)}}})
		lines = append(lines, string(b))
	}
	// One write: the cancellation is read long before the last edit's
	// turn comes (each edit takes milliseconds).
	lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d,"reason":"test"}}`, 1000+n-1))
	s.send(strings.Join(lines, "\n"))
	for i := 0; i < n-1; i++ {
		m := s.next()
		if id, _ := m["id"].(float64); id != float64(1000+i) {
			t.Fatalf("response %d: got %v", i, m)
		}
	}
	// Calls run in order, so a response to the cancelled call would come
	// before this one's.
	s.nextID = 5000
	res, _ := s.call("file_read", map[string]any{"path": "count.txt"}, nil)
	if res["isError"] == true {
		t.Fatalf("file_read: %s", text(res))
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "count.txt")); string(b) != fmt.Sprintf("count: %d\n", n-1) {
		t.Errorf("count.txt = %q, want the cancelled edit not landed", b)
	}
	s.closeWait()
}

// BenchmarkMCPSessionHeap makes b.N edits through one server session and
// reports the heap in use after garbage collection at half the calls and
// at the end: a session's memory must stay flat however long it runs.
// Run it with a fixed count, for example -benchtime 6000x.
func BenchmarkMCPSessionHeap(b *testing.B) {
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("d%d/f%d.go", i%10, i)] = fmt.Sprintf("package d\n\nfunc F%d() int {\n\treturn 0\n}\n", i)
	}
	s := startMCP(b, gitRepo(b, files))
	heap := func() float64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapInuse) / (1 << 20)
	}
	var half float64
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		i := k % 20
		args := map[string]any{"filePath": fmt.Sprintf("d%d/f%d.go", i%10, i),
			"oldString": fmt.Sprintf("\treturn %d\n", k/20), "newString": fmt.Sprintf("\treturn %d\n", k/20+1)}
		if res, _ := s.call("edit", args, nil); res["isError"] == true {
			b.Fatalf("edit %d: %s", k, text(res))
		}
		if k == b.N/2 {
			b.StopTimer()
			half = heap()
			b.StartTimer()
		}
	}
	b.StopTimer()
	b.ReportMetric(half, "heap-MiB-half")
	b.ReportMetric(heap(), "heap-MiB-end")
	s.closeWait()
}

// The server's instructions name only the tools it serves: the default set
// has no replace_in_file, and it has apply_patch, which they must mention.
func TestMCPInstructionsNameServedTools(t *testing.T) {
	def, err := selectTools(apply.Tools(), []string{"default"}, false)
	if err != nil {
		t.Fatal(err)
	}
	in := instructions(def)
	if strings.Contains(in, "replace_in_file") || !strings.Contains(in, "edit_lines") || !strings.Contains(in, "apply_patch") {
		t.Errorf("default instructions:\n%s", in)
	}
	lines, err := selectTools(apply.Tools(), []string{"lines"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if in := instructions(lines); !strings.Contains(in, "edit_lines, replace_in_file") || strings.Contains(in, "apply_patch") {
		t.Errorf("lines instructions:\n%s", in)
	}
}
