package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// graftCLI runs graft in process and returns its exit code, stdout and
// stderr.
func graftCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// Two MCP clients with different clientInfo names on one HTTP server, and
// a CLI writer with --agent, interleave edits on a shared file and their
// own; then the log filters, each one's undo (the others' later edits
// stay), an overlapping undo refused with its diff, redo in scope, and
// diff --agent.
func TestAttributionTwoClientsAndCLI(t *testing.T) {
	t.Setenv("GRAFT_AGENT", "")
	t.Setenv("GRAFT_SESSION", "")
	shared := "s01\ns02\ns03\ns04\ns05\ns06\ns07\ns08\ns09\ns10\ns11\ns12\n"
	dir := gitRepo(t, map[string]string{"shared.txt": shared, "alpha.txt": "a\n", "beta.txt": "b\n"})
	tools, err := selectTools(apply.Tools(), []string{"all"}, false)
	if err != nil {
		t.Fatal(err)
	}
	srv := &mcpServer{tools: tools, log: slog.New(slog.NewTextHandler(io.Discard, nil)), turns: newTurns(), stdioSession: newSessionID()}
	if srv.engine, err = apply.Open(apply.Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	srv.server = srv.newSDKServer()
	ts := httptest.NewServer(mcpHTTPHandler(srv, httpOptions{sessionIdle: defaultSessionIdle, maxSessions: defaultMaxSessions, bodyTimeout: defaultBodyTimeout}))
	t.Cleanup(ts.Close)
	ctx := context.Background()
	connect := func(name, version string) *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: version}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	alpha, beta := connect("alpha-agent", "1.0"), connect("beta-agent", "2.0")
	if alpha.ID() == "" || alpha.ID() == beta.ID() {
		t.Fatalf("sessions %q %q", alpha.ID(), beta.ID())
	}
	call := func(cs *mcp.ClientSession, tool string, args map[string]any) (map[string]any, string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		var txt strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				txt.WriteString(tc.Text)
			}
		}
		if res.IsError {
			return nil, txt.String()
		}
		var m map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &m)
		return m, ""
	}
	edit := func(cs *mcp.ClientSession, path, old, new string) string {
		t.Helper()
		m, refusal := call(cs, "edit", map[string]any{"filePath": path, "oldString": old, "newString": new})
		if refusal != "" {
			t.Fatalf("edit %s: %s", path, refusal)
		}
		return m["commit"].(string)
	}
	cli := func(args ...string) (int, string, string) {
		t.Helper()
		return graftCLI(t, append([]string{"-C", dir}, args...)...)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	a1 := edit(alpha, "shared.txt", "s02\n", "two\n")
	edit(beta, "shared.txt", "s10\n", "ten\n")
	if code, _, errs := cli("--agent", "cli-bot", "edit", "shared.txt", "--old", "s06\n", "--new", "six\n"); code != 0 {
		t.Fatalf("CLI edit: %s", errs)
	}
	edit(alpha, "alpha.txt", "a", "A")
	edit(beta, "beta.txt", "b", "B")
	edit(alpha, "shared.txt", "s04\n", "four\n")

	// Each commit names its agent and session: the MCP session's id, the
	// CLI's none.
	msg := gitRun(t, dir, "log", "-1", "--format=%B", a1)
	if !strings.Contains(msg, "Graft-Agent: alpha-agent/1.0\n") || !strings.Contains(msg, "Graft-Session: "+alpha.ID()+"\n") {
		t.Fatalf("alpha's commit:\n%s", msg)
	}

	// Log filters: by name (any version), by session.
	logOf := func(args ...string) []string {
		t.Helper()
		code, out, errs := cli(append([]string{"log"}, args...)...)
		if code != 0 {
			t.Fatalf("log %v: %s", args, errs)
		}
		return strings.Split(strings.TrimSpace(out), "\n")
	}
	if l := logOf("--agent", "alpha-agent"); len(l) != 3 || !strings.HasSuffix(l[0], "by alpha-agent/1.0") {
		t.Fatalf("log --agent alpha-agent:\n%s", strings.Join(l, "\n"))
	}
	if l := logOf("--agent", "cli-bot"); len(l) != 1 || !strings.Contains(l[0], "shared.txt") {
		t.Fatalf("log --agent cli-bot: %q", l)
	}
	if l := logOf("--session", beta.ID()); len(l) != 2 || !strings.HasSuffix(l[1], "by beta-agent/2.0") {
		t.Fatalf("log --session beta: %q", l)
	}
	if h, refusal := call(beta, "history", map[string]any{"agent": "beta-agent"}); refusal != "" || len(h["entries"].([]any)) != 2 {
		t.Fatalf("history of beta-agent: %v %s", h, refusal)
	}

	// diff --agent: one agent's work as one diff.
	_, d, _ := cli("diff", "--agent", "beta-agent")
	if !strings.Contains(d, "+ten") || !strings.Contains(d, "+B") || strings.Contains(d, "two") || strings.Contains(d, "six") || strings.Contains(d, "alpha.txt") {
		t.Fatalf("diff --agent beta-agent:\n%s", d)
	}

	// alpha's undo (its own by default) takes its last edit only.
	if _, refusal := call(alpha, "undo", map[string]any{}); refusal != "" {
		t.Fatal(refusal)
	}
	if got := read("shared.txt"); got != "s01\ntwo\ns03\ns04\ns05\nsix\ns07\ns08\ns09\nten\ns11\ns12\n" {
		t.Fatalf("shared.txt after alpha's undo:\n%s", got)
	}
	// The CLI's --agent undo: cli-bot's edit, under alpha's and beta's.
	if code, _, errs := cli("undo", "--agent", "cli-bot"); code != 0 {
		t.Fatalf("undo --agent cli-bot: %s", errs)
	}
	if got := read("shared.txt"); got != "s01\ntwo\ns03\ns04\ns05\ns06\ns07\ns08\ns09\nten\ns11\ns12\n" || read("beta.txt") != "B\n" || read("alpha.txt") != "A\n" {
		t.Fatalf("after cli-bot's undo: %q %q %q", read("shared.txt"), read("alpha.txt"), read("beta.txt"))
	}
	// beta changes alpha's line: alpha's next undos are alpha.txt, then
	// its line 2, refused with the diff and who changed it.
	edit(beta, "shared.txt", "two\n", "TWO\n")
	if _, refusal := call(alpha, "undo", map[string]any{}); refusal != "" {
		t.Fatal(refusal)
	}
	if read("alpha.txt") != "a\n" {
		t.Fatal("alpha.txt not undone")
	}
	before := read("shared.txt")
	_, refusal := call(alpha, "undo", map[string]any{})
	for _, want := range []string{"cannot undo " + a1[:12], "by beta-agent/2.0", "-two", "+TWO"} {
		if !strings.Contains(refusal, want) {
			t.Errorf("overlapping undo's refusal lacks %q:\n%s", want, refusal)
		}
	}
	if read("shared.txt") != before {
		t.Fatal("a refused undo changed the file")
	}
	// beta's undo is unaffected by alpha's stack; redo follows alpha's
	// scope: beta's later edits did not clear it.
	if _, refusal := call(alpha, "redo", map[string]any{}); refusal != "" {
		t.Fatal(refusal)
	}
	if read("alpha.txt") != "A\n" {
		t.Fatal("alpha's redo")
	}
	// The CLI without --agent keeps its meaning: the last edit of anyone
	// (alpha's redo of alpha.txt).
	if code, _, errs := cli("undo"); code != 0 {
		t.Fatalf("undo: %s", errs)
	}
	if read("alpha.txt") != "a\n" || !strings.Contains(read("shared.txt"), "TWO") {
		t.Fatalf("plain undo: %q %q", read("alpha.txt"), read("shared.txt"))
	}
	// Asking for more than there is says how many can be undone.
	if code, _, errs := cli("undo", "5", "--agent", "beta-agent"); code != 1 || !strings.Contains(errs, "only 3 edits can be undone, not 5 (agent beta-agent)") {
		t.Fatalf("undo 5: %d %s", code, errs)
	}
}

// Trailers on the branch are the user's choice: graft land --trailer and
// git config graft.trailer, {agent} expanded per agent; none by default.
func TestLandTrailerFlag(t *testing.T) {
	t.Setenv("GRAFT_AGENT", "")
	dir := gitRepo(t, map[string]string{"f.txt": "1\n2\n"})
	if code, _, errs := graftCLI(t, "-C", dir, "--agent", "bot/3", "edit", "f.txt", "--old", "1", "--new", "one"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := graftCLI(t, "-C", dir, "land", "-m", "x", "--trailer", "oops"); code != 2 || !strings.Contains(errs, "want 'KEY: VALUE'") {
		t.Fatalf("bad trailer: %d %s", code, errs)
	}
	if code, _, errs := graftCLI(t, "-C", dir, "land", "-m", "landed", "--trailer", "Assisted-by: {agent}"); code != 0 {
		t.Fatal(errs)
	}
	if msg := strings.TrimSpace(gitRun(t, dir, "log", "-1", "--format=%B")); msg != "landed\n\nAssisted-by: bot/3" {
		t.Fatalf("landed: %q", msg)
	}
	// Branch mode with the global --trailer.
	if code, _, errs := graftCLI(t, "-C", dir, "--commit", "--agent", "bot/4", "--trailer", "Generated-by: {agent}", "edit", "f.txt", "--old", "2", "--new", "two"); code != 0 {
		t.Fatal(errs)
	}
	if msg := gitRun(t, dir, "log", "-1", "--format=%B"); !strings.Contains(msg, "\nGenerated-by: bot/4\n") || strings.Contains(msg, "Graft-Agent") {
		t.Fatalf("branch mode commit: %q", msg)
	}
}

// Over stdio the agent is the client's initialize clientInfo and the
// session one id per server process.
func TestAttributionStdio(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "a\nb\n"})
	s := startMCP(t, dir)
	for _, p := range [][2]string{{"a", "A"}, {"b", "B"}} {
		if res, _ := s.call("edit", map[string]any{"filePath": "a.txt", "oldString": p[0], "newString": p[1]}, nil); res["isError"] == true {
			t.Fatalf("edit: %v", res)
		}
	}
	s.closeWait()
	agents := gitRun(t, dir, "log", "-2", "--format=%(trailers:key=Graft-Agent,valueonly)%(trailers:key=Graft-Session,valueonly)", "refs/graft/main")
	lines := strings.Fields(agents)
	if len(lines) != 4 || lines[0] != "test/1" || !strings.HasPrefix(lines[1], "stdio-") || lines[1] != lines[3] {
		t.Fatalf("trailers: %q", lines)
	}
}

// Branch mode's MCP summary names the commit as the branch's.
func TestMCPBranchModeLabel(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "a\n"})
	s := startMCPArgs(t, "-C", dir, "--commit", "mcp")
	res, _ := s.call("edit", map[string]any{"filePath": "a.txt", "oldString": "a", "newString": "A"}, nil)
	s.closeWait()
	if txt := text(res); strings.Contains(txt, "journal commit") || !strings.Contains(txt, "commit on the branch ") {
		t.Fatalf("summary:\n%s", txt)
	}
}
