package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
)

// Defaults of HTTPOptions.
const (
	DefaultSessionTimeout = 30 * time.Minute
	DefaultMaxSessions    = 1000
)

// HTTPOptions bound the sessions of MCP over streamable HTTP: each holds
// memory and goroutines until it ends, and a client that never says
// goodbye (DELETE /mcp) would otherwise keep its session forever.
type HTTPOptions struct {
	// SessionTimeout closes a session that has had no request for this
	// long; its client must initialize a new one. 0: DefaultSessionTimeout.
	SessionTimeout time.Duration
	// MaxSessions is the most sessions open at once; a request to open
	// another is refused with 503 until one ends. 0: DefaultMaxSessions.
	MaxSessions int
}

// HTTPHandler serves srv over MCP's streamable HTTP transport with
// sessions bounded by o. srv should serve nothing else: its sessions are
// the ones counted.
func HTTPHandler(srv *mcp.Server, o HTTPOptions) http.Handler {
	if o.SessionTimeout <= 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	// The HTTP API's gate checks Host on every route, /mcp included,
	// against the loopback names and the configured hosts; the SDK's own
	// check (loopback names only) would refuse a configured host.
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{SessionTimeout: o.SessionTimeout, DisableLocalhostProtection: true})
	return &sessionCap{next: h, srv: srv, max: o.MaxSessions, held: map[string]bool{}}
}

// sessionCap refuses a request that would open a session while max are
// open; the SDK has no cap of its own. Only an initialize request without
// Mcp-Session-Id opens one that lasts: the SDK closes a session its first
// request did not initialize (as after a client's server/discover probe)
// when that request ends. A request that may initialize holds a slot while
// it runs; the session it opens then keeps the slot until it ends, by
// DELETE or the idle timeout.
type sessionCap struct {
	next    http.Handler
	srv     *mcp.Server
	max     int
	mu      sync.Mutex
	held    map[string]bool // the ids of the sessions holding a slot
	opening int             // initialize requests in flight
}

func (c *sessionCap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get(sessionHeader) != "" || !mayInitialize(r) {
		c.next.ServeHTTP(w, r)
		return
	}
	c.mu.Lock()
	live := c.live()
	for id := range c.held {
		if !live[id] {
			delete(c.held, id) // ended
		}
	}
	full := len(c.held)+c.opening >= c.max
	if !full {
		c.opening++
	}
	c.mu.Unlock()
	if full {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", strconv.Itoa(60))
		w.WriteHeader(http.StatusServiceUnavailable)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{ //nolint:errcheck // the client went away
			"code": mneme.EUNAVAILABLE,
			"message": fmt.Sprintf("the server is at its limit of %d open MCP sessions (server.mcp_max_sessions in config.json): "+
				"try again when one ends (clients end theirs with DELETE /mcp; idle ones close on their own)", c.max)}})
		return
	}
	defer func() {
		id := w.Header().Get(sessionHeader)
		c.mu.Lock()
		defer c.mu.Unlock()
		c.opening--
		if id != "" && c.live()[id] {
			c.held[id] = true
		}
	}()
	c.next.ServeHTTP(w, r)
}

const sessionHeader = "Mcp-Session-Id"

// mayInitialize reports whether r's body may initialize a session: all but
// one JSON-RPC message with another method (like server/discover). The body
// is left to be read again (the SDK enforces its size limit).
func mayInitialize(r *http.Request) bool {
	head, err := io.ReadAll(io.LimitReader(r.Body, mcp.DefaultMaxRequestBodyBytes))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	var msg struct {
		Method string `json:"method"`
	}
	return err != nil || json.Unmarshal(head, &msg) != nil || msg.Method == "initialize"
}

// live is the set of the server's initialized sessions, by id.
func (c *sessionCap) live() map[string]bool {
	ids := map[string]bool{}
	for ss := range c.srv.Sessions() {
		if ss.InitializeParams() != nil {
			ids[ss.ID()] = true
		}
	}
	return ids
}
