package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/graftdev/graft/apply"
	"github.com/spf13/pflag"
)

// The MCP server: `graft mcp` serves every tool of the registry over stdio
// (the protocol itself is in mcp_conn.go). There is one registry: the tools, their
// descriptions and their JSON schemas are apply.Tools(), exactly what
// `graft tools` lists and `graft call` runs, and a call's structured
// result is the JSON `graft call` prints.
//
// The server opens the engine once and keeps the repository open for the
// session; calls are served one at a time (the engine is not for
// concurrent use). stdout carries protocol messages only (see mcpConn);
// logs go to stderr, debug logs only with -v.

func init() {
	register(&command{Name: "mcp", Args: "[-C DIR] [--match exact] [--check MODE] [--read-only] [--tools NAME,...]",
		Summary: "serve the tools to an agent over MCP (stdio)",
		Flags: func(fs *pflag.FlagSet) {
			fs.StringP("directory", "C", "", "serve the worktree of `DIR` (as the global -C)")
			fs.String("match", "", "`exact` or fuzzy matching of old text (as the global --match)")
			fs.String("check", "", "syntax check `MODE`: reject, warn or off (as the global --check)")
			fs.Bool("read-only", false, "serve only the tools that change nothing (file_read, history, diff)")
			fs.StringSlice("tools", nil, "serve only these tools (comma-separated `NAMES`)")
		},
		Run: runMCP})
	engineOptions = append(engineOptions, func(c *Context, o *apply.Options) error {
		if s, ok := c.Extra[mcpServerKey].(*mcpServer); ok {
			o.Progress = s.progress // never draw a progress bar on the server's stderr
			// The versions a call replaces are freed after its answer
			// (mcpConn.run), not inside it.
			o.Store.DeferFrees = true
		}
		return nil
	})
}

// mcpServerKey marks, in Context.Extra, that the engine is opened for the
// MCP server.
const mcpServerKey = "mcp.server"

// maxMessageBytes bounds one inbound JSON-RPC message: a file may hold
// 64 MiB (SPEC §4.12), and a bigger message is answered with an error.
const maxMessageBytes = apply.DefaultMaxFileBytes

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
	s.log.Debug("mcp: serving", "tools", len(tools), "dir", c.Dir)
	newMCPConn(c.Stdout, maxMessageBytes, s.log, s).serve(c.Stdin)
	s.log.Debug("mcp: stdin closed, shutting down")
	return nil
}

// selectTools applies --tools and --read-only to the registry. Unknown
// names, and tools that change files under --read-only, are usage errors
// naming what is available.
func selectTools(all []*apply.Tool, names []string, readOnly bool) ([]*apply.Tool, error) {
	var avail []string
	for _, t := range all {
		avail = append(avail, t.Name)
	}
	if len(names) == 0 {
		var out []*apply.Tool
		for _, t := range all {
			if !readOnly || t.ReadOnly {
				out = append(out, t)
			}
		}
		return out, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !slices.Contains(avail, n) {
			return nil, usagef("mcp: --tools: unknown tool %q (tools: %s)", n, strings.Join(avail, ", "))
		}
		want[n] = true
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

// mcpToolJSON is a tool as tools/list describes it.
type mcpToolJSON struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  *apply.Schema   `json:"inputSchema"`
	OutputSchema *apply.Schema   `json:"outputSchema,omitempty"`
	Annotations  toolAnnotations `json:"annotations"`
}

// toolAnnotations are MCP's hints about a tool: graft's tools touch only
// the repository (not an open world), and the read-only ones can be
// repeated freely.
type toolAnnotations struct {
	ReadOnlyHint   bool `json:"readOnlyHint"`
	IdempotentHint bool `json:"idempotentHint,omitempty"`
	OpenWorldHint  bool `json:"openWorldHint"`
}

// mcpTool describes a registry tool to MCP: its own description and
// schemas, no second copy.
func mcpTool(t *apply.Tool) mcpToolJSON {
	return mcpToolJSON{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema(), OutputSchema: t.OutputSchema(),
		Annotations: toolAnnotations{ReadOnlyHint: t.ReadOnly, IdempotentHint: t.ReadOnly}}
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

func graftVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// mcpServer holds the session's engine and tools.
type mcpServer struct {
	engine *apply.Engine
	log    *slog.Logger
	tools  []*apply.Tool

	sink *progressSink // the running call's, nil without a progress token
}

// tool returns the served tool called name, or nil.
func (s *mcpServer) tool(name string) *apply.Tool {
	for _, t := range s.tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// initializeResult answers initialize in protocol version v: the tools
// capability only (no logging capability: logs stay on stderr, SPEC
// §4.11), who graft is, and how its tools fit together.
func (s *mcpServer) initializeResult(v string) any {
	type info struct {
		Name    string `json:"name"`
		Title   string `json:"title,omitempty"`
		Version string `json:"version"`
	}
	return struct {
		ProtocolVersion string         `json:"protocolVersion"`
		Capabilities    map[string]any `json:"capabilities"`
		ServerInfo      info           `json:"serverInfo"`
		Instructions    string         `json:"instructions"`
	}{v, map[string]any{"tools": struct{}{}},
		info{"graft", "graft: edits that land exactly, journaled in git", graftVersion()}, instructions(s.tools)}
}

// releaseReplaced frees, on another goroutine, the file versions the
// calls so far replaced.
func (s *mcpServer) releaseReplaced() {
	if s.engine == nil {
		return
	}
	if release := s.engine.Store().ReleaseReplaced(); release != nil {
		go release()
	}
}

// progress receives the engine's progress for the running call (the
// engine calls it synchronously, on the call's goroutine).
func (s *mcpServer) progress(p apply.Progress) {
	if s.sink != nil {
		s.sink.update(p)
	}
}

// call runs one tool for MCP (calls run one at a time, see mcpConn): the
// engine's refusals become tool errors, a panic an internal tool error.
func (s *mcpServer) call(ctx context.Context, t *apply.Tool, args json.RawMessage, sink *progressSink) (res *callResult) {
	s.sink = sink
	start := time.Now()
	defer func() {
		s.sink = nil
		if r := recover(); r != nil {
			s.log.Error("mcp: tool panicked", "tool", t.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			res = toolError(t.Name, &apply.Error{Code: apply.CodeInternal, Msg: fmt.Sprintf("internal error (a bug in graft): %v", r)})
		}
		s.log.Debug("mcp: call", "tool", t.Name, "args_bytes", len(args), "ms", float64(time.Since(start).Microseconds())/1000, "error", res != nil && res.IsError)
	}()
	out, err := s.engine.Call(ctx, t.Name, args)
	if err != nil {
		return toolError(t.Name, err)
	}
	return toolResult(t.Name, out)
}

// checkArguments accepts absent arguments, null, or a JSON object.
func checkArguments(args json.RawMessage) error {
	trimmed := strings.TrimSpace(string(args))
	if trimmed == "" || trimmed == "null" || strings.HasPrefix(trimmed, "{") {
		return nil
	}
	return errors.New("arguments must be a JSON object")
}

// callResult is the result of tools/call.
type callResult struct {
	Content           []textContent   `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
}

// textContent is a text content block.
type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func textBlock(s string) textContent { return textContent{Type: "text", Text: s} }

// toolResult is a successful call: the structured result is the JSON
// `graft call` prints, the text a short summary and the diff. A result
// that says not every part succeeded (a non-atomic multi_edit with
// failures) is flagged IsError, as `graft call` exits 1 for it.
func toolResult(tool string, out any) *callResult {
	raw, err := json.Marshal(out)
	if err != nil {
		return toolError(tool, &apply.Error{Code: apply.CodeInternal, Msg: fmt.Sprintf("internal error (a bug in graft): encoding the result: %v", err)})
	}
	res := &callResult{StructuredContent: raw, Content: []textContent{textBlock(summarize(tool, raw))}}
	if s, ok := out.(interface{ Succeeded() bool }); ok && !s.Succeeded() {
		res.IsError = true
	}
	return res
}

// toolError is a refused or failed call. It carries no structured content
// (clients check structured content against the output schema, which
// describes success); instead the text holds a one-line summary and then,
// as a second block, the JSON `graft call` prints for the error: code,
// message, path, edit, count and candidates.
func toolError(tool string, err error) *callResult {
	j := apply.ToJSON(err)
	raw, _ := json.MarshalIndent(map[string]any{"error": j}, "", "  ")
	return &callResult{IsError: true, Content: []textContent{textBlock(errorSummary(tool, j)), textBlock(string(raw))}}
}

// codeNames words the codes of SPEC §4.10 for the summary line.
var codeNames = map[apply.Code]string{
	apply.CodeFileNotFound: "file not found",
	apply.CodePermission:   "permission denied",
	apply.CodeBinary:       "binary file",
	apply.CodeTextNotFound: "text not found",
	apply.CodeAmbiguous:    "several matches",
	apply.CodeConflict:     "conflict",
	apply.CodeSyntax:       "syntax check failed",
	apply.CodeTooLarge:     "too large",
	apply.CodeInvalid:      "invalid request",
	apply.CodeInternal:     "internal error",
}

// errorSummary is the first line a model reads of a refusal, with what to
// do next.
func errorSummary(tool string, j apply.ErrorJSON) string {
	name := codeNames[j.Code]
	if name == "" {
		name = "error"
	}
	s := fmt.Sprintf("%s refused (%d %s): %s", tool, j.Code, name, j.Message)
	switch {
	case len(j.Candidates) > 0:
		s += fmt.Sprintf("\nNearest candidates (%d) are listed below with their line numbers and the file's actual text: retry with that text, or edit by line numbers.", len(j.Candidates))
	case j.Code == apply.CodeTextNotFound || j.Code == apply.CodeAmbiguous:
		s += "\nRead the file (file_read) and retry with text copied from it, or edit by line numbers."
	case j.Code == apply.CodeConflict:
		s += "\nThe file changed since it was read: read it again and redo the edit on the current text."
	}
	return s
}

// summarize renders a result's JSON for people and models: what changed
// where and the diff for editing tools, the numbered lines for reads,
// journal entries, and the diff of diff-like results; the JSON itself for
// anything else. It reads the JSON rather than Go types so that tools
// added to the registry later get a useful summary without a change here.
func summarize(tool string, raw []byte) string {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return string(raw)
	}
	var b strings.Builder
	files := asSlice(m["files"])
	switch {
	case len(files) > 0 && isObject(files[0]):
		summarizeFiles(&b, m, files)
	case isString(m["content"]):
		summarizeRead(&b, m)
	default:
		summarizeOther(&b, tool, m)
	}
	if b.Len() == 0 {
		ind, _ := json.MarshalIndent(m, "", "  ")
		b.Write(ind)
	}
	return b.String()
}

func isObject(v any) bool { _, ok := v.(map[string]any); return ok }

func isString(v any) bool { _, ok := v.(string); return ok }

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

func summarizeFiles(b *strings.Builder, m map[string]any, files []any) {
	dry := m["dry_run"] == true
	var diffs strings.Builder
	for _, fv := range files {
		f, _ := fv.(map[string]any)
		if f == nil {
			continue
		}
		v := "edit"
		switch {
		case f["created"] == true:
			v = "create"
		case f["deleted"] == true:
			v = "delete"
		}
		if dry {
			v = "would " + v
		} else {
			v = strings.TrimSuffix(v, "e") + "ed"
		}
		if dry && b.Len() == 0 {
			b.WriteString("dry run, nothing written:\n")
		}
		fmt.Fprintf(b, "%s %v: +%d -%d", v, f["path"], num(f["additions"]), num(f["deletions"]))
		if lr, ok := f["line_range"].(map[string]any); ok && num(lr["start"]) > 0 {
			fmt.Fprintf(b, ", lines %d-%d", num(lr["start"]), num(lr["end"]))
		}
		if n := num(f["replacements"]); n > 1 {
			fmt.Fprintf(b, ", %d replacements", n)
		}
		for _, hv := range asSlice(f["hunks"]) {
			h, _ := hv.(map[string]any)
			how, _ := h["located"].(string)
			if how == "" || how == "exact" || how == "lines" || how == "create" {
				continue
			}
			fmt.Fprintf(b, " [%slocated by %s at line %d, similarity %.2f]", editPrefix(h["edit"]), how, num(h["line"]), h["similarity"])
		}
		b.WriteByte('\n')
		for _, ev := range asSlice(f["syntax_errors"]) {
			e, _ := ev.(map[string]any)
			if e == nil {
				continue
			}
			fmt.Fprintf(b, "warning: the edit adds a syntax error at %v:%d:%d: %v\n", f["path"], num(e["line"]), num(e["column"]), e["message"])
			if sn, _ := e["snippet"].(string); sn != "" {
				b.WriteString(strings.TrimRight(sn, "\n") + "\n")
			}
		}
		if d, _ := f["diff"].(string); d != "" {
			diffs.WriteString(d)
			if !strings.HasSuffix(d, "\n") {
				diffs.WriteByte('\n')
			}
		}
	}
	if len(files) == 0 {
		b.WriteString("no file changed\n")
	}
	for _, rv := range asSlice(m["results"]) {
		r, _ := rv.(map[string]any)
		if r != nil && r["success"] == false {
			fmt.Fprintf(b, "failed %v: %v\n", r["file_path"], r["error"])
		}
	}
	if e, _ := m["error"].(string); e != "" {
		fmt.Fprintf(b, "error: %s\n", e)
	}
	if c, _ := m["commit"].(string); c != "" {
		fmt.Fprintf(b, "journal commit %s\n", c)
	}
	if diffs.Len() > 0 {
		b.WriteByte('\n')
		b.WriteString(diffs.String())
	}
}

func editPrefix(v any) string {
	if s, _ := v.(string); s != "" {
		return s + " "
	}
	return ""
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

// summarizeOther renders journal results: entries (history), entries and
// files by name (undo, redo), a commit and a diff.
func summarizeOther(b *strings.Builder, tool string, m map[string]any) {
	var names []string
	for _, ev := range asSlice(m["entries"]) {
		switch e := ev.(type) {
		case string:
			names = append(names, shortID(e))
		case map[string]any:
			fmt.Fprintf(b, "%s %v %v: %v (+%d -%d)\n", shortID(fmt.Sprint(e["id"])), e["time"], e["tool"], e["message"], num(e["additions"]), num(e["deletions"]))
		}
	}
	if j, _ := m["journal"].(string); j != "" && m["entries"] != nil {
		if len(asSlice(m["entries"])) == 0 {
			fmt.Fprintf(b, "%s: no entries\n", j)
		} else {
			fmt.Fprintf(b, "(journal %s)\n", j)
		}
	}
	if len(names) > 0 {
		fmt.Fprintf(b, "%s: %s", tool, strings.Join(names, ", "))
		var paths []string
		for _, f := range asSlice(m["files"]) {
			paths = append(paths, fmt.Sprint(f))
		}
		if len(paths) > 0 {
			fmt.Fprintf(b, " (%s)", strings.Join(paths, ", "))
		}
		b.WriteByte('\n')
	}
	if c, _ := m["commit"].(string); c != "" {
		fmt.Fprintf(b, "journal commit %s\n", c)
	}
	if d, _ := m["diff"].(string); d != "" {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d)
	} else if isString(m["diff"]) && b.Len() == 0 {
		b.WriteString("no changes\n")
	}
}

func shortID(id string) string { return id[:min(12, len(id))] }

func summarizeRead(b *strings.Builder, m map[string]any) {
	fmt.Fprintf(b, "%v: lines %d-%d of %d, version %v", m["path"], num(m["start_line"]), num(m["end_line"]), num(m["total_lines"]), m["version"])
	if le, _ := m["line_endings"].(string); le != "" && le != "lf" && le != "none" {
		fmt.Fprintf(b, ", %s line endings", le)
	}
	if m["final_newline"] == false && num(m["total_lines"]) > 0 {
		b.WriteString(", no final newline")
	}
	b.WriteString("\n")
	b.WriteString(m["content"].(string))
}

// progressSink turns the engine's progress reports for one call into
// notifications/progress for the call's progress token. The engine reports
// phases (Done of Total within each); MCP wants a value that increases
// with every notification, so each phase continues where the previous
// one ended, and a report that would not increase the value is dropped.
type progressSink struct {
	conn  *mcpConn
	token json.RawMessage

	base, done, total int     // the current phase starts at base
	last              float64 // the last value sent; -1 before the first
}

// progressParams are the params of notifications/progress.
type progressParams struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      float64         `json:"progress"`
	Total         float64         `json:"total,omitempty"`
	Message       string          `json:"message,omitempty"`
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
	params := progressParams{ProgressToken: p.token, Progress: v, Message: pr.Message}
	if pr.Total > 0 {
		params.Total = float64(p.base + max(pr.Total, pr.Done))
	}
	// A failed notification (client gone) must not fail the edit.
	p.conn.notify("notifications/progress", params)
}
