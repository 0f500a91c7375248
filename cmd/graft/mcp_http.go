package main

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
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
// proxy. Either way the SDK's DNS-rebinding protection refuses a request
// that reached a loopback address under a non-local Host, and a request
// whose Origin is not local is refused, so a web page elsewhere cannot
// drive the server (a local tool's page, such as an inspector on another
// port, can).
func serveHTTP(c *Context, s *mcpServer, addr, tokenFile string) error {
	var token string
	if tokenFile != "" {
		b, err := os.ReadFile(tokenFile)
		if err != nil {
			return usagef("mcp: --token-file: %v", err)
		}
		token = strings.TrimSpace(string(b))
		if len(token) < 16 {
			return usagef("mcp: --token-file %s: the token must be at least 16 characters", tokenFile)
		}
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("mcp: --http %q: want HOST:PORT (e.g. 127.0.0.1:8765; port 0 picks a free one): %v", addr, err)
	}
	if token == "" && !isLoopbackHost(host) {
		return usagef("mcp: --http %s: serving beyond loopback needs --token-file (and TLS in front)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("mcp: --http: %w", err)
	}
	h := mcpHTTPHandler(s, token)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
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

// mcpHTTPHandler is the HTTP face: /mcp served by the SDK's streamable
// handler behind cross-origin protection and, with a token, bearer
// authentication.
func mcpHTTPHandler(s *mcpServer, token string) http.Handler {
	streamable := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.server },
		&mcp.StreamableHTTPOptions{Logger: s.log, MaxRequestBodyBytes: int64(maxMessageBytes)})
	var h http.Handler = streamable
	if token != "" {
		h = requireBearer(token, h)
	}
	h = localOrigin(h)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	return mux
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

// requireBearer lets through only requests with the token.
func requireBearer(token string, next http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
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
