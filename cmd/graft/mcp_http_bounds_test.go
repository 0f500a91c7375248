package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// post sends one JSON-RPC message to /mcp, with the session id when it is
// not empty, and returns the response with its body read.
func post(t *testing.T, url, session, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

// session opens an initialized session and returns its id.
func session(t *testing.T, url string) string {
	t.Helper()
	resp, body := post(t, url, "", initBody, nil)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(t, url, id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", resp.StatusCode, body)
	}
	return id
}

// Calls land in the order the server received them, first come, first
// served, whatever order the SDK's goroutines reach the handler in: twelve
// parallel edit_lines inserts from one client, held until all twelve have
// arrived, land in their order of arrival (issue 32 item 9).
func TestMCPHTTPCallsLandInArrivalOrder(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "end\n"})
	ts, s := httpServerWith(t, dir, httpOptions{bodyTimeout: time.Minute})
	id := session(t, ts.URL)

	var mu sync.Mutex
	arrived := map[uint64]string{} // ticket: the call's own name
	all := make(chan struct{})
	ticketTaken = func(ticket uint64, h http.Header) {
		mu.Lock()
		defer mu.Unlock()
		arrived[ticket] = h.Get("Test-Call")
		if len(arrived) == 12 {
			close(all)
		}
	}
	t.Cleanup(func() { ticketTaken = nil })
	hold := s.turns.take("") // the engine is busy until every call has arrived

	var wg sync.WaitGroup
	for k := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"edit_lines","arguments":{"command":"insert","path":"a.txt","insert_line":0,"new_content":"call %d"}}}`, 10+k, k)
			resp, out := post(t, ts.URL, id, body, map[string]string{"Test-Call": fmt.Sprint(k)})
			if resp.StatusCode != http.StatusOK || strings.Contains(out, `"isError":true`) {
				t.Errorf("call %d: %d %s", k, resp.StatusCode, out)
			}
		}()
	}
	select {
	case <-all:
	case <-time.After(20 * time.Second):
		t.Fatalf("only %d of 12 calls arrived", len(arrived))
	}
	s.turns.done(hold)
	wg.Wait()

	// Each call inserted at the top: the file lists them last landed
	// first. They must have landed in ticket order.
	b, _ := os.ReadFile(filepath.Join(dir, "a.txt"))
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var want []string
	for ticket := hold + 12; ticket > hold; ticket-- {
		want = append(want, "call "+arrived[ticket])
	}
	want = append(want, "end")
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("landing order (top is last):\n got %v\nwant %v (the order of arrival)", lines, want)
	}
}

// The turn queue runs tickets in their order, whatever order their calls
// come to wait in.
func TestTurnsFirstComeFirstServed(t *testing.T) {
	q := newTurns()
	var tickets []uint64
	for range 12 {
		tickets = append(tickets, q.take(""))
	}
	var mu sync.Mutex
	var order []uint64
	var wg sync.WaitGroup
	for i := len(tickets) - 1; i >= 0; i-- { // the last comes first
		wg.Add(1)
		go func(tk uint64) {
			defer wg.Done()
			if err := q.wait(context.Background(), tk); err != nil {
				t.Error(err)
			}
			mu.Lock()
			order = append(order, tk)
			mu.Unlock()
			q.done(tk)
		}(tickets[i])
	}
	wg.Wait()
	if fmt.Sprint(order) != fmt.Sprint(tickets) {
		t.Errorf("ran %v, want %v", order, tickets)
	}
	// A cancelled wait leaves its ticket to be done, and then holds up
	// no one.
	a, b := q.take(""), q.take("")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := q.wait(ctx, b); err == nil {
		t.Fatal("wait behind an open ticket returned with a cancelled context")
	}
	q.done(a)
	if err := q.wait(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	q.done(b)
}

// Idle sessions expire, and no more than --max-sessions are open at once
// (issue 32 item 11).
func TestMCPHTTPSessionBounds(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "a\n"})
	ts, s := httpServerWith(t, dir, httpOptions{maxSessions: 2, bodyTimeout: time.Minute})
	a, b := session(t, ts.URL), session(t, ts.URL)
	resp, body := post(t, ts.URL, "", initBody, nil)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "--max-sessions") {
		t.Errorf("a third session: %d %s, want 503 naming --max-sessions", resp.StatusCode, body)
	}
	req, _ := http.NewRequest("DELETE", ts.URL+"/mcp", nil)
	req.Header.Set("Mcp-Session-Id", a)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", err, resp)
	}
	c := session(t, ts.URL)
	if n := countSessions(s); n != 2 {
		t.Errorf("%d sessions open, want 2", n)
	}
	_, _ = b, c

	// A session that makes no request for --session-idle is closed; the
	// client gets "session not found" and starts a new one.
	ts, s = httpServerWith(t, dir, httpOptions{sessionIdle: 50 * time.Millisecond, maxSessions: 2, bodyTimeout: time.Minute})
	id := session(t, ts.URL)
	deadline := time.Now().Add(20 * time.Second)
	for countSessions(s) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := countSessions(s); n != 0 {
		t.Fatalf("%d sessions still open past their idle time", n)
	}
	if resp, body := post(t, ts.URL, id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an expired session: %d %s, want 404", resp.StatusCode, body)
	}
}

func countSessions(s *mcpServer) int {
	n := 0
	for range s.server.Sessions() {
		n++
	}
	return n
}

// A request body that trickles in is cut off at the body deadline: the
// connection does not stay open however slowly the client writes.
func TestMCPHTTPBodyDeadline(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "a\n"})
	ts, _ := httpServerWith(t, dir, httpOptions{bodyTimeout: 100 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":")
	// The client writes nothing more. The server must answer or close
	// within the deadline (the bound below only ends a failing test).
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	status, err := bufio.NewReader(conn).ReadString('\n')
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the server kept a trickling request open")
	}
	if err == nil && !strings.Contains(status, " 400 ") {
		t.Errorf("a body past its deadline: %q, want 400 or a closed connection", status)
	}
}

// A token file others can read or write is refused; the scheme Bearer
// is read in any letter case.
func TestMCPHTTPTokenFile(t *testing.T) {
	token := "0123456789abcdef-secret"
	name := filepath.Join(t.TempDir(), "token")
	os.WriteFile(name, []byte(token+"\n"), 0o600)
	if got, err := readToken(name); err != nil || got != token {
		t.Fatalf("mode 600: %q %v", got, err)
	}
	for _, mode := range []os.FileMode{0o644, 0o620, 0o604} {
		os.Chmod(name, mode)
		if _, err := readToken(name); err == nil || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("mode %04o: %v, want a refusal saying chmod 600", mode, err)
		}
	}

	dir := gitRepo(t, map[string]string{"a.txt": "a\n"})
	ts := httpServer(t, dir, token)
	for auth, want := range map[string]int{
		"Bearer " + token: http.StatusOK, "bearer " + token: http.StatusOK, "BEARER " + token: http.StatusOK,
		"Basic " + token: http.StatusUnauthorized, "Bearer": http.StatusUnauthorized, "bearer x" + token: http.StatusUnauthorized,
	} {
		if resp, body := post(t, ts.URL, "", initBody, map[string]string{"Authorization": auth}); resp.StatusCode != want {
			t.Errorf("Authorization %q: %d %s, want %d", auth, resp.StatusCode, body, want)
		}
	}
}
