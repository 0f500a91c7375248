package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/gitstore"
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
// Over HTTP a call whose request or result passes 1 MiB goes beside the
// SDK, through a thin wrapper of its handler and response writer
// (mcp_http_big.go): the SDK decodes a request four times through
// decoders that copy it first, and encodes a result at every layer, which
// made a 60 MB edit's peak 12 times its bytes. Results are written in
// pieces, never held whole (mcp_result.go), and a big call runs under a
// memory bound (mcp_memory.go). The SDK is used as it is, not forked.
//
// The engine is opened once and keeps the repository open for the whole
// server; it is not for concurrent use, so calls run one at a time, in the
// order they arrived (the SDK dispatches them concurrently: turns.go). stdout carries protocol messages only; logs go to stderr,
// debug logs only with -v.

func init() {
	register(&command{Name: "mcp", Args: "[-C DIR|--root DIR] [--tools PROFILE|NAME,...] [--http ADDR [--token-file FILE]]",
		Summary: "serve the tools to an agent over MCP (stdio, or streamable HTTP with --http)",
		Flags: func(fs *pflag.FlagSet) {
			fs.StringP("directory", "C", "", "serve the worktree of `DIR` (as the global -C)")
			fs.String("root", "", "serve `DIR`: the worktree of the repository holding it, or outside any repository DIR itself (required there)")
			fs.String("match", "", "`exact` or fuzzy matching of old text (as the global --match)")
			fs.String("check", "", "syntax check `MODE`: reject, warn or off (as the global --check)")
			fs.Bool("read-only", false, "serve only the tools that change nothing (the readonly profile)")
			fs.StringSlice("tools", nil, "serve these profiles and tools (comma-separated `NAMES`; profiles: "+profileNames()+"; default: default)")
			fs.String("http", "", "serve streamable HTTP on `ADDR` (host:port; port 0 picks one) at /mcp instead of stdio")
			fs.String("token-file", "", "with --http: require 'Authorization: Bearer TOKEN', TOKEN read from `FILE` (mode 600); allows a non-loopback ADDR (put TLS in front)")
			fs.Duration("session-idle", defaultSessionIdle, "with --http: close a session that made no request for `DURATION` (0: never)")
			fs.Int("max-sessions", defaultMaxSessions, "with --http: keep at most `N` sessions open (0: no bound)")
		},
		Run: runMCP})
	engineOptions = append(engineOptions, func(c *Context, o *apply.Options) error {
		if s, ok := c.Extra[mcpServerKey].(*mcpServer); ok {
			o.Progress = s.progress // never draw a progress bar on the server's stderr
			// The versions a call replaces are freed after its answer
			// (mcpServer.call), not inside it.
			o.Store.DeferFrees = true
			// The files of a call's objects and temporary copies are
			// made ahead, after the answer (mcpServer.call), unless no
			// tool served writes (--read-only: nothing is made).
			if slices.ContainsFunc(s.tools, func(t *apply.Tool) bool { return !t.ReadOnly }) {
				o.Store.PoolFiles = mcpPoolFiles
			}
		}
		return nil
	})
}

// mcpPoolFiles is how many empty files the server keeps made ahead
// (gitstore.OpenOptions.PoolFiles): an edit of one file takes six (five
// objects, the file's temporary copy); a batch of a few files, more.
const mcpPoolFiles = 16

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
	{"notebooks", []string{"file_read", "notebook_edit", "edit", "edit_lines", "multi_edit", "apply_patch", "undo"}, "Jupyter notebooks: read as \"# %%\" cells, edit a cell's text, add, delete or retype cells"},
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
	// Whoever starts the server names what it serves: a -C (global or
	// the command's) or --root. Without one the working directory is
	// served, which outside a repository is refused (see below).
	explicit := c.Dir != ""
	if fs.Changed("directory") {
		c.Dir, _ = fs.GetString("directory")
		explicit = true
	}
	if fs.Changed("root") {
		if fs.Changed("directory") {
			return usagef("mcp: give -C or --root, not both")
		}
		c.Dir, _ = fs.GetString("root")
		explicit = true
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
	for _, f := range []string{"token-file", "session-idle", "max-sessions"} {
		if fs.Changed(f) && httpAddr == "" {
			return usagef("mcp: --%s needs --http", f)
		}
	}
	ho := httpOptions{bodyTimeout: defaultBodyTimeout}
	ho.sessionIdle, _ = fs.GetDuration("session-idle")
	ho.maxSessions, _ = fs.GetInt("max-sessions")
	if ho.sessionIdle < 0 || ho.maxSessions < 0 {
		return usagef("mcp: --session-idle and --max-sessions take 0 or more")
	}
	if tokenFile != "" {
		if ho.token, err = readToken(tokenFile); err != nil {
			return err
		}
	}

	s := &mcpServer{log: c.logger, tools: tools, turns: newTurns(), stdioSession: newSessionID()}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	c.Extra[mcpServerKey] = s
	e, err := c.Engine()
	if err != nil {
		return err
	}
	if e.Store().Private() && !explicit {
		return outsideRepository(e.Store().Root())
	}
	s.engine = e
	defer e.Store().ClosePool()
	s.server = s.newSDKServer()
	s.log.Debug("mcp: serving", "tools", len(tools), "dir", c.Dir, "http", httpAddr)
	if httpAddr != "" {
		return serveHTTP(c, s, httpAddr, ho)
	}
	return serveStdio(c, s)
}

// outsideRepository refuses to serve dir, a directory outside any git
// repository that nobody named: a desktop client launching its servers in
// / or the home directory would otherwise hand a model every file below
// it. The message says how to name the directory.
func outsideRepository(dir string) error {
	return &usageError{cmd: "mcp", msg: fmt.Sprintf("mcp: %s is not inside a git repository, and no directory to serve was given: "+
		"graft will not serve every file below the directory it was started in. Name the directory to serve with --root "+
		"(or -C), as in a client's configuration: \"args\": [\"mcp\", \"--root\", \"/path/to/project\"]", dir)}
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
	var lineTools []string
	for _, n := range []string{"edit_lines", "replace_in_file"} {
		if has(n) {
			lineTools = append(lineTools, n)
		}
	}
	if len(lineTools) > 0 {
		b.WriteString("- Prefer line edits (" + strings.Join(lineTools, ", ") + ") for changes you located by line number; line numbers always refer to the file as it was when the call began.\n")
	}
	if has("apply_patch") {
		b.WriteString("- apply_patch takes a unified diff (as git diff prints it), a *** Begin Patch envelope or SEARCH/REPLACE blocks, for changes across files; hunks are located by their context, so stale line numbers are fine.\n")
	}
	if has("edit") || has("edit_text_file") || has("multi_edit") {
		b.WriteString("- String edits match exactly first, then forgive whitespace, indentation, line-ending and quote slips, but never guess between several places.\n")
	}
	b.WriteString("- A refusal carries a code (-32010 not found, -32011 several matches, -32012 conflict, -32013 syntax error, ...) and the nearest candidates with their line numbers and actual text: retry once with that text or with line numbers.\n")
	if has("undo") {
		b.WriteString("- undo reverses your own last call (this client's), keeping later changes made by other agents or outside graft; agent \"*\" reaches anyone's.\n")
	}
	return b.String()
}

// mcpServer holds the engine and the SDK server that serves its tools.
type mcpServer struct {
	engine *apply.Engine
	log    *slog.Logger
	tools  []*apply.Tool
	server *mcp.Server

	// turns runs calls one at a time, in the order they arrived: the
	// engine is not for concurrent use.
	turns *turns
	// big keeps the arguments and results of big HTTP calls beside the
	// SDK (mcp_http_big.go); nil on stdio.
	big  *bigCalls
	sink *progressSink // the running call's, nil without a progress token
	mem  bigCallMemory // the running call's memory bound (mcp_memory.go)
	// stdioSession is the session of every call over stdio (one client
	// per process); over HTTP each call's is its Mcp-Session-Id.
	stdioSession string
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
		// Over HTTP the ticket was taken when the request arrived
		// (httpLimits); otherwise it is taken now.
		ticket, ok := uint64(0), false
		if req.Extra != nil && req.Extra.Header != nil {
			ticket, ok = parseTicket(req.Extra.Header.Get(ticketHeader))
		}
		if !ok {
			ticket = s.turns.take(s.sessionID(req))
		}
		if ok && s.big != nil {
			if a, kept := s.big.takeArgs(ticket); kept {
				args = a
			}
		}
		var stash func(*resultJSON) json.RawMessage
		if ok && s.big != nil {
			// A big result goes beside the SDK, to the request's
			// response writer.
			stash = func(r *resultJSON) json.RawMessage { return s.big.putResult(ticket, r) }
		}
		// The session named in the journal is the one the call was
		// queued in: one value keys both (turns.go).
		session, _ := s.turns.sessionOf(ticket)
		ctx = gitstore.WithAttribution(ctx, attributionOf(req, session))
		return s.call(ctx, t, args, sink, ticket, stash), nil
	}
}

// sessionID is the session a call came in: the transport's (HTTP's
// Mcp-Session-Id), else the server process's one stdio session.
func (s *mcpServer) sessionID(req *mcp.CallToolRequest) string {
	if req.Session != nil {
		if id := req.Session.ID(); id != "" {
			return id
		}
	}
	return s.stdioSession
}

// attributionOf is who a call is made for: the client's initialize
// clientInfo (name/version; what the client says, not who it is) and the
// session it was queued in.
func attributionOf(req *mcp.CallToolRequest, session string) gitstore.Attribution {
	a := gitstore.Attribution{Session: session}
	if req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
			a.Agent = gitstore.AgentName(p.ClientInfo.Name, p.ClientInfo.Version)
			a.Name = gitstore.SanitizeTrailer(p.ClientInfo.Name)
		}
	}
	return a
}

// newSessionID names the one session of a stdio server: its journal
// commits' Graft-Session.
func newSessionID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "stdio-" + hex.EncodeToString(b[:])
}

// progress receives the engine's progress for the running call (the
// engine calls it synchronously, on the call's goroutine).
func (s *mcpServer) progress(p apply.Progress) {
	// A phase of unknown length (Done and Total zero) is reported for a
	// file past 1 MiB only; the counted steps every call reports (diff,
	// write, done) say nothing of its size, and setting the collector for
	// a big file on them made every call end with a forced collection
	// (bigCallMemory.end), twice the time of a small edit.
	if p.Done == 0 && p.Total == 0 {
		s.mem.phase()
	}
	if s.sink != nil {
		s.sink.update(p)
	}
}

// call runs one tool, one call at a time: the engine's refusals become
// tool errors, a panic an internal tool error. Once the call is done, the
// file versions it replaced are freed on another goroutine
// (gitstore.OpenOptions.DeferFrees): freeing them can wait for the disk,
// and the client need not; the files the next calls will need are made
// there too (gitstore.OpenOptions.PoolFiles).
func (s *mcpServer) call(ctx context.Context, t *apply.Tool, args json.RawMessage, sink *progressSink, ticket uint64, stash func(*resultJSON) json.RawMessage) (res *mcp.CallToolResult) {
	defer s.turns.done(ticket)
	if err := s.turns.wait(ctx, ticket); err != nil {
		return toolError(t.Name, &apply.Error{Code: apply.CodeInvalid, Msg: "cancelled before it ran"})
	}
	s.sink = sink
	start := time.Now()
	argsBytes := len(args) // (args itself is not kept past the engine's decoding)
	s.mem.start(argsBytes)
	defer s.mem.end()
	defer func() {
		s.sink = nil
		if r := recover(); r != nil {
			s.log.Error("mcp: tool panicked", "tool", t.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			res = toolError(t.Name, &apply.Error{Code: apply.CodeInternal, Msg: fmt.Sprintf("internal error (a bug in graft): %v", r)})
		}
		// Then, off the call, the files the next calls will need are
		// made ahead (gitstore.OpenOptions.PoolFiles).
		release, fill := s.engine.Store().ReleaseReplaced(), s.engine.Store().FillPool()
		if release != nil || fill != nil {
			go func() {
				if release != nil {
					release()
				}
				if fill != nil {
					fill()
				}
			}()
		}
		s.log.Debug("mcp: call", "tool", t.Name, "args_bytes", argsBytes, "ms", float64(time.Since(start).Microseconds())/1000, "error", res != nil && res.IsError)
	}()
	if err := ctx.Err(); err != nil {
		return toolError(t.Name, &apply.Error{Code: apply.CodeInvalid, Msg: "cancelled before it ran"})
	}
	if stash != nil {
		// Over HTTP a big diff is written as the result goes out
		// (resultJSON.writeTo), from the file's lines: never held whole.
		ctx = apply.WithLazyDiffs(ctx, pieceDiffBytes)
	}
	out, err := s.engine.Call(ctx, t.Name, args)
	if err != nil {
		return toolError(t.Name, err)
	}
	res = toolResult(t.Name, out, stash)
	if s.engine.Store().Mode() == gitstore.ModeCommit {
		// Branch mode: the commit is on the branch, not the journal.
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				tc.Text = branchLabel(tc.Text)
			}
		}
	}
	return res
}

// branchLabel relabels a summary's "journal commit" line for branch mode.
func branchLabel(text string) string {
	if rest, ok := strings.CutPrefix(text, "journal commit "); ok {
		return "commit on the branch " + rest
	}
	return strings.Replace(text, "\njournal commit ", "\ncommit on the branch ", 1)
}

// toolResult is a successful call: the structured result is the JSON
// `graft call` prints, the text a short summary and the diff. A result
// that says not every part succeeded (a non-atomic multi_edit with
// failures) is flagged IsError, as `graft call` exits 3 for it, partly
// applied; its text says which edits landed and which did not.
//
// With stash (over HTTP), a result whose JSON is past bigBytes is not
// made here: stash keeps it, to be written to the connection as it is
// encoded, and returns what the SDK is to encode in its place.
func toolResult(tool string, out any, stash func(*resultJSON) json.RawMessage) *mcp.CallToolResult {
	rj, err := newResultJSON(out)
	var raw, structured json.RawMessage
	if err == nil && stash != nil && rj.size() > bigBytes {
		structured = stash(rj)
		if summaryNeedsWhole(out) {
			raw, err = rj.bytes()
		}
	} else if err == nil {
		raw, err = rj.bytes()
		structured = raw
	}
	if err != nil {
		return toolError(tool, &apply.Error{Code: apply.CodeInternal, Msg: fmt.Sprintf("internal error (a bug in graft): encoding the result: %v", err)})
	}
	res := &mcp.CallToolResult{StructuredContent: structured, Content: []mcp.Content{&mcp.TextContent{Text: summarize(tool, summaryJSON(out, raw))}}}
	if s, ok := out.(interface{ Succeeded() bool }); ok && !s.Succeeded() {
		res.IsError = true
	}
	return res
}

// summaryJSON is what the text summary of out is made from: raw, the
// result's JSON, or for an editing result with a diff over the text's
// bound the JSON of a copy whose diffs are cut just past it (the summary
// clips them anyway), so that a big diff is not decoded again whole.
func summaryJSON(out any, raw []byte) []byte {
	if summaryNeedsWhole(out) {
		return raw
	}
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return raw
	}
	cp := reflect.New(v.Elem().Type())
	cp.Elem().Set(v.Elem()) // a shallow copy: its Landing is its own
	cl := cp.Interface().(interface{ Landed() *apply.Landing }).Landed()
	cl.Files = slices.Clone(cl.Files)
	for i := range cl.Files {
		f := &cl.Files[i]
		if f.LazyDiff() || len(f.Diff) > textDiffBytes {
			f.Diff = f.DiffHead(textDiffBytes + 1)
		}
		// The summary names only the hunks found by a fuzzy tier.
		var fuzzy []apply.Located
		for _, h := range f.Hunks {
			if len(fuzzy) < 100 && h.Method != "exact" && h.Method != "lines" && h.Method != "create" {
				fuzzy = append(fuzzy, h)
			}
		}
		f.Hunks = fuzzy
	}
	small, err := marshalJSON(cp.Interface())
	if err != nil {
		return raw
	}
	return small
}

// summaryNeedsWhole reports whether the summary of out is made from its
// whole JSON (no diff of it is past the text's bound).
func summaryNeedsWhole(out any) bool {
	l, ok := out.(interface{ Landed() *apply.Landing })
	return !ok || !slices.ContainsFunc(l.Landed().Files, func(f apply.FileResult) bool { return f.DiffLen() > textDiffBytes })
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
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
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
