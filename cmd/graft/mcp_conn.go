package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/graftdev/graft/apply"
)

// mcpConn is the server's side of an MCP session over stdio:
// newline-delimited JSON-RPC 2.0 messages, one per line, as MCP's stdio
// transport defines them. graft speaks the protocol itself (versions
// 2024-11-05 to 2025-11-25, negotiated by initialize) rather than through
// an SDK: the one it used brought HTTP, OAuth and JSON-schema packages
// that every graft process initialised, doubling the start-up of a CLI
// call that never serves MCP.
//
// Bad input never ends the session: a line that is not valid JSON, not a
// JSON-RPC message, or over the size limit is answered with a JSON-RPC
// error (-32700 parse error, -32600 invalid request) carrying the
// request's id when it can be found, and reading goes on. Only the end of
// stdin ends the session, and then only once every request read has been
// answered: a client may write its requests and close stdin, and still
// get every response.
//
// Tool calls run one at a time in the order they arrive (a model's
// parallel tool calls sent back to back land in the order sent), on their
// own goroutine, while every other message (pings, cancellations, lists)
// is answered at once. A call cancelled by notifications/cancelled has
// its context cancelled (a call still queued never runs) and, as MCP
// asks, gets no response.
//
// A line over the size limit is never held in memory whole: its first
// bytes up to the limit are dropped and the rest is streamed through a
// scanner that finds the top-level "id", so that the client's pending
// request fails at once instead of timing out.
type mcpConn struct {
	out io.Writer
	log *slog.Logger
	max int
	srv *mcpServer

	wmu sync.Mutex // one message per write, whole

	mu    sync.Mutex
	calls map[string]*mcpCall // queued and running calls by id
	queue chan *mcpCall

	tools json.RawMessage // the tools/list result, built on first use
}

// mcpCall is one tools/call request.
type mcpCall struct {
	id     json.RawMessage
	tool   *apply.Tool
	args   json.RawMessage
	token  json.RawMessage // the progress token, or nil
	ctx    context.Context
	cancel context.CancelFunc
}

// JSON-RPC error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
)

// mcpVersions are the protocol versions graft speaks, newest first.
var mcpVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

func newMCPConn(out io.Writer, maxMessage int, log *slog.Logger, srv *mcpServer) *mcpConn {
	return &mcpConn{out: out, log: log, max: maxMessage, srv: srv,
		calls: map[string]*mcpCall{}, queue: make(chan *mcpCall, 1024)}
}

// serve reads messages from in until its end, answers them, and returns
// once every tool call read has been answered.
func (c *mcpConn) serve(in io.Reader) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for call := range c.queue {
			c.run(call)
		}
	}()
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, size, big, err := c.readLine(br)
		if big != nil {
			c.reject(big.id(), codeInvalidRequest,
				fmt.Sprintf("message of %d bytes is over the limit of %d bytes: split the edit into smaller calls", size, c.max))
		} else {
			c.handle(line)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				c.log.Debug("mcp: reading stdin", "error", err)
			}
			break
		}
	}
	close(c.queue)
	<-done
}

// readLine returns the next line without its newline. For a line over
// the limit it returns the scanner that read it instead.
func (c *mcpConn) readLine(br *bufio.Reader) (line []byte, size int, big *idScanner, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		if big == nil && len(line)+len(chunk) > c.max {
			big = &idScanner{}
			big.feed(line)
			line = nil
		}
		if big != nil {
			big.feed(chunk)
		} else {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), size, big, err
	}
}

// inMessage is any JSON-RPC message a client sends. Absent members stay
// nil, so that an absent id (a notification) differs from "id": null.
type inMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// handle answers one line. Blank lines are skipped.
func (c *mcpConn) handle(line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	if !json.Valid(line) {
		c.reject(nil, codeParseError, "parse error: the line is not valid JSON")
		return
	}
	if line[0] == '[' {
		c.reject(nil, codeInvalidRequest, "invalid request: JSON-RPC batches are not supported; send one message per line")
		return
	}
	var m inMessage
	if line[0] != '{' {
		c.reject(nil, codeInvalidRequest, "invalid request: a message is a JSON object")
		return
	}
	if err := json.Unmarshal(line, &m); err != nil {
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(line, &probe)
		c.reject(validID(probe.ID), codeInvalidRequest, "invalid request: "+jsonReason(err))
		return
	}
	id := validID(m.ID)
	switch {
	case m.JSONRPC != "2.0":
		c.reject(id, codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	case m.ID != nil && id == nil:
		c.reject(nil, codeInvalidRequest, "invalid request: the id must be a string or a number")
	case m.Method == nil && m.ID != nil && (m.Result != nil || m.Error != nil):
		// A response: graft sends no requests, so there is nothing to do.
		c.log.Debug("mcp: ignoring a response", "id", string(id))
	case m.Method == nil:
		c.reject(id, codeInvalidRequest, `invalid request: no "method"`)
	case m.ID == nil:
		c.notification(*m.Method, m.Params)
	default:
		c.request(id, *m.Method, m.Params)
	}
}

// jsonReason words a decoding error of a message's members.
func jsonReason(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%q must be %s", te.Field, jsonKind(te.Type.String()))
	}
	return err.Error()
}

func jsonKind(goType string) string {
	switch goType {
	case "string", "*string":
		return "a string"
	}
	return "of another type"
}

// request answers a request, or queues it when it is a tool call.
func (c *mcpConn) request(id json.RawMessage, method string, params json.RawMessage) {
	switch method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if !paramsObject(params) || json.Unmarshal(params, &p) != nil {
			c.reject(id, codeInvalidParams, "invalid params: initialize takes an object with protocolVersion")
			return
		}
		version := mcpVersions[0]
		for _, v := range mcpVersions {
			if v == p.ProtocolVersion {
				version = v
			}
		}
		c.log.Debug("mcp: initialize", "client_version", p.ProtocolVersion, "version", version)
		c.respond(id, c.srv.initializeResult(version))
	case "ping":
		c.respond(id, struct{}{})
	case "tools/list":
		c.respond(id, c.toolList())
	case "tools/call":
		c.toolCall(id, params)
	default:
		c.reject(id, codeMethodNotFound, fmt.Sprintf("method not found: %q (graft serves initialize, ping, tools/list and tools/call)", method))
	}
}

// paramsObject accepts absent params, null and an object.
func paramsObject(params json.RawMessage) bool {
	p := bytes.TrimSpace(params)
	return len(p) == 0 || bytes.Equal(p, []byte("null")) || p[0] == '{'
}

func (c *mcpConn) toolList() json.RawMessage {
	if c.tools == nil {
		list := make([]mcpToolJSON, 0, len(c.srv.tools))
		for _, t := range c.srv.tools {
			list = append(list, mcpTool(t))
		}
		var err error
		c.tools, err = marshalJSON(map[string]any{"tools": list})
		if err != nil {
			panic(fmt.Sprintf("mcp: encoding the tool list: %v", err))
		}
	}
	return c.tools
}

// toolCall checks a tools/call request and queues it.
func (c *mcpConn) toolCall(id json.RawMessage, params json.RawMessage) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if p0 := bytes.TrimSpace(params); len(p0) == 0 || p0[0] != '{' || json.Unmarshal(params, &p) != nil {
		c.reject(id, codeInvalidParams, "invalid params: tools/call takes an object with name and arguments")
		return
	}
	t := c.srv.tool(p.Name)
	if t == nil {
		c.reject(id, codeInvalidParams, fmt.Sprintf("unknown tool %q", p.Name))
		return
	}
	if err := checkArguments(p.Arguments); err != nil {
		c.reject(id, codeInvalidParams, fmt.Sprintf("tool %s: %v", t.Name, err))
		return
	}
	call := &mcpCall{id: id, tool: t, args: p.Arguments}
	if tok := validID(p.Meta.ProgressToken); tok != nil {
		call.token = tok
	}
	call.ctx, call.cancel = context.WithCancel(context.Background())
	c.mu.Lock()
	c.calls[idKey(id)] = call
	c.mu.Unlock()
	c.queue <- call
}

// run runs one queued call and answers it, unless it was cancelled. Once
// answered, the file versions the call replaced are freed on another
// goroutine (gitstore.OpenOptions.DeferFrees): freeing them can wait for
// the disk, and the client need not.
func (c *mcpConn) run(call *mcpCall) {
	defer call.cancel()
	defer c.srv.releaseReplaced()
	if call.ctx.Err() != nil {
		c.log.Debug("mcp: cancelled before it ran", "id", string(call.id))
		return
	}
	var sink *progressSink
	if call.token != nil {
		sink = &progressSink{conn: c, token: call.token, last: -1}
	}
	res := c.srv.call(call.ctx, call.tool, call.args, sink)
	c.mu.Lock()
	delete(c.calls, idKey(call.id))
	c.mu.Unlock()
	if call.ctx.Err() != nil {
		c.log.Debug("mcp: cancelled while it ran; no response", "id", string(call.id))
		return
	}
	c.respond(call.id, res)
}

// notification handles a notification: a cancellation stops its call;
// every other one (initialized, progress, roots) needs nothing.
func (c *mcpConn) notification(method string, params json.RawMessage) {
	if method != "notifications/cancelled" {
		return
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || validID(p.RequestID) == nil {
		return
	}
	c.mu.Lock()
	call := c.calls[idKey(p.RequestID)]
	delete(c.calls, idKey(p.RequestID))
	c.mu.Unlock()
	if call != nil {
		c.log.Debug("mcp: cancelling", "id", string(call.id))
		call.cancel()
	}
}

// idKey is an id's canonical text, for matching a cancellation's
// requestId with the request's id.
func idKey(id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return string(id)
	}
	return b.String()
}

// validID returns raw if it is a usable JSON-RPC id (a string or a
// number), else nil (sent as null).
func validID(raw json.RawMessage) json.RawMessage {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return raw
	}
	return nil
}

// respond sends a result.
func (c *mcpConn) respond(id json.RawMessage, result any) {
	c.send(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
}

// reject answers a bad message with a JSON-RPC error response.
func (c *mcpConn) reject(id json.RawMessage, code int64, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	c.log.Debug("mcp: refused a message", "code", code, "id", string(id))
	c.send(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{Code: code, Message: msg}})
}

// notify sends a notification.
func (c *mcpConn) notify(method string, params any) {
	c.send(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", method, params})
}

// send writes one message as one line. A message that cannot be encoded
// (a bug: results arrive encoded) or a failed write (the client is gone)
// is logged; reading ends with stdin.
func (c *mcpConn) send(msg any) {
	data, err := marshalJSON(msg)
	if err != nil {
		c.log.Error("mcp: encoding a message", "error", err)
		return
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.out.Write(append(data, '\n')); err != nil {
		c.log.Debug("mcp: writing stdout", "error", err)
	}
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

// idScanner finds the value of the top-level "id" member of a JSON object
// streamed through it, holding only that value, so that an oversized
// request can still be answered by id. It tracks string and nesting state
// byte by byte; it does not validate the JSON.
type idScanner struct {
	depth      int
	inStr, esc bool
	expectKey  bool   // at depth 1, the next string is a member name
	inKey      bool   // reading a member name at depth 1
	key        []byte // the member name being read (bounded)
	lastKey    string // the last complete member name at depth 1
	capture    bool   // reading the value of "id"
	val        []byte
	found      bool
}

const idScanLimit = 256

func (s *idScanner) feed(p []byte) {
	for _, b := range p {
		if s.capture && len(s.val) < idScanLimit {
			s.val = append(s.val, b)
		}
		if s.inStr {
			switch {
			case s.esc:
				s.esc = false
			case b == '\\':
				s.esc = true
			case b == '"':
				s.inStr = false
				if s.inKey {
					s.inKey, s.lastKey = false, string(s.key)
				}
				continue
			}
			if s.inKey && len(s.key) < 16 {
				s.key = append(s.key, b)
			}
			continue
		}
		switch b {
		case '"':
			s.inStr = true
			if s.depth == 1 && s.expectKey {
				s.inKey, s.expectKey, s.key = true, false, s.key[:0]
			}
		case '{', '[':
			s.depth++
			if s.depth == 1 && b == '{' {
				s.expectKey = true
			}
		case '}', ']':
			if s.depth == 1 && s.capture {
				s.finish()
			}
			s.depth--
		case ':':
			if s.depth == 1 && s.lastKey == "id" && !s.found && !s.capture {
				s.capture, s.val = true, s.val[:0]
			}
		case ',':
			if s.depth == 1 {
				if s.capture {
					s.finish()
				}
				s.expectKey, s.lastKey = true, ""
			}
		}
	}
}

func (s *idScanner) finish() {
	s.capture, s.found = false, true
	s.val = bytes.TrimSpace(bytes.TrimRight(bytes.TrimSpace(s.val), ",}]"))
}

// id returns the id found, if it is a string or a number.
func (s *idScanner) id() json.RawMessage {
	if !s.found {
		return nil
	}
	return validID(s.val)
}
