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

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveStdio serves the SDK server on stdin and stdout until stdin ends
// and every request read from it has been answered.
func serveStdio(c *Context, s *mcpServer) error {
	conn := newLineConn(c.Stdin, c.Stdout, maxMessageBytes, s.log)
	err := s.server.Run(context.Background(), &lineTransport{conn})
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
		s.log.Debug("mcp: session ended", "error", err)
	}
	s.log.Debug("mcp: stdin closed, shutting down")
	return nil
}

// lineTransport hands the SDK one lineConn.
type lineTransport struct{ conn *lineConn }

// Connect implements mcp.Transport.
func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) { return t.conn, nil }

// lineConn is MCP's stdio transport (newline-delimited JSON-RPC) for the
// SDK, with two things the SDK's own StdioTransport does not do, and that
// a server driven by a model needs:
//
//   - Bad input never ends the session. The SDK's transport stops at the
//     first line that is not JSON; here a line that is not valid JSON, not
//     a JSON-RPC message, or over the size limit is answered with a
//     JSON-RPC error (-32700 parse error, -32600 invalid request) carrying
//     the request's id when it can be found, and reading goes on. A line
//     over the limit is never held whole: the bytes past the limit are
//     streamed through idScanner, which keeps only the top-level "id".
//   - Tool calls run in the order they arrive. The SDK dispatches requests
//     concurrently; a model's parallel tool calls, sent back to back, must
//     land in the order sent. tools/call requests are held in a queue and
//     handed to the SDK one at a time, the next once the previous one's
//     response is written. Every other message (pings, cancellations,
//     lists) passes at once, and a cancellation of a call still queued
//     drops it: it never runs, and gets no response, as MCP asks.
//
// The end of stdin ends the session only once every request read has
// been answered: a client may write its requests and close stdin, and
// still get every response. Messages are decoded and encoded by the SDK's
// jsonrpc package; this type only frames them.
type lineConn struct {
	out io.Writer
	log *slog.Logger
	max int

	wmu sync.Mutex // one message per write, whole

	mu      sync.Mutex
	changed chan struct{}     // closed and replaced on every state change
	ready   []jsonrpc.Message // read, not yet handed to the SDK, in order
	calls   int               // tools/call requests in ready
	running jsonrpc.ID        // the tools/call the SDK is running, if valid
	pending map[jsonrpc.ID]bool
	eof     bool // stdin ended
	closed  bool
}

func newLineConn(in io.Reader, out io.Writer, maxMessage int, log *slog.Logger) *lineConn {
	c := &lineConn{out: out, log: log, max: maxMessage, changed: make(chan struct{}), pending: map[jsonrpc.ID]bool{}}
	go c.readAll(in)
	return c
}

// SessionID implements mcp.Connection: stdio has no session id.
func (c *lineConn) SessionID() string { return "" }

// broadcast wakes Read; c.mu must be held.
func (c *lineConn) broadcast() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// Read implements mcp.Connection: the next message the SDK may handle.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			return nil, mcp.ErrConnectionClosed
		}
		for i, m := range c.ready {
			req, isReq := m.(*jsonrpc.Request)
			isCall := isReq && req.Method == "tools/call" && req.ID.IsValid()
			if isCall && c.running.IsValid() {
				continue // one call at a time, in order
			}
			c.ready = append(c.ready[:i], c.ready[i+1:]...)
			if isCall {
				c.calls--
				c.running = req.ID
			}
			if isReq && req.ID.IsValid() {
				c.pending[req.ID] = true
			}
			c.mu.Unlock()
			return m, nil
		}
		if c.eof && len(c.ready) == 0 && len(c.pending) == 0 {
			c.mu.Unlock()
			return nil, io.EOF
		}
		wait := c.changed
		c.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Write implements mcp.Connection. A response to the running call lets
// the next queued call through.
func (c *lineConn) Write(ctx context.Context, m jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		return err
	}
	err = c.writeLine(data)
	if resp, ok := m.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.pending, resp.ID)
		if c.running == resp.ID {
			c.running = jsonrpc.ID{}
		}
		c.broadcast()
		c.mu.Unlock()
	}
	return err
}

// Close implements mcp.Connection.
func (c *lineConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.closed = true
		c.broadcast()
	}
	return nil
}

// writeLine writes one message as one line.
func (c *lineConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.out.Write(append(data, '\n')); err != nil {
		c.log.Debug("mcp: writing stdout", "error", err)
		return err
	}
	return nil
}

// readAll reads stdin to its end, queueing messages and answering bad
// lines itself.
func (c *lineConn) readAll(in io.Reader) {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, size, big, err := c.readLine(br)
		if big != nil {
			c.reject(big.id(), jsonrpc.CodeInvalidRequest,
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
	c.mu.Lock()
	c.eof = true
	c.broadcast()
	c.mu.Unlock()
}

// readLine returns the next line without its newline. For a line over
// the limit it returns the scanner that read it instead.
func (c *lineConn) readLine(br *bufio.Reader) (line []byte, size int, big *idScanner, err error) {
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

// handle queues the message on one line, or answers a bad one. Blank
// lines are skipped.
func (c *lineConn) handle(line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	if !json.Valid(line) {
		c.reject(nil, jsonrpc.CodeParseError, "parse error: the line is not valid JSON")
		return
	}
	switch line[0] {
	case '{':
	case '[':
		c.reject(nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported; send one message per line")
		return
	default:
		c.reject(nil, jsonrpc.CodeInvalidRequest, "invalid request: a message is a JSON object")
		return
	}
	m, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(line, &probe)
		c.reject(validID(probe.ID), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if req, ok := m.(*jsonrpc.Request); ok && req.Method == "notifications/cancelled" && c.dropQueued(req.Params) {
		return
	}
	c.ready = append(c.ready, m)
	c.broadcast()
}

// dropQueued removes the queued call a cancellation names, if it is
// still queued; c.mu must be held.
func (c *lineConn) dropQueued(params json.RawMessage) bool {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil || !id.IsValid() {
		return false
	}
	for i, m := range c.ready {
		if req, ok := m.(*jsonrpc.Request); ok && req.Method == "tools/call" && req.ID == id {
			c.ready = append(c.ready[:i], c.ready[i+1:]...)
			c.log.Debug("mcp: cancelled before it ran", "id", fmt.Sprint(id.Raw()))
			return true
		}
	}
	return false
}

// reject answers a bad message with a JSON-RPC error response.
func (c *lineConn) reject(id json.RawMessage, code int64, msg string) {
	var rid jsonrpc.ID
	if id != nil {
		var v any
		_ = json.Unmarshal(id, &v)
		rid, _ = jsonrpc.MakeID(v)
	}
	c.log.Debug("mcp: refused a message", "code", code, "id", string(id))
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: rid, Error: &jsonrpc.Error{Code: code, Message: msg}})
	if err != nil {
		c.log.Error("mcp: encoding an error", "error", err)
		return
	}
	_ = c.writeLine(data)
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

// idScanner finds the value of the top-level "id" member (or of the
// member named member) of a JSON object streamed through it, holding only
// that value, so that an oversized request can still be answered by id,
// and an HTTP request told to be a tools/call without being held. It
// tracks string and nesting state byte by byte, and stops looking once it
// has found the member; it does not validate the JSON.
type idScanner struct {
	member     string // the member sought; "" for "id"
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
	if s.found {
		return
	}
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
			if s.depth == 1 && s.lastKey == s.want() && !s.found && !s.capture {
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

func (s *idScanner) want() string {
	if s.member == "" {
		return "id"
	}
	return s.member
}

// str returns the member's value when it is a JSON string.
func (s *idScanner) str() (string, bool) {
	var v string
	if !s.found || json.Unmarshal(s.val, &v) != nil {
		return "", false
	}
	return v, true
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
