package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// openSessions counts srv's initialized sessions, waiting up to 10 s for
// want.
func openSessions(t *testing.T, srv *mcp.Server, want int) {
	t.Helper()
	n := 0
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		n = 0
		for ss := range srv.Sessions() {
			if ss.InitializeParams() != nil {
				n++
			}
		}
		if n == want {
			return
		}
	}
	t.Fatalf("%d sessions open, want %d", n, want)
}

func dial(ctx context.Context, url string) (*mcp.ClientSession, error) {
	tr := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}
	return mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, tr, nil)
}

// TestHTTPSessionCap: real clients over HTTP open sessions up to the cap;
// the next is refused with 503 and a JSON error until one ends.
func TestHTTPSessionCap(t *testing.T) {
	eng, _ := newEngine(t, true)
	srv := New(eng, testInfo)
	ts := httptest.NewServer(HTTPHandler(srv, HTTPOptions{MaxSessions: 2}))
	defer ts.Close()
	ctx := context.Background()
	var sessions []*mcp.ClientSession
	for range 2 {
		cs, err := dial(ctx, ts.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		call(t, cs, "list", args{})
		sessions = append(sessions, cs)
	}
	if cs, err := dial(ctx, ts.URL); err == nil {
		cs.Close()
		t.Fatal("a third session opened over a cap of 2")
	}
	req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Error struct{ Code, Message string }
	}
	json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || body.Error.Code != "EUNAVAILABLE" ||
		!strings.Contains(body.Error.Message, "limit of 2 open MCP sessions") || !strings.Contains(body.Error.Message, "server.mcp_max_sessions") {
		t.Fatalf("over the cap: %d %+v", resp.StatusCode, body)
	}
	call(t, sessions[1], "list", args{}) // the open sessions still work
	sessions[0].Close()                  // DELETE /mcp
	openSessions(t, srv, 1)
	cs, err := dial(ctx, ts.URL)
	if err != nil {
		t.Fatalf("a session after one ended: %v", err)
	}
	defer cs.Close()
	call(t, cs, "list", args{})
}

// initialize opens a session by hand.
func initialize(url string) (*http.Response, error) {
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	return http.DefaultClient.Do(req)
}

// TestHTTPSessionCapConcurrent: initialize requests at once cannot open
// more sessions than the cap together.
func TestHTTPSessionCapConcurrent(t *testing.T) {
	eng, _ := newEngine(t, true)
	srv := New(eng, testInfo)
	ts := httptest.NewServer(HTTPHandler(srv, HTTPOptions{MaxSessions: 3}))
	defer ts.Close()
	var wg sync.WaitGroup
	var opened, refused atomic.Int32
	for range 20 {
		wg.Go(func() {
			resp, err := initialize(ts.URL)
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			switch resp.StatusCode {
			case http.StatusOK:
				opened.Add(1)
			case http.StatusServiceUnavailable:
				refused.Add(1)
			}
		})
	}
	wg.Wait()
	if opened.Load() > 3 || opened.Load()+refused.Load() != 20 {
		t.Fatalf("%d sessions opened, %d refused, with a cap of 3", opened.Load(), refused.Load())
	}
	openSessions(t, srv, int(opened.Load()))
}

// TestHTTPSessionTimeout: a session idle for the timeout is closed, which
// makes room under the cap; one in use stays.
func TestHTTPSessionTimeout(t *testing.T) {
	eng, _ := newEngine(t, true)
	srv := New(eng, testInfo)
	ts := httptest.NewServer(HTTPHandler(srv, HTTPOptions{MaxSessions: 1, SessionTimeout: 300 * time.Millisecond}))
	defer ts.Close()
	ctx := context.Background()
	idle, err := dial(ctx, ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	openSessions(t, srv, 0) // closed by the server after 300 ms without a request
	if _, err := idle.CallTool(ctx, &mcp.CallToolParams{Name: "list", Arguments: args{}}); err == nil {
		t.Fatal("an expired session still answers")
	}
	busy, err := dial(ctx, ts.URL)
	if err != nil {
		t.Fatalf("a session after the idle one expired: %v", err)
	}
	defer busy.Close()
	for range 6 { // requests every 100 ms keep it open past the timeout
		call(t, busy, "list", args{})
		time.Sleep(100 * time.Millisecond)
	}
}
