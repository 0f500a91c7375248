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

// mcpConn is the server's stdio connection: newline-delimited JSON-RPC
// messages, one per line, as MCP's stdio transport defines them.
//
// It differs from the SDK's own stdio transport in one way that matters
// to a server an agent depends on: bad input never ends the session. The
// SDK's transport closes the connection on the first line that is not
// valid JSON, not a JSON-RPC message, or over its size limit; here such a
// line is answered with a JSON-RPC error (-32700 parse error, -32600
// invalid request) carrying the request's id when it can be found, and
// reading goes on. Only the end of stdin ends the session, and then only
// once every request read has been answered: a client may write its
// requests and close stdin, and still get every response.
//
// Tool calls run in the order they arrive. The SDK runs requests
// concurrently, so two calls sent back to back (a model's parallel tool
// calls) could otherwise land in either order; the connection holds each
// tools/call back until the one before it has been answered, while every
// other message (cancellations, pings) passes at once.
//
// A line over the size limit is never held in memory whole: its first
// bytes up to the limit are dropped and the rest is streamed through a
// scanner that finds the top-level "id", so that the client's pending
// request fails at once instead of timing out.
type mcpConn struct {
	out io.Writer
	log *slog.Logger
	max int

	wmu    sync.Mutex // one message per Write, whole
	msgs   chan jsonrpc.Message
	closed chan struct{}
	once   sync.Once

	pmu      sync.Mutex
	pending  map[jsonrpc.ID]bool // requests read and not yet answered
	drained  chan struct{}       // closed when pending empties after EOF
	eof      bool
	held     []*jsonrpc.Request // tool calls waiting for their turn
	inFlight *jsonrpc.ID        // the tool call handed to the SDK, unanswered
	answered chan struct{}      // signalled when inFlight is answered

	msgsDone bool // Read has seen the end of msgs (used by Read only)
}

var _ mcp.Connection = (*mcpConn)(nil)
var _ mcp.Transport = (*mcpConn)(nil)

// newMCPConn starts reading messages from in; replies go to out.
func newMCPConn(in io.Reader, out io.Writer, maxMessage int, log *slog.Logger) *mcpConn {
	c := &mcpConn{out: out, log: log, max: maxMessage,
		msgs: make(chan jsonrpc.Message), closed: make(chan struct{}),
		pending: map[jsonrpc.ID]bool{}, drained: make(chan struct{}), answered: make(chan struct{}, 1)}
	go c.readLoop(bufio.NewReaderSize(in, 64<<10))
	return c
}

// Connect makes the connection its own transport, for mcp.Server.Run.
func (c *mcpConn) Connect(context.Context) (mcp.Connection, error) { return c, nil }

// readLoop reads lines until the end of input, handing good messages to
// Read and answering bad ones itself.
func (c *mcpConn) readLoop(br *bufio.Reader) {
	defer close(c.msgs)
	for {
		line, size, big, err := c.readLine(br)
		if big != nil {
			c.reject(big.id(), jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("message of %d bytes is over the limit of %d bytes: split the edit into smaller calls", size, c.max))
		} else if msg := c.decode(line); msg != nil {
			if r, ok := msg.(*jsonrpc.Request); ok && r.IsCall() {
				c.pmu.Lock()
				c.pending[r.ID] = true
				c.pmu.Unlock()
			}
			select {
			case c.msgs <- msg:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				c.log.Debug("mcp: reading stdin", "error", err)
			}
			return
		}
	}
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

// decode parses one line into a message, or answers it with an error and
// returns nil. Blank lines are skipped.
func (c *mcpConn) decode(line []byte) jsonrpc.Message {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	if !json.Valid(line) {
		c.reject(nil, jsonrpc.CodeParseError, "parse error: the line is not valid JSON")
		return nil
	}
	if line[0] == '[' {
		c.reject(nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported; send one message per line")
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(line, &probe)
		c.reject(validID(probe.ID), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil
	}
	return msg
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

// reject answers a bad message with a JSON-RPC error response.
func (c *mcpConn) reject(id json.RawMessage, code int64, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	c.log.Debug("mcp: bad message", "code", code, "id", string(id))
	resp := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: msg}}
	data, err := json.Marshal(resp)
	if err == nil {
		err = c.writeLine(data)
	}
	if err != nil {
		c.log.Debug("mcp: writing an error response", "error", err)
	}
}

// Read returns the next message; io.EOF once stdin has ended and every
// request has been answered, or the connection is closed. Tool calls are
// handed out one at a time, in arrival order (see mcpConn).
func (c *mcpConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.pmu.Lock()
		if c.inFlight == nil && len(c.held) > 0 {
			r := c.held[0]
			c.held = c.held[1:]
			c.inFlight = &r.ID
			c.pmu.Unlock()
			return r, nil
		}
		c.pmu.Unlock()
		msgs, drained := c.msgs, c.drained
		if c.msgsDone {
			msgs = nil
		} else {
			drained = nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case <-c.answered:
		case <-drained:
			return nil, io.EOF
		case msg, ok := <-msgs:
			if !ok {
				c.msgsDone = true
				c.pmu.Lock()
				c.eof = true
				if len(c.pending) == 0 {
					close(c.drained)
				}
				c.pmu.Unlock()
				continue
			}
			if r, ok := msg.(*jsonrpc.Request); ok && r.IsCall() && r.Method == "tools/call" {
				c.pmu.Lock()
				c.held = append(c.held, r)
				c.pmu.Unlock()
				continue
			}
			return msg, nil
		}
	}
}

// Write sends one message as one line.
func (c *mcpConn) Write(_ context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	err = c.writeLine(data)
	if r, ok := msg.(*jsonrpc.Response); ok {
		c.pmu.Lock()
		if c.pending[r.ID] {
			delete(c.pending, r.ID)
			if c.eof && len(c.pending) == 0 {
				close(c.drained)
			}
		}
		if c.inFlight != nil && *c.inFlight == r.ID {
			c.inFlight = nil
			select {
			case c.answered <- struct{}{}:
			default:
			}
		}
		c.pmu.Unlock()
	}
	return err
}

func (c *mcpConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	select {
	case <-c.closed:
		return errors.New("mcp: connection closed")
	default:
	}
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// Close stops the connection; it does not close stdin or stdout, which
// belong to the process.
func (c *mcpConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID is empty: stdio has no sessions.
func (c *mcpConn) SessionID() string { return "" }

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
