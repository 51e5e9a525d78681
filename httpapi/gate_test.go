package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
	"github.com/mneme-ai/mneme/mcpserver"
)

// newGateEnv is a real server with the real MCP handler, built as `mneme
// serve` builds it.
func newGateEnv(t *testing.T, cfg httpapi.Config) *env {
	var handler http.Handler
	cfg.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) })
	e := newEnv(t, cfg)
	srv := mcpserver.New(e.eng, mcpserver.Info{Version: "test"})
	handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{DisableLocalhostProtection: true})
	return e
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"gate-test","version":"1"}}}`

// records counts the stored records through the engine.
func records(t *testing.T, e *env) int {
	t.Helper()
	n := 0
	err := e.eng.Each(context.Background(), mneme.Filter{Clearance: mneme.Secret, IncludeSuperseded: true, IncludeExpired: true},
		func(*mneme.Record) error { n++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func corsHeaders(h http.Header) []string {
	var out []string
	for k := range h {
		if strings.HasPrefix(k, "Access-Control-") {
			out = append(out, k)
		}
	}
	return out
}

// TestGate sends what a web page can make a browser send (a simple
// cross-site POST, a rebound Host, a foreign Origin) to a real server, and
// what legitimate clients send: the first are refused before any handler
// runs, the second served.
func TestGate(t *testing.T) {
	e := newGateEnv(t, httpapi.Config{})
	id := e.remember(nil, mneme.RememberRequest{Text: "The vault code is in the blue binder.", Project: "ops"})
	self := e.srv.URL // http://127.0.0.1:PORT
	port := self[strings.LastIndexByte(self, ':')+1:]
	json := "application/json"
	mcpJSON := map[string]string{"Content-Type": json, "Accept": "application/json, text/event-stream"}
	with := func(h map[string]string, kv ...string) map[string]string {
		out := map[string]string{}
		for k, v := range h {
			out[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}

	for _, tc := range []struct {
		name         string
		method, path string
		body         string
		header       map[string]string
		status       int
		code         string
		parts        []string
	}{
		// Bodies a page may send cross-site without a preflight.
		{"text/plain write", "POST", "/v1/memories", `{"text":"injected"}`, map[string]string{"Content-Type": "text/plain;charset=UTF-8"},
			415, mneme.EINVALID, []string{`"text/plain;charset=UTF-8"`, "Content-Type: application/json"}},
		{"text/plain forget", "POST", "/v1/forget", `{"ids":["` + id + `"]}`, map[string]string{"Content-Type": "text/plain"}, 415, mneme.EINVALID, nil},
		{"form write", "POST", "/v1/memories", `text=injected`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, mneme.EINVALID, nil},
		{"multipart write", "POST", "/v1/memories", "--x\r\n\r\n{}\r\n--x--\r\n", map[string]string{"Content-Type": "multipart/form-data; boundary=x"}, 415, mneme.EINVALID, nil},
		{"untyped write", "POST", "/v1/memories", `{"text":"injected"}`, nil, 415, mneme.EINVALID, []string{"no Content-Type"}},
		{"text/plain import", "POST", "/v1/import", `{"text":"injected"}`, map[string]string{"Content-Type": "text/plain"}, 415, mneme.EINVALID, []string{"application/x-ndjson"}},
		{"ndjson only on import", "POST", "/v1/memories", `{"text":"injected"}`, map[string]string{"Content-Type": "application/x-ndjson"}, 415, mneme.EINVALID, nil},
		{"text/plain patch", "PATCH", "/v1/memories/" + id, `{"title":"x"}`, map[string]string{"Content-Type": "text/plain"}, 415, mneme.EINVALID, nil},
		{"text/plain delete with body", "DELETE", "/v1/memories/" + id, `x`, map[string]string{"Content-Type": "text/plain"}, 415, mneme.EINVALID, nil},
		{"text/plain mcp", "POST", "/mcp", initialize, with(mcpJSON, "Content-Type", "text/plain"), 415, mneme.EINVALID, nil},

		// DNS rebinding: the page's own name as Host, on every route.
		{"foreign host export", "GET", "/v1/export", "", map[string]string{"Host": "evil.example:" + port},
			403, httpapi.EFORBIDDEN, []string{`"evil.example:` + port + `"`, "server.allowed_hosts", `add "evil.example"`}},
		{"foreign host health", "GET", "/v1/health", "", map[string]string{"Host": "evil.example"}, 403, httpapi.EFORBIDDEN, nil},
		{"foreign host openapi", "GET", "/v1/openapi.json", "", map[string]string{"Host": "evil.example"}, 403, httpapi.EFORBIDDEN, nil},
		{"foreign host metrics", "GET", "/metrics", "", map[string]string{"Host": "evil.example"}, 403, httpapi.EFORBIDDEN, nil},
		{"foreign host mcp", "POST", "/mcp", initialize, with(mcpJSON, "Host", "evil.example:"+port), 403, httpapi.EFORBIDDEN, nil},
		{"foreign host unrouted", "GET", "/nowhere", "", map[string]string{"Host": "evil.example"}, 403, httpapi.EFORBIDDEN, nil},
		{"localhost lookalike", "GET", "/v1/health", "", map[string]string{"Host": "localhost.evil.example"}, 403, httpapi.EFORBIDDEN, nil},
		{"not a loopback address", "GET", "/v1/health", "", map[string]string{"Host": "192.168.1.20:" + port}, 403, httpapi.EFORBIDDEN, nil},

		// A page on another origin, even with a JSON body (after a preflight
		// the browser would not get past, or from an old browser).
		{"evil origin write", "POST", "/v1/memories", `{"text":"injected"}`, map[string]string{"Content-Type": json, "Origin": "https://evil.example"},
			403, httpapi.EFORBIDDEN, []string{`"https://evil.example"`, "server.allowed_origins"}},
		{"evil origin text/plain forget", "POST", "/v1/forget", `{"ids":["` + id + `"]}`, map[string]string{"Content-Type": "text/plain", "Origin": "https://evil.example"}, 403, httpapi.EFORBIDDEN, nil},
		{"evil origin export", "GET", "/v1/export", "", map[string]string{"Origin": "https://evil.example"}, 403, httpapi.EFORBIDDEN, nil},
		{"evil origin mcp", "POST", "/mcp", initialize, with(mcpJSON, "Origin", "https://evil.example"), 403, httpapi.EFORBIDDEN, nil},
		{"evil origin mcp stream", "GET", "/mcp", "", map[string]string{"Origin": "https://evil.example", "Accept": "text/event-stream"}, 403, httpapi.EFORBIDDEN, nil},
		{"null origin", "POST", "/v1/memories", `{"text":"injected"}`, map[string]string{"Content-Type": json, "Origin": "null"}, 403, httpapi.EFORBIDDEN, []string{"sandboxed"}},
		{"another local port", "POST", "/v1/memories", `{"text":"injected"}`, map[string]string{"Content-Type": json, "Origin": "http://127.0.0.1:1"}, 403, httpapi.EFORBIDDEN, nil},
		{"same host, https", "POST", "/v1/memories", `{"text":"injected"}`, map[string]string{"Content-Type": json, "Origin": "https://127.0.0.1:" + port}, 403, httpapi.EFORBIDDEN, nil},
		{"origin with a path", "GET", "/v1/stats", "", map[string]string{"Origin": self + "/page"}, 403, httpapi.EFORBIDDEN, nil},
		{"preflight unconfigured", "OPTIONS", "/v1/memories", "", map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}, 403, httpapi.EFORBIDDEN, nil},

		// What legitimate clients send.
		{"json write", "POST", "/v1/memories", `{"text":"Deploys happen on Fridays.","project":"ops"}`, map[string]string{"Content-Type": "application/json; charset=utf-8"}, 201, "", nil},
		{"json write, upper case", "POST", "/v1/memories", `{"text":"Rollbacks revert the tag.","project":"ops"}`, map[string]string{"Content-Type": "Application/JSON"}, 201, "", nil},
		{"ndjson import", "POST", "/v1/import", `{"text":"Backups run nightly.","project":"ops"}` + "\n", map[string]string{"Content-Type": "application/x-ndjson"}, 200, "", nil},
		{"json import", "POST", "/v1/import", `{"text":"Backups run hourly.","project":"ops"}` + "\n", map[string]string{"Content-Type": json}, 200, "", nil},
		{"no body, no type", "GET", "/v1/stats", "", nil, 200, "", nil},
		{"same origin write", "POST", "/v1/memories", `{"text":"Staging runs Postgres 17.","project":"ops"}`, map[string]string{"Content-Type": json, "Origin": self}, 201, "", nil},
		{"same origin, localhost", "GET", "/v1/stats", "", map[string]string{"Host": "localhost:" + port, "Origin": "http://localhost:" + port}, 200, "", nil},
		{"same origin mcp", "POST", "/mcp", initialize, with(mcpJSON, "Origin", self), 200, "", nil},
		{"mcp without origin", "POST", "/mcp", initialize, mcpJSON, 200, "", nil},
		{"host localhost", "GET", "/v1/health", "", map[string]string{"Host": "localhost"}, 200, "", nil},
		{"host localhost:port", "GET", "/v1/health", "", map[string]string{"Host": "localhost:" + port}, 200, "", nil},
		{"host 127.x", "GET", "/v1/health", "", map[string]string{"Host": "127.3.4.5:9999"}, 200, "", nil},
		{"host [::1]", "GET", "/v1/health", "", map[string]string{"Host": "[::1]"}, 200, "", nil},
		{"host [::1]:port", "GET", "/v1/health", "", map[string]string{"Host": "[::1]:" + port}, 200, "", nil},
		{"preflight same origin", "OPTIONS", "/v1/memories", "", map[string]string{"Origin": self, "Access-Control-Request-Method": "POST"}, 405, mneme.EINVALID, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			before := records(t, e)
			var body any
			if tc.body != "" {
				body = tc.body
			}
			res := e.send(tc.method, tc.path, nil, body, tc.header)
			if tc.code != "" {
				e.wantError(res, tc.status, tc.code, tc.parts...)
			} else if res.status != tc.status {
				t.Fatalf("status %d, want %d: %s", res.status, tc.status, res.body)
			}
			if h := corsHeaders(res.header); len(h) > 0 || res.header.Get("Vary") != "" {
				t.Errorf("CORS headers without configured origins: %v, Vary %q", h, res.header.Get("Vary"))
			}
			if after := records(t, e); tc.status >= 400 && after != before {
				t.Fatalf("a refused request changed the store: %d records, then %d", before, after)
			}
		})
	}
	e.t = t
	if _, err := e.eng.Get(context.Background(), id, mneme.Secret); err != nil {
		t.Fatalf("the record a refused forget named: %v", err)
	}
	e.eng.Each(context.Background(), mneme.Filter{Clearance: mneme.Secret}, func(rec *mneme.Record) error {
		if strings.Contains(rec.Text, "injected") {
			t.Errorf("a refused write was stored: %q", rec.Text)
		}
		return nil
	})

	// Refusals are logged and counted under their route.
	metrics := string(e.do("GET", "/metrics", nil, nil).body)
	for _, want := range []string{
		`mneme_http_requests_total{route="GET /v1/export",method="GET",code="403"} 2`,
		`mneme_http_requests_total{route="POST /v1/memories",method="POST",code="415"} 5`,
		`mneme_http_requests_total{route="POST /mcp",method="POST",code="403"} 2`,
		`mneme_http_requests_total{route="unmatched",method="GET",code="403"} 1`,
	} {
		if !strings.Contains(metrics, want+"\n") {
			t.Errorf("metrics lack %s:\n%s", want, metrics)
		}
	}
	if logs := e.logs.String(); !strings.Contains(logs, `"route":"GET /v1/export","status":403,`) || !strings.Contains(logs, `"code":"EFORBIDDEN"`) {
		t.Errorf("refusals are not logged:\n%s", logs)
	}
}

// TestGateTokens: the gate runs before the tokens: a rebound Host or a
// foreign Origin is refused even with a valid token, and the refusal is
// not a token problem (403, not 401).
func TestGateTokens(t *testing.T) {
	e := newGateEnv(t, httpapi.Config{Tokens: []access.Token{writer}})
	for _, h := range []map[string]string{{"Host": "evil.example"}, {"Origin": "https://evil.example"}} {
		e.wantError(e.send("GET", "/v1/export", &writer, nil, h), 403, httpapi.EFORBIDDEN)
		e.wantError(e.send("GET", "/v1/export", nil, nil, h), 403, httpapi.EFORBIDDEN)
	}
	e.wantError(e.send("POST", "/v1/memories", &writer, `{"text":"injected"}`, map[string]string{"Content-Type": "text/plain"}), 415, mneme.EINVALID)
	if n := records(t, e); n != 0 {
		t.Fatalf("%d records after refused writes", n)
	}
	e.want(e.send("GET", "/v1/export", &writer, nil, map[string]string{"Origin": e.srv.URL}), 200, nil)
}

// TestGateConfigured: configured hosts are answered, configured origins get
// CORS (preflight and actual requests), anything else is still refused.
func TestGateConfigured(t *testing.T) {
	const app = "https://app.example.com"
	e := newGateEnv(t, httpapi.Config{AllowedHosts: []string{"mneme.lan", "Proxy.Example:8443", "192.168.1.20"},
		AllowedOrigins: []string{app, "http://localhost:5173"}})
	self := e.srv.URL
	port := self[strings.LastIndexByte(self, ':')+1:]

	for _, tc := range []struct {
		host   string
		status int
	}{
		{"mneme.lan", 200}, {"mneme.lan:" + port, 200}, {"MNEME.LAN:80", 200}, {"proxy.example:8443", 200},
		{"192.168.1.20:7077", 200}, {"127.0.0.1:" + port, 200},
		{"proxy.example", 403}, {"proxy.example:8080", 403}, {"evil.example", 403}, {"sub.mneme.lan", 403},
	} {
		if res := e.send("GET", "/v1/health", nil, nil, map[string]string{"Host": tc.host}); res.status != tc.status {
			t.Errorf("Host %s: %d, want %d: %s", tc.host, res.status, tc.status, res.body)
		}
	}
	// A configured host on MCP too (the SDK's own Host check would refuse it).
	mcpJSON := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Host": "mneme.lan:" + port}
	if res := e.send("POST", "/mcp", nil, initialize, mcpJSON); res.status != 200 {
		t.Errorf("MCP on a configured host: %d %s", res.status, res.body)
	}

	// Preflight from a configured origin.
	pre := e.send("OPTIONS", "/v1/memories", nil, nil, map[string]string{"Origin": app,
		"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type"})
	if pre.status != 204 || pre.header.Get("Access-Control-Allow-Origin") != app || pre.header.Get("Vary") != "Origin" {
		t.Fatalf("preflight: %d %v", pre.status, pre.header)
	}
	if m := pre.header.Get("Access-Control-Allow-Methods"); !strings.Contains(m, "POST") || !strings.Contains(m, "DELETE") {
		t.Errorf("Allow-Methods %q", m)
	}
	for _, h := range []string{"Authorization", "Content-Type", "Mcp-Session-Id", "Mcp-Protocol-Version"} {
		if !strings.Contains(pre.header.Get("Access-Control-Allow-Headers"), h) {
			t.Errorf("Allow-Headers %q lacks %s", pre.header.Get("Access-Control-Allow-Headers"), h)
		}
	}
	if pre := e.send("OPTIONS", "/mcp", nil, nil, map[string]string{"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST"}); pre.status != 204 ||
		pre.header.Get("Access-Control-Allow-Origin") != "http://localhost:5173" {
		t.Errorf("preflight on /mcp: %d %v", pre.status, pre.header)
	}

	// The actual request from the configured origin.
	res := e.send("POST", "/v1/memories", nil, `{"text":"Written from the web app."}`, map[string]string{"Content-Type": "application/json", "Origin": app})
	if res.status != 201 || res.header.Get("Access-Control-Allow-Origin") != app || res.header.Get("Vary") != "Origin" ||
		!strings.Contains(res.header.Get("Access-Control-Expose-Headers"), "Mcp-Session-Id") {
		t.Fatalf("configured origin: %d %v %s", res.status, res.header, res.body)
	}
	if res := e.send("POST", "/mcp", nil, initialize, map[string]string{"Content-Type": "application/json",
		"Accept": "application/json, text/event-stream", "Origin": app}); res.status != 200 || res.header.Get("Access-Control-Allow-Origin") != app {
		t.Errorf("MCP from the configured origin: %d %v", res.status, res.header)
	}

	// Still refused: other origins (no CORS header for them), a configured
	// origin's lookalikes, a preflight from them, a rebound Host with a
	// configured Origin, text/plain from a configured origin.
	for _, tc := range []struct {
		name   string
		method string
		header map[string]string
		body   any
		status int
	}{
		{"other origin", "GET", map[string]string{"Origin": "https://evil.example"}, nil, 403},
		{"http instead of https", "GET", map[string]string{"Origin": "http://app.example.com"}, nil, 403},
		{"other port", "GET", map[string]string{"Origin": "https://app.example.com:8443"}, nil, 403},
		{"subdomain", "GET", map[string]string{"Origin": "https://x.app.example.com"}, nil, 403},
		{"other preflight", "OPTIONS", map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}, nil, 403},
		{"rebound host", "GET", map[string]string{"Origin": app, "Host": "evil.example"}, nil, 403},
		{"text/plain", "POST", map[string]string{"Origin": app, "Content-Type": "text/plain"}, `{"text":"x"}`, 415},
	} {
		res := e.send(tc.method, "/v1/memories", nil, tc.body, tc.header)
		if res.status != tc.status {
			t.Errorf("%s: %d, want %d: %s", tc.name, res.status, tc.status, res.body)
		}
		if tc.status == 403 && res.header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s: refused with Access-Control-Allow-Origin %q", tc.name, res.header.Get("Access-Control-Allow-Origin"))
		}
	}
	if res := e.send("GET", "/v1/stats", nil, nil, map[string]string{"Origin": app}); res.header.Get("Access-Control-Allow-Origin") != app {
		t.Errorf("the default port of https is implied: %v", res.header)
	}
}

func TestCheckHostsAndOrigins(t *testing.T) {
	for _, ok := range [][]string{nil, {"mneme.lan"}, {"mneme.lan:7077", "192.168.1.20", "[2001:db8::1]:7077", "2001:db8::1", "my_host.internal"}} {
		if err := httpapi.CheckHosts(ok); err != nil {
			t.Errorf("CheckHosts(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "http://mneme.lan", "mneme.lan/", "mneme.lan:0", "mneme.lan:99999", "mneme.lan:x", "mneme lan", "*", "[::1", "-a.lan", "a..lan", "mneme.lan:"} {
		err := httpapi.CheckHosts([]string{"ok.lan", bad})
		if mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), "server.allowed_hosts[1]") {
			t.Errorf("CheckHosts(%q): %v", bad, err)
		}
	}
	for _, ok := range [][]string{nil, {"https://app.example.com", "http://localhost:5173", "http://[::1]:3000", "HTTPS://App.Example.com"}} {
		if err := httpapi.CheckOrigins(ok); err != nil {
			t.Errorf("CheckOrigins(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "*", "null", "app.example.com", "ftp://app.example.com", "https://app.example.com/", "https://app.example.com/path",
		"https://user@app.example.com", "https://app.example.com:0", "https://", "https://app.example.com?x=1"} {
		err := httpapi.CheckOrigins([]string{"https://ok.example", bad})
		if mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), "server.allowed_origins[1]") {
			t.Errorf("CheckOrigins(%q): %v", bad, err)
		}
	}
	if err := httpapi.CheckOrigins([]string{"https://app.example.com/"}); !strings.Contains(mneme.ErrorMessage(err), "like https://app.example.com") {
		t.Errorf("a trailing slash: %v", err)
	}
}
