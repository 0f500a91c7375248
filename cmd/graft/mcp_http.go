package main

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveHTTP serves the SDK server over MCP's streamable HTTP transport at
// /mcp on addr, until the process is interrupted.
//
// Who may call: without a token file the address must be a loopback one
// (a server on any other address would let the network edit the
// repository). With --token-file every request must carry
// "Authorization: Bearer TOKEN"; that is meant for a server behind a TLS
// proxy, and a token file other users can read or write is refused. Either
// way the SDK's DNS-rebinding protection refuses a request that reached a
// loopback address under a non-local Host, and a request whose Origin is
// not local is refused, so a web page elsewhere cannot drive the server (a
// local tool's page, such as an inspector on another port, can).
//
// What a client can hold (the server faces untrusted local pages): a
// request's headers must arrive within 10 s and its body within
// bodyTimeout; sessions idle for --session-idle are closed, and at most
// --max-sessions are open at once.
func serveHTTP(c *Context, s *mcpServer, addr string, o httpOptions) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("mcp: --http %q: want HOST:PORT (e.g. 127.0.0.1:8765; port 0 picks a free one): %v", addr, err)
	}
	if o.token == "" && !isLoopbackHost(host) {
		return usagef("mcp: --http %s: serving beyond loopback needs --token-file (and TLS in front)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("mcp: --http: %w", err)
	}
	h := mcpHTTPHandler(s, o)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	fmt.Fprintf(stderrOf(c), "graft mcp: serving MCP (streamable HTTP) at http://%s/mcp\n", ln.Addr())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("mcp: --http: %w", err)
		}
	case <-ctx.Done():
		s.log.Debug("mcp: interrupted, shutting down")
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}
	return nil
}

// httpOptions are the HTTP server's settings: its token, and the bounds on
// what clients can hold.
type httpOptions struct {
	token string
	// sessionIdle closes a session that has had no request for that long
	// (0: never); a client then starts a new one, as MCP says it must on
	// "session not found".
	sessionIdle time.Duration
	// maxSessions bounds the sessions open at once (0: no bound); an
	// initialize past it is answered 503.
	maxSessions int
	// bodyTimeout bounds the time a request's body takes to arrive.
	bodyTimeout time.Duration
}

// The defaults of httpOptions: a session costs about 12 KB, a desktop
// client holds one, and a body of the largest message (64 MiB) takes well
// under a second on loopback and a minute at 1 MB/s behind a proxy.
const (
	defaultSessionIdle = 30 * time.Minute
	defaultMaxSessions = 100
	defaultBodyTimeout = 90 * time.Second
)

// readToken reads the token of --token-file, refusing a file that other
// users can read or write (a token they can read is theirs, one they can
// write they choose).
func readToken(name string) (string, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return "", usagef("mcp: --token-file: %v", err)
	}
	if m := fi.Mode().Perm(); runtime.GOOS != "windows" && m&0o077 != 0 {
		return "", usagef("mcp: --token-file %s: mode %04o lets other users read or write the token: chmod 600 %s", name, m, name)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return "", usagef("mcp: --token-file: %v", err)
	}
	token := strings.TrimSpace(string(b))
	if len(token) < 16 {
		return "", usagef("mcp: --token-file %s: the token must be at least 16 characters", name)
	}
	return token, nil
}

// mcpHTTPHandler is the HTTP face: /mcp served by the SDK's streamable
// handler behind cross-origin protection, with a token bearer
// authentication, and the bounds and call order of httpLimits.
func mcpHTTPHandler(s *mcpServer, o httpOptions) http.Handler {
	if s.big == nil {
		s.big = newBigCalls()
	}
	streamable := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.server },
		&mcp.StreamableHTTPOptions{Logger: s.log, MaxRequestBodyBytes: int64(maxMessageBytes), SessionTimeout: o.sessionIdle})
	var h http.Handler = &httpLimits{s: s, o: o, next: streamable}
	if o.token != "" {
		h = requireBearer(o.token, h)
	}
	h = localOrigin(h)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	return mux
}

// ticketHeader carries, from httpLimits to the tool handler, the turn a
// tools/call request took when it arrived (turns.go). A client's own
// header of that name is dropped.
const ticketHeader = "Graft-Internal-Ticket"

// ticketTaken, when set (by a test), is told each ticket an HTTP request
// takes, with the request's headers.
var ticketTaken func(ticket uint64, h http.Header)

func parseTicket(v string) (uint64, bool) {
	t, err := strconv.ParseUint(v, 10, 64)
	return t, err == nil && v != ""
}

// httpLimits bounds what one request and all sessions hold, and gives a
// tools/call its turn when its body has arrived whole (first come, first
// served: turns.go).
type httpLimits struct {
	s    *mcpServer
	o    httpOptions
	next http.Handler

	mu       sync.Mutex
	creating int // requests that may be opening a session now
}

func (l *httpLimits) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r.Header.Del(ticketHeader)
	if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" && l.o.maxSessions > 0 {
		// A request without a session opens one.
		l.mu.Lock()
		n := l.creating
		for range l.s.server.Sessions() {
			n++
		}
		if n >= l.o.maxSessions {
			l.mu.Unlock()
			http.Error(w, fmt.Sprintf("Service Unavailable: %d sessions are open, the most this server keeps (graft mcp --max-sessions raises it); "+
				"close one (DELETE /mcp) or wait for an idle one to expire (--session-idle %s)", n, l.o.sessionIdle), http.StatusServiceUnavailable)
			return
		}
		l.creating++
		l.mu.Unlock()
		defer func() {
			l.mu.Lock()
			l.creating--
			l.mu.Unlock()
		}()
	}
	if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
		l.next.ServeHTTP(w, r)
		return
	}
	if l.s.big != nil && r.ContentLength > int64(bigBytes) && r.ContentLength <= int64(maxMessageBytes) {
		// A big request: read here, its arguments kept beside the SDK
		// (mcp_http_big.go).
		l.serveBig(w, r)
		return
	}
	b := &arrivingBody{ReadCloser: r.Body, r: r, turns: l.s.turns, scan: idScanner{member: "method"}}
	if l.o.bodyTimeout > 0 {
		// The whole body must arrive in time; then the connection has no
		// read deadline again (net/http would cancel the request when its
		// background read timed out, and a call may run for long).
		b.rc = http.NewResponseController(w)
		_ = b.rc.SetReadDeadline(time.Now().Add(l.o.bodyTimeout))
	}
	r.Body = b
	defer b.end()
	if l.s.big != nil {
		// Its result may be big: written beside the SDK (mcp_http_big.go).
		defer func() {
			if b.taken {
				l.s.big.drop(b.ticket)
			}
		}()
		w = &bigWriter{ResponseWriter: w, big: l.s.big, ticket: func() (uint64, bool) { return b.ticket, b.taken }}
	}
	l.next.ServeHTTP(w, r)
}

// serveBig serves a request whose Content-Length is past bigBytes: the
// body is read into a buffer of its size, and a tools/call's arguments are
// kept aside under its ticket while the SDK gets the message with empty
// ones (mcp_http_big.go). Any other message goes on to the SDK as it came,
// through arrivingBody.
func (l *httpLimits) serveBig(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	if l.o.bodyTimeout > 0 {
		_ = rc.SetReadDeadline(time.Now().Add(l.o.bodyTimeout))
	}
	body := make([]byte, r.ContentLength)
	if _, err := io.ReadFull(r.Body, body); err != nil {
		// As the SDK answers a body it could not read. (The deadline
		// stays: net/http reads what is left before answering.)
		http.Error(w, "failed to read body", http.StatusBadRequest)
		return
	}
	if l.o.bodyTimeout > 0 {
		_ = rc.SetReadDeadline(time.Time{})
	}
	method, start, end, ok := argumentsSpan(body)
	if !ok || string(method) != `"tools/call"` {
		r.Body = io.NopCloser(bytes.NewReader(body))
		b := &arrivingBody{ReadCloser: r.Body, r: r, turns: l.s.turns, scan: idScanner{member: "method"}}
		r.Body = b
		defer b.end()
		l.next.ServeHTTP(w, r)
		return
	}
	// The session the call is queued in is the one it is attributed to
	// (turns.sessionOf), as in arrivingBody.
	ticket := l.s.turns.take(r.Header.Get("Mcp-Session-Id"))
	defer l.s.turns.done(ticket) // a turn the SDK did not use
	defer l.s.big.drop(ticket)
	r.Header.Set(ticketHeader, strconv.FormatUint(ticket, 10))
	if ticketTaken != nil {
		ticketTaken(ticket, r.Header)
	}
	small := make([]byte, 0, len(body)-(end-start)+2)
	small = append(append(append(small, body[:start]...), "{}"...), body[end:]...)
	l.s.big.putArgs(ticket, body[start:end])
	r.Body = io.NopCloser(bytes.NewReader(small))
	r.ContentLength = int64(len(small))
	l.next.ServeHTTP(&bigWriter{ResponseWriter: w, big: l.s.big, ticket: func() (uint64, bool) { return ticket, true }}, r)
}

// arrivingBody is a request body on its way in: it watches for the
// top-level "method" as the bytes pass, and when the body has arrived
// whole it lifts the read deadline and, for a tools/call, takes the call's
// turn and stamps it on the request for the tool handler.
type arrivingBody struct {
	io.ReadCloser
	r      *http.Request
	rc     *http.ResponseController
	turns  *turns
	scan   idScanner
	over   bool // the body arrived whole
	ticket uint64
	taken  bool
}

func (b *arrivingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.over {
		return n, err
	}
	b.scan.feed(p[:n])
	if errors.Is(err, io.EOF) {
		// Whole. (A body cut short keeps its deadline: net/http reads
		// what is left of it before answering, and that read must end.)
		b.over = true
		if b.rc != nil {
			_ = b.rc.SetReadDeadline(time.Time{})
		}
		if method, ok := b.scan.str(); ok && method == "tools/call" {
			// Read on the goroutine serving the request, before the SDK
			// hands the call on: the header map is the one the tool
			// handler sees (RequestExtra.Header).
			// The session the call is queued in is the one it is
			// attributed to (turns.sessionOf).
			b.ticket, b.taken = b.turns.take(b.r.Header.Get("Mcp-Session-Id")), true
			b.r.Header.Set(ticketHeader, strconv.FormatUint(b.ticket, 10))
			if ticketTaken != nil {
				ticketTaken(b.ticket, b.r.Header)
			}
		}
	}
	return n, err
}

// end is when the request is answered: a turn its call did not use (the
// SDK refused the request) is given up.
func (b *arrivingBody) end() {
	if b.taken {
		b.turns.done(b.ticket)
	}
}

// localOrigin refuses a request whose Origin header names a host that is
// not local: a browser page elsewhere must not reach the server, even
// through a simple request that cross-origin protection lets pass.
func localOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" {
			host := o
			if i := strings.Index(host, "://"); i >= 0 {
				host = host[i+3:]
			}
			if h, _, err := net.SplitHostPort(host); err == nil {
				host = h
			}
			if !isLoopbackHost(host) {
				http.Error(w, fmt.Sprintf("Forbidden: Origin %q is not local", o), http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// requireBearer lets through only requests with the token. The scheme
// name is read in any letter case, as HTTP's are (RFC 9110, 11.1).
func requireBearer(token string, next http.Handler) http.Handler {
	want := []byte(token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="graft"`)
			http.Error(w, "Unauthorized: send Authorization: Bearer <token from --token-file>", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isLoopbackHost reports whether host (a name or an IP, brackets allowed)
// is this machine's loopback.
func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
