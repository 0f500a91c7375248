package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/graftdev/graft/apply"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/pflag"
)

// The MCP server: `graft mcp` serves the registry's tools over MCP through
// the official Go SDK (github.com/modelcontextprotocol/go-sdk), on stdio
// (mcp_stdio.go) or streamable HTTP (mcp_http.go). There is one registry:
// the tools, their descriptions and their JSON schemas are apply.Tools(),
// exactly what `graft tools` lists and `graft call` runs, and a call's
// structured result is the JSON `graft call` prints.
//
// The SDK does the protocol: version negotiation, tools/list, dispatch of
// tools/call, progress notifications and cancellation. graft keeps its own
// argument decoding and messages: tools are registered with the SDK's
// low-level Server.AddTool, so the arguments reach the engine as the raw
// JSON a client sent and a refusal reads the same as on the CLI.
//
// The engine is opened once and keeps the repository open for the whole
// server; it is not for concurrent use, so calls run one at a time (the
// SDK dispatches them concurrently: mcpServer.mu serialises them, and on
// stdio the transport hands them to the SDK in arrival order, see
// lineConn). stdout carries protocol messages only; logs go to stderr,
// debug logs only with -v.

func init() {
	register(&command{Name: "mcp", Args: "[-C DIR] [--tools PROFILE|NAME,...] [--http ADDR [--token-file FILE]]",
		Summary: "serve the tools to an agent over MCP (stdio, or streamable HTTP with --http)",
		Flags: func(fs *pflag.FlagSet) {
			fs.StringP("directory", "C", "", "serve the worktree of `DIR` (as the global -C)")
			fs.String("match", "", "`exact` or fuzzy matching of old text (as the global --match)")
			fs.String("check", "", "syntax check `MODE`: reject, warn or off (as the global --check)")
			fs.Bool("read-only", false, "serve only the tools that change nothing (the readonly profile)")
			fs.StringSlice("tools", nil, "serve these profiles and tools (comma-separated `NAMES`; profiles: "+profileNames()+"; default: default)")
			fs.String("http", "", "serve streamable HTTP on `ADDR` (host:port; port 0 picks one) at /mcp instead of stdio")
			fs.String("token-file", "", "with --http: require 'Authorization: Bearer TOKEN', TOKEN read from `FILE`; allows a non-loopback ADDR (put TLS in front)")
		},
		Run: runMCP})
	engineOptions = append(engineOptions, func(c *Context, o *apply.Options) error {
		if s, ok := c.Extra[mcpServerKey].(*mcpServer); ok {
			o.Progress = s.progress // never draw a progress bar on the server's stderr
			// The versions a call replaces are freed after its answer
			// (mcpServer.call), not inside it.
			o.Store.DeferFrees = true
		}
		return nil
	})
}

// mcpServerKey marks, in Context.Extra, that the engine is opened for the
// MCP server.
const mcpServerKey = "mcp.server"

// maxMessageBytes bounds one inbound JSON-RPC message: a file may hold
// 64 MiB (the default --max-file-size), and a bigger message is answered
// with an error.
const maxMessageBytes = apply.DefaultMaxFileBytes

// profiles are the named sets of tools `graft mcp --tools` takes. A
// model pays for every tool it is handed in every session (name,
// description and input schema), so the default set is lean: one string
// edit, line edits, a batch, patches, reading and undo. "all" is every
// tool of the registry.
var profiles = []struct {
	Name  string
	Tools []string
	Doc   string
}{
	{"default", []string{"file_read", "edit", "edit_lines", "multi_edit", "apply_patch", "undo"}, "read, string edit, line edits, batches, patches, undo"},
	{"all", nil, "every tool"},
	{"readonly", []string{"file_read", "file_outline", "history", "diff"}, "the tools that change nothing"},
	{"journal", []string{"undo", "redo", "history", "diff"}, "the journal: undo, redo, history, diff"},
	{"lines", []string{"file_read", "edit_lines", "replace_in_file"}, "edits by line number"},
	{"snippets", []string{"file_read", "edit_file"}, "snippets with existing-code markers"},
	{"symbols", []string{"file_read", "file_outline", "edit_symbol"}, "edits by symbol name"},
	{"seeds", []string{"file_read", "edit", "edit_text_file", "replace_in_file", "edit_lines", "multi_edit", "edit_file"}, "every string and line tool as its seed defines it"},
	{"vendors", []string{"str_replace_based_edit_tool", "str_replace_editor", "apply_patch"}, "the model vendors' own edit tools: Anthropic's text editor, OpenAI's apply_patch operations"},
}

func profileNames() string {
	var n []string
	for _, p := range profiles {
		n = append(n, p.Name)
	}
	return strings.Join(n, ", ")
}

func runMCP(c *Context, fs *pflag.FlagSet, args []string) error {
	if len(args) != 0 {
		return usagef("mcp takes no arguments (got %q)", args[0])
	}
	if fs.Changed("directory") {
		c.Dir, _ = fs.GetString("directory")
	}
	if fs.Changed("match") {
		c.Match, _ = fs.GetString("match")
		if c.Match != "exact" && c.Match != "fuzzy" {
			return usagef("mcp: --match must be exact or fuzzy, not %q", c.Match)
		}
	}
	if fs.Changed("check") {
		c.Check, _ = fs.GetString("check")
		switch apply.CheckMode(c.Check) {
		case apply.CheckReject, apply.CheckWarn, apply.CheckOff:
		default:
			return usagef("mcp: --check must be reject, warn or off, not %q", c.Check)
		}
	}
	readOnly, _ := fs.GetBool("read-only")
	names, _ := fs.GetStringSlice("tools")
	tools, err := selectTools(apply.Tools(), names, readOnly)
	if err != nil {
		return err
	}
	httpAddr, _ := fs.GetString("http")
	tokenFile, _ := fs.GetString("token-file")
	if tokenFile != "" && httpAddr == "" {
		return usagef("mcp: --token-file needs --http")
	}

	s := &mcpServer{log: c.logger, tools: tools}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	c.Extra[mcpServerKey] = s
	e, err := c.Engine()
	if err != nil {
		return err
	}
	s.engine = e
	s.server = s.newSDKServer()
	s.log.Debug("mcp: serving", "tools", len(tools), "dir", c.Dir, "http", httpAddr)
	if httpAddr != "" {
		return serveHTTP(c, s, httpAddr, tokenFile)
	}
	return serveStdio(c, s)
}

// selectTools applies --tools and --read-only to the registry: the
// union of the named profiles and tools, in registry order. Unknown
// names, and tools that change files under --read-only, are usage errors
// naming what is available.
func selectTools(all []*apply.Tool, names []string, readOnly bool) ([]*apply.Tool, error) {
	var avail []string
	for _, t := range all {
		avail = append(avail, t.Name)
	}
	var cleaned []string
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" {
			cleaned = append(cleaned, n)
		}
	}
	names = cleaned
	switch {
	case len(names) == 0 && readOnly:
		names = []string{"readonly"}
	case len(names) == 0:
		names = []string{"default"}
	}
	want := map[string]bool{}
	for _, n := range names {
		i := slices.IndexFunc(profiles, func(p struct {
			Name  string
			Tools []string
			Doc   string
		}) bool {
			return p.Name == n
		})
		switch {
		case i >= 0 && profiles[i].Tools == nil: // all
			for _, t := range all {
				if !readOnly || t.ReadOnly {
					want[t.Name] = true
				}
			}
		case i >= 0:
			for _, t := range profiles[i].Tools {
				want[t] = true
			}
		case slices.Contains(avail, n):
			want[n] = true
		default:
			return nil, usagef("mcp: --tools: unknown profile or tool %q (profiles: %s; tools: %s)", n, profileNames(), strings.Join(avail, ", "))
		}
	}
	var out []*apply.Tool
	for _, t := range all {
		if !want[t.Name] {
			continue
		}
		if readOnly && !t.ReadOnly {
			return nil, usagef("mcp: --tools: %s changes files, which --read-only excludes", t.Name)
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, usagef("mcp: --tools names no tool (tools: %s)", strings.Join(avail, ", "))
	}
	return out, nil
}

// sdkTool describes a registry tool to the SDK: its own description and
// schemas, no second copy. graft's tools touch only the repository (not
// an open world), and the read-only ones can be repeated freely.
func sdkTool(t *apply.Tool) *mcp.Tool {
	closed := false
	a := &mcp.ToolAnnotations{ReadOnlyHint: t.ReadOnly, IdempotentHint: t.ReadOnly, OpenWorldHint: &closed}
	if !t.ReadOnly {
		destructive := t.Name == "edit_file" || t.Name == "apply_patch" // may overwrite or delete whole files
		a.DestructiveHint = &destructive
	}
	return &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema(), OutputSchema: t.OutputSchema(), Annotations: a}
}

// instructions teaches a model how the served tools fit together.
func instructions(tools []*apply.Tool) string {
	has := func(n string) bool {
		return slices.ContainsFunc(tools, func(t *apply.Tool) bool { return t.Name == n })
	}
	var b strings.Builder
	b.WriteString("graft edits files in a git repository. Every call lands whole or not at all and is recorded as a commit on the journal ref refs/graft/<branch>, so people review it with git and nothing is lost.\n")
	if has("file_read") {
		b.WriteString("- file_read shows lines as \"N: text\" and returns version: the line numbers are what line edits take, and passing version to an edit makes graft refuse it if the file changed since.\n")
	}
	if has("edit_lines") || has("replace_in_file") {
		b.WriteString("- Prefer line edits (edit_lines, replace_in_file) for changes you located by line number; line numbers always refer to the file as it was when the call began.\n")
	}
	if has("edit") || has("edit_text_file") || has("multi_edit") {
		b.WriteString("- String edits match exactly first, then forgive whitespace, indentation, line-ending and quote slips, but never guess between several places.\n")
	}
	b.WriteString("- A refusal carries a code (-32010 not found, -32011 several matches, -32012 conflict, -32013 syntax error, ...) and the nearest candidates with their line numbers and actual text: retry once with that text or with line numbers.\n")
	if has("undo") {
		b.WriteString("- undo reverses the last call without losing later changes made outside graft.\n")
	}
	return b.String()
}

// mcpServer holds the engine and the SDK server that serves its tools.
type mcpServer struct {
	engine *apply.Engine
	log    *slog.Logger
	tools  []*apply.Tool
	server *mcp.Server

	// mu serialises calls: the engine is not for concurrent use.
	mu   sync.Mutex
	sink *progressSink // the running call's, nil without a progress token
}

// newSDKServer registers the selected tools with a new SDK server.
func (s *mcpServer) newSDKServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "graft", Title: "graft: edits that land exactly, journaled in git", Version: graftVersion()},
		&mcp.ServerOptions{Instructions: instructions(s.tools), Logger: s.log,
			// Tools only: logs stay on stderr, and the tool list never
			// changes during a session.
			Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}})
	for _, t := range s.tools {
		srv.AddTool(sdkTool(t), s.handler(t))
	}
	return srv
}

// handler runs tool t for the SDK.
func (s *mcpServer) handler(t *apply.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// The arguments reach the engine as the client sent them: its
		// decoding says what a tool expected (the same messages as graft
		// call).
		args := req.Params.Arguments
		var sink *progressSink
		if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
			sink = &progressSink{session: req.Session, ctx: ctx, token: tok, last: -1}
		}
		return s.call(ctx, t, args, sink), nil
	}
}

// progress receives the engine's progress for the running call (the
// engine calls it synchronously, on the call's goroutine).
func (s *mcpServer) progress(p apply.Progress) {
	if s.sink != nil {
		s.sink.update(p)
	}
}

// call runs one tool, one call at a time: the engine's refusals become
// tool errors, a panic an internal tool error. Once the call is done, the
// file versions it replaced are freed on another goroutine
// (gitstore.OpenOptions.DeferFrees): freeing them can wait for the disk,
// and the client need not.
func (s *mcpServer) call(ctx context.Context, t *apply.Tool, args json.RawMessage, sink *progressSink) (res *mcp.CallToolResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sink = sink
	start := time.Now()
	defer func() {
		s.sink = nil
		if r := recover(); r != nil {
			s.log.Error("mcp: tool panicked", "tool", t.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			res = toolError(t.Name, &apply.Error{Code: apply.CodeInternal, Msg: fmt.Sprintf("internal error (a bug in graft): %v", r)})
		}
		if release := s.engine.Store().ReleaseReplaced(); release != nil {
			go release()
		}
		s.log.Debug("mcp: call", "tool", t.Name, "args_bytes", len(args), "ms", float64(time.Since(start).Microseconds())/1000, "error", res != nil && res.IsError)
	}()
	if err := ctx.Err(); err != nil {
		return toolError(t.Name, &apply.Error{Code: apply.CodeInvalid, Msg: "cancelled before it ran"})
	}
	out, err := s.engine.Call(ctx, t.Name, args)
	if err != nil {
		return toolError(t.Name, err)
	}
	return toolResult(t.Name, out)
}

// toolResult is a successful call: the structured result is the JSON
// `graft call` prints, the text a short summary and the diff. A result
// that says not every part succeeded (a non-atomic multi_edit with
// failures) is flagged IsError, as `graft call` exits 1 for it.
func toolResult(tool string, out any) *mcp.CallToolResult {
	raw, err := marshalJSON(out)
	if err != nil {
		return toolError(tool, &apply.Error{Code: apply.CodeInternal, Msg: fmt.Sprintf("internal error (a bug in graft): encoding the result: %v", err)})
	}
	res := &mcp.CallToolResult{StructuredContent: json.RawMessage(raw), Content: []mcp.Content{&mcp.TextContent{Text: summarize(tool, raw)}}}
	if s, ok := out.(interface{ Succeeded() bool }); ok && !s.Succeeded() {
		res.IsError = true
	}
	return res
}

// toolError is a refused or failed call. It carries no structured content
// (clients check structured content against the output schema, which
// describes success); instead the text holds a summary and then, as a
// second block, the JSON `graft call` prints for the error: code, message,
// path, edit, count and candidates.
func toolError(tool string, err error) *mcp.CallToolResult {
	j := apply.ToJSON(err)
	raw, _ := json.MarshalIndent(map[string]any{"error": j}, "", "  ")
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: errorSummary(tool, j)}, &mcp.TextContent{Text: string(raw)}}}
}

// marshalJSON encodes v without escaping <, > and & (diffs are full of
// them) and without a trailing newline.
func marshalJSON(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(strings.TrimSuffix(b.String(), "\n")), nil
}

// progressSink turns the engine's progress reports for one call into
// notifications/progress for the call's progress token. The engine reports
// phases (Done of Total within each); MCP wants a value that increases
// with every notification, so each phase continues where the previous
// one ended, and a report that would not increase the value is dropped.
type progressSink struct {
	session *mcp.ServerSession
	ctx     context.Context
	token   any

	base, done, total int     // the current phase starts at base
	last              float64 // the last value sent; -1 before the first
}

func (p *progressSink) update(pr apply.Progress) {
	if pr.Total <= 0 {
		return // a phase of unknown length: nothing to count
	}
	if pr.Done < p.done { // a new phase
		p.base += max(p.total, p.done)
	}
	p.done, p.total = pr.Done, pr.Total
	v := float64(p.base + pr.Done)
	if v <= p.last {
		return
	}
	p.last = v
	params := &mcp.ProgressNotificationParams{ProgressToken: p.token, Progress: v, Message: pr.Message,
		Total: float64(p.base + max(pr.Total, pr.Done))}
	// A failed notification (client gone) must not fail the edit.
	_ = p.session.NotifyProgress(p.ctx, params)
}

// stderrOf is where the server says what it is doing to a person (the
// HTTP address it bound): the command's stderr.
func stderrOf(c *Context) io.Writer {
	if c.Stderr != nil {
		return c.Stderr
	}
	return os.Stderr
}
