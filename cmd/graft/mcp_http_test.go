package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer serves the default tools on dir over streamable HTTP on a
// loopback port.
func httpServer(t *testing.T, dir, token string) *httptest.Server {
	t.Helper()
	ts, _ := httpServerWith(t, dir, httpOptions{token: token, sessionIdle: defaultSessionIdle, maxSessions: defaultMaxSessions, bodyTimeout: defaultBodyTimeout})
	return ts
}

// httpServerWith is httpServer with options, and the server behind it.
func httpServerWith(t *testing.T, dir string, o httpOptions) (*httptest.Server, *mcpServer) {
	t.Helper()
	tools, err := selectTools(apply.Tools(), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	s := &mcpServer{tools: tools, log: slog.New(slog.NewTextHandler(io.Discard, nil)), turns: newTurns()}
	if s.engine, err = apply.Open(apply.Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	s.server = s.newSDKServer()
	ts := httptest.NewServer(mcpHTTPHandler(s, o))
	t.Cleanup(ts.Close)
	return ts, s
}

// bearer adds a token to every request of a client.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

func TestMCPHTTP(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "one\ntwo\n"})
	const token = "0123456789abcdef-secret"
	ts := httpServer(t, dir, token)
	ctx := context.Background()

	// The official client over streamable HTTP, with the token.
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "edit", Arguments: map[string]any{"filePath": "a.txt", "oldString": "two", "newString": "2"}})
	if err != nil || res.IsError {
		t.Fatalf("edit over HTTP: %v %+v", err, res)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "one\n2\n" {
		t.Errorf("a.txt = %q", b)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "edit", Arguments: map[string]any{"filePath": "a.txt", "oldString": "absent", "newString": "x"}})
	if err != nil || !res.IsError {
		t.Fatalf("a refusal is a tool error: %v %+v", err, res)
	}

	// Refused before MCP: no token, a wrong token, another Origin, a
	// non-local Host (DNS rebinding).
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, c := range []struct {
		name   string
		header map[string]string
		host   string
		want   int
	}{
		{"no token", nil, "", http.StatusUnauthorized},
		{"wrong token", map[string]string{"Authorization": "Bearer nope"}, "", http.StatusUnauthorized},
		{"foreign origin", map[string]string{"Authorization": "Bearer " + token, "Origin": "https://evil.example"}, "", http.StatusForbidden},
		{"rebinding host", map[string]string{"Authorization": "Bearer " + token}, "evil.example", http.StatusForbidden},
		{"local origin", map[string]string{"Authorization": "Bearer " + token, "Origin": "http://localhost:3000"}, "", http.StatusOK},
	} {
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		if c.host != "" {
			req.Host = c.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, c.want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "one\n2\n" {
		t.Errorf("a.txt changed by refused requests: %q", b)
	}
}

func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{"127.0.0.1": true, "localhost": true, "[::1]": true, "::1": true, "127.1.2.3": true,
		"0.0.0.0": false, "10.0.0.1": false, "example.com": false, "": false} {
		if got := isLoopbackHost(host); got != want {
			t.Errorf("isLoopbackHost(%q) = %v", host, got)
		}
	}
}
