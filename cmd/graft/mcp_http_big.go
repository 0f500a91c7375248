package main

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
)

// Big calls over HTTP: the bytes of a call's arguments and of its
// structured result pass beside the MCP Go SDK instead of through it.
//
// Why: the SDK's streamable HTTP handler reads a request body whole, then
// decodes it four times (the batch, the JSON-RPC message, the _meta check
// twice, the tool's params), each time through a decoder that first copies
// the input into a buffer of its own, and keeps the params and then the
// arguments as two more copies while the call runs; on the way out it
// encodes a result again at every layer (the CallToolResult, the JSON-RPC
// response, the server-sent event). For a 60 MB edit that made the server's
// peak memory 11–13 times the bytes of the call (docs/BENCHMARKS.md). The
// SDK is not forked: these are a wrapper around its handler and its
// response writer, in two steps, each used only past a size (bigBytes) and
// only over HTTP, so that small calls and stdio are served as before.
//
//   - A tools/call request with a Content-Length past bigBytes is read here
//     into a buffer of its size, once; its "params"."arguments" value is
//     kept aside under the call's ticket, and the SDK is handed the request
//     with "arguments":{} in its place. The tool handler takes the kept
//     arguments back by ticket (the ticket header says which), so the
//     engine decodes the client's bytes, as on every other path.
//   - A structured result past bigBytes is kept aside under the ticket,
//     unencoded (resultJSON), and the SDK encodes a short marker string in
//     its place; the request's response writer (bigWriter) writes the
//     result where the marker is, straight to the connection as it is
//     encoded. The marker holds a random part drawn once per process, so
//     no text of a call can be taken for it.
//
// A request the SDK refuses, or whose answer is never written (the client
// went away), drops what was kept when the request ends.
type bigCalls struct {
	mu      sync.Mutex
	args    map[uint64][]byte      // a call's arguments, by ticket
	results map[uint64]*resultJSON // a call's structured result, by ticket
}

// bigBytes is the size past which a call's arguments or result go beside
// the SDK. Below it the SDK's copies cost little, and the request and
// response are the SDK's own.
var bigBytes = 1 << 20

func newBigCalls() *bigCalls {
	return &bigCalls{args: map[uint64][]byte{}, results: map[uint64]*resultJSON{}}
}

// putArgs keeps the arguments of the call with ticket t.
func (b *bigCalls) putArgs(t uint64, args []byte) {
	b.mu.Lock()
	b.args[t] = args
	b.mu.Unlock()
}

// takeArgs returns and forgets the kept arguments of ticket t.
func (b *bigCalls) takeArgs(t uint64) ([]byte, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a, ok := b.args[t]
	delete(b.args, t)
	return a, ok
}

// marker is the JSON string the SDK encodes in place of ticket t's result.
func (b *bigCalls) marker(t uint64) []byte {
	return []byte(`"graft-structured-content:` + markerNonce() + ":" + strconv.FormatUint(t, 10) + `"`)
}

// putResult keeps ticket t's structured result and returns the marker to
// hand the SDK in its place.
func (b *bigCalls) putResult(t uint64, r *resultJSON) []byte {
	b.mu.Lock()
	b.results[t] = r
	b.mu.Unlock()
	return b.marker(t)
}

// takeResult returns and forgets ticket t's kept result.
func (b *bigCalls) takeResult(t uint64) (*resultJSON, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r, ok := b.results[t]
	delete(b.results, t)
	return r, ok
}

// hasResult reports whether a result is kept for ticket t.
func (b *bigCalls) hasResult(t uint64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.results[t]
	return ok
}

// drop forgets whatever is kept for ticket t (its request has ended).
func (b *bigCalls) drop(t uint64) {
	b.mu.Lock()
	delete(b.args, t)
	delete(b.results, t)
	b.mu.Unlock()
}

// bigWriter is the response writer of a tools/call request: it writes the
// kept result of its ticket where the SDK wrote the marker. The SDK writes
// a message in one Write (an event or a JSON body), so the marker is never
// split between two.
type bigWriter struct {
	http.ResponseWriter
	big    *bigCalls
	ticket func() (uint64, bool) // the request's ticket, once it has one
}

func (w *bigWriter) Write(p []byte) (int, error) {
	t, ok := w.ticket()
	if !ok || !w.big.hasResult(t) {
		return w.ResponseWriter.Write(p)
	}
	m := w.big.marker(t)
	i := bytes.Index(p, m)
	if i < 0 {
		return w.ResponseWriter.Write(p)
	}
	r, _ := w.big.takeResult(t)
	if n, err := w.ResponseWriter.Write(p[:i]); err != nil {
		return n, err
	}
	if err := r.writeTo(w.ResponseWriter); err != nil {
		return i, err
	}
	if n, err := w.ResponseWriter.Write(p[i+len(m):]); err != nil {
		return i + len(m) + n, err
	}
	return len(p), nil
}

// Unwrap lets http.ResponseController reach the connection (the SDK
// flushes each event through it).
func (w *bigWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush passes a flush on (the SDK's and net/http's Flusher checks).
func (w *bigWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// argumentsSpan finds, in a JSON-RPC message body, the value of the
// top-level "method" (as its raw bytes, quotes included) and the span of
// "params"."arguments". ok is false when the body is not one JSON object
// or has no such value; the JSON is not checked beyond what finding them
// needs (the SDK and the engine check it).
func argumentsSpan(body []byte) (method []byte, start, end int, ok bool) {
	i := skipSpace(body, 0)
	if i >= len(body) || body[i] != '{' {
		return nil, 0, 0, false
	}
	start, end = -1, -1
	err := members(body, i, func(key []byte, vs, ve int) bool {
		switch string(key) {
		case `"method"`:
			method = body[vs:ve]
		case `"params"`:
			if body[vs] == '{' {
				_ = members(body, vs, func(k []byte, as, ae int) bool {
					if string(k) == `"arguments"` {
						start, end = as, ae
						return false
					}
					return true
				})
			}
		}
		return true
	})
	return method, start, end, err == nil && start >= 0 && method != nil
}

// members calls f with each member of the object at body[i] (its key as
// raw bytes with quotes, and its value's span) until f returns false; it
// returns errBadJSON when it finds no object there.
func members(body []byte, i int, f func(key []byte, vs, ve int) bool) error {
	i++ // '{'
	for {
		i = skipSpace(body, i)
		if i < len(body) && body[i] == '}' {
			return nil
		}
		if i >= len(body) || body[i] != '"' {
			return errBadJSON
		}
		ke := skipValue(body, i)
		if ke < 0 {
			return errBadJSON
		}
		key := body[i:ke]
		i = skipSpace(body, ke)
		if i >= len(body) || body[i] != ':' {
			return errBadJSON
		}
		vs := skipSpace(body, i+1)
		ve := skipValue(body, vs)
		if ve < 0 {
			return errBadJSON
		}
		if !f(key, vs, ve) {
			return nil
		}
		i = skipSpace(body, ve)
		if i < len(body) && body[i] == ',' {
			i++
			continue
		}
		if i < len(body) && body[i] == '}' {
			return nil
		}
		return errBadJSON
	}
}

type jsonError string

func (e jsonError) Error() string { return string(e) }

const errBadJSON = jsonError("not a JSON object")

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return -1
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := skipValue(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default:
		j := i
	scan:
		for ; j < len(b); j++ {
			switch b[j] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				break scan
			}
		}
		if j == i {
			return -1
		}
		return j
	}
}
