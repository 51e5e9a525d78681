package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme/internal/skips"
)

// served is a running `mneme serve` process.
type served struct {
	cmd     *exec.Cmd
	url     string           // http://127.0.0.1:PORT
	log     *strings.Builder // all of standard error once drained is closed
	drained chan struct{}
}

// serve starts `mneme serve` on a free loopback port over home and waits
// until it listens.
func serve(t testing.TB, home string, args ...string) *served {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "MNEME_HOME="+home)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &served{cmd: cmd, log: &strings.Builder{}, drained: make(chan struct{})}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		s.log.WriteString(lines.Text() + "\n")
		var entry struct{ Msg, URL string }
		if json.Unmarshal(lines.Bytes(), &entry) == nil && entry.Msg == "serving" {
			s.url = entry.URL
			break
		}
	}
	if s.url == "" {
		t.Fatalf("mneme serve did not start:\n%s", s.log)
	}
	go func() { // keep reading, so the server never blocks on its log
		defer close(s.drained)
		for lines.Scan() {
			s.log.WriteString(lines.Text() + "\n")
		}
	}()
	return s
}

// stop sends SIGTERM and waits for a clean exit.
func (s *served) stop(t *testing.T) {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { <-s.drained; done <- s.cmd.Wait() }() // Wait closes the pipe: read it all first
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exited with %v after SIGTERM", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop within 30 s of SIGTERM")
	}
}

func httpJSON(t testing.TB, method, url, body string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && json.Unmarshal(data, out) != nil {
		t.Fatalf("%s %s: not JSON: %s", method, url, data)
	}
	return resp.StatusCode
}

// TestServe: the server answers the API, sees what a CLI process writes to
// the same home before it answers, and stops cleanly on SIGTERM without
// losing an acknowledged write.
func TestServe(t *testing.T) {
	home := t.TempDir()
	s := serve(t, home)
	var w struct{ ID string }
	if code := httpJSON(t, "POST", s.url+"/v1/memories", `{"text":"the release train leaves on Thursdays","project":"ops"}`, &w); code != 201 || w.ID == "" {
		t.Fatalf("create = %d %+v", code, w)
	}
	ok(t, home, "remember", "the staging database runs postgres 17", "--project", "ops")
	var r struct {
		Hits []struct{ Record struct{ Text string } }
	}
	if code := httpJSON(t, "POST", s.url+"/v1/recall", `{"query":"postgres staging","project":"ops","mode":"lexical"}`, &r); code != 200 ||
		len(r.Hits) != 1 || !strings.Contains(r.Hits[0].Record.Text, "postgres 17") {
		t.Fatalf("the server missed a write made by another process: %d %+v", code, r)
	}
	var e struct {
		Error struct{ Code, Message string }
	}
	if code := httpJSON(t, "POST", s.url+"/v1/memories", `{"text":"x","colour":"red"}`, &e); code != 400 || e.Error.Code != "EINVALID" {
		t.Fatalf("unknown field = %d %+v", code, e)
	}
	if code := httpJSON(t, "POST", s.url+"/v1/memories", `{"text":"written just before the stop","project":"ops"}`, &w); code != 201 {
		t.Fatalf("last write = %d", code)
	}
	s.stop(t)
	if !strings.Contains(ok(t, home, "get", w.ID), "written just before the stop") {
		t.Fatal("an acknowledged write was lost")
	}
	if log := s.log.String(); strings.Contains(log, "release train") || !strings.Contains(log, `"route":"POST /v1/memories"`) {
		t.Fatalf("want request lines without memory text in the log:\n%s", log)
	}
}

func TestServeRefusesExposureWithoutTokens(t *testing.T) {
	r := mneme(t, t.TempDir(), "", "serve", "--addr", "0.0.0.0:0")
	if r.code != 2 || !strings.Contains(r.stderr, "refusing to serve on 0.0.0.0:0 without tokens") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"server":{"tokens":[{"name":"x","token":"short","access":"write"}]}}`), 0o600)
	if r := mneme(t, home, "", "serve"); r.code != 2 || !strings.Contains(r.stderr, "shorter than 16 characters") {
		t.Fatalf("weak token: exit %d: %s", r.code, r.stderr)
	}
}

// httpDo sends a request with exactly the given headers ("Host" sets the
// Host) and returns the status, the headers and the body.
func httpDo(t testing.TB, method, url, body string, header map[string]string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	for k, v := range header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(data)
}

// TestServeRefusesCrossSite: what a web page can make a browser send to the
// real `mneme serve` (a simple text/plain POST, a rebound Host, a foreign
// Origin) is refused and logged; the configured host and origin are served.
func TestServeRefusesCrossSite(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"server":{"allowed_hosts":["mneme.lan"],"allowed_origins":["https://app.example.com"]}}`), 0o600)
	s := serve(t, home)
	port := s.url[strings.LastIndexByte(s.url, ':')+1:]
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	mcpHeaders := func(kv ...string) map[string]string {
		h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
		for i := 0; i < len(kv); i += 2 {
			h[kv[i]] = kv[i+1]
		}
		return h
	}
	for _, tc := range []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
		code                     string
	}{
		{"text/plain write", "POST", "/v1/memories", `{"text":"injected by a web page"}`, map[string]string{"Content-Type": "text/plain"}, 415, "EINVALID"},
		{"foreign Host", "GET", "/v1/export", "", map[string]string{"Host": "evil.example:" + port}, 403, "EFORBIDDEN"},
		{"foreign Origin", "POST", "/v1/memories", `{"text":"injected by a web page"}`, map[string]string{"Content-Type": "application/json", "Origin": "https://evil.example"}, 403, "EFORBIDDEN"},
		{"foreign Origin on MCP", "POST", "/mcp", initialize, mcpHeaders("Origin", "https://evil.example"), 403, "EFORBIDDEN"},
		{"foreign Host on MCP", "POST", "/mcp", initialize, mcpHeaders("Host", "evil.example:"+port), 403, "EFORBIDDEN"},
		{"configured Host on MCP", "POST", "/mcp", initialize, mcpHeaders("Host", "mneme.lan:"+port), 200, ""},
		{"configured Origin", "GET", "/v1/stats", "", map[string]string{"Origin": "https://app.example.com"}, 200, ""},
		{"preflight", "OPTIONS", "/v1/memories", "", map[string]string{"Origin": "https://app.example.com", "Access-Control-Request-Method": "POST"}, 204, ""},
	} {
		status, header, body := httpDo(t, tc.method, s.url+tc.path, tc.body, tc.header)
		if status != tc.status || (tc.code != "" && !strings.Contains(body, `"code":"`+tc.code+`"`)) {
			t.Errorf("%s: %d %s, want %d %s", tc.name, status, body, tc.status, tc.code)
		}
		if origin := tc.header["Origin"]; status < 400 && origin != "" && header.Get("Access-Control-Allow-Origin") != origin {
			t.Errorf("%s: Access-Control-Allow-Origin %q", tc.name, header.Get("Access-Control-Allow-Origin"))
		}
	}
	// The Go SDK's client (no Origin) works, and the settings resource shows
	// the configured hosts and origins.
	client := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "1"}, nil)
	session, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: s.url + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "mneme://settings"})
	if err != nil {
		t.Fatal(err)
	}
	var settings struct {
		Server struct {
			AllowedHosts   []string `json:"allowed_hosts"`
			AllowedOrigins []string `json:"allowed_origins"`
		}
	}
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &settings); err != nil || fmt.Sprint(settings.Server.AllowedHosts) != "[mneme.lan]" ||
		fmt.Sprint(settings.Server.AllowedOrigins) != "[https://app.example.com]" {
		t.Errorf("settings: %v %s", err, res.Contents[0].Text)
	}
	session.Close()
	if out := ok(t, home, "export"); strings.Contains(out, "injected") {
		t.Fatalf("a refused write was stored:\n%s", out)
	}
	s.stop(t)
	if log := s.log.String(); !strings.Contains(log, `"route":"GET /v1/export","status":403`) || !strings.Contains(log, `"route":"POST /v1/memories","status":415`) {
		t.Fatalf("refusals are not logged:\n%s", log)
	}
}

// TestServeBoundAddress: bound to one address beyond loopback (with
// tokens), the server answers that address as Host, and no other name.
func TestServeBoundAddress(t *testing.T) {
	var ip net.IP
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			ip = n.IP
			break
		}
	}
	if ip == nil {
		skips.Skip(t, "", "no non-loopback IPv4 address to bind")
	}
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"server":{"tokens":[{"name":"t","token":"bound-token-0123456789","access":"read"}]}}`), 0o600)
	s := serve(t, home, "--addr", ip.String()+":0")
	if status, _, body := httpDo(t, "GET", s.url+"/v1/health", "", nil); status != 200 {
		t.Fatalf("health on the bound address: %d %s", status, body)
	}
	if status, _, _ := httpDo(t, "GET", s.url+"/v1/health", "", map[string]string{"Host": "evil.example"}); status != 403 {
		t.Fatalf("foreign Host on the bound address: %d", status)
	}
}

func TestServeRefusesBadOrigins(t *testing.T) {
	for _, tc := range []struct{ config, want string }{
		{`{"server":{"allowed_origins":["https://app.example.com/"]}}`, `server.allowed_origins[0] "https://app.example.com/" is not an origin`},
		{`{"server":{"allowed_hosts":["https://mneme.lan"]}}`, `server.allowed_hosts[0] "https://mneme.lan" is not a host`},
		{`{"server":{"allowed_hosts":"mneme.lan"}}`, `allowed_hosts`},
	} {
		home := t.TempDir()
		os.WriteFile(filepath.Join(home, "config.json"), []byte(tc.config), 0o600)
		if r := mneme(t, home, "", "serve"); r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%s: exit %d: %s", tc.config, r.code, r.stderr)
		}
	}
}

// TestServeRefusesBadConfig: a server section that would silently change
// what a token may do, or that cannot be read, stops the server at start
// (exit 2), naming the tokens and never a secret.
func TestServeRefusesBadConfig(t *testing.T) {
	const secret = "0123456789abcdef-shared"
	for _, c := range []struct {
		name, server, want string
	}{
		{"same secret", `"tokens":[{"name":"admin","token":"` + secret + `","access":"write"},{"name":"ci","token":"` + secret + `","access":"read"}]`,
			`server tokens "admin" and "ci" have the same secret`},
		{"path as project", `"tokens":[{"name":"ci","token":"` + secret + `","access":"read","projects":["../x"]}]`,
			`server token "ci": project "../x" is not a valid name`},
		{"token and token_env", `"tokens":[{"name":"ci","token":"` + secret + `","token_env":"CI_TOKEN","access":"read"}]`,
			`server token "ci" sets both token and token_env`},
		{"session timeout", `"mcp_session_timeout":"soon"`, `server.mcp_session_timeout "soon" is not a positive duration`},
		{"negative session timeout", `"mcp_session_timeout":"-5m"`, `is not a positive duration`},
		{"session cap", `"mcp_max_sessions":-1`, `server.mcp_max_sessions -1 is negative`},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"server":{`+c.server+`}}`), 0o600)
			env := []string{"CI_TOKEN=0123456789abcdef-env"}
			r := mnemeEnv(t, home, "", env, "serve", "--addr", "127.0.0.1:0")
			if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Contains(r.stderr, "0123456789abcdef") {
				t.Fatalf("exit %d, want 2 and %q without the secret: %s", r.code, c.want, r.stderr)
			}
			r = mnemeEnv(t, home, "", env, "serve", "--addr", "127.0.0.1:0", "--json")
			e := decode[struct {
				Error struct{ Code, Message string }
			}](t, r.stderr).Error
			if r.code != 2 || e.Code != "EINVALID" || !strings.Contains(e.Message, c.want) {
				t.Fatalf("--json: exit %d: %s", r.code, r.stderr)
			}
		})
	}
}

// TestServeMCPSessionCap: server.mcp_max_sessions bounds the MCP sessions
// open at once; the next initialize is refused with 503 and a JSON error.
func TestServeMCPSessionCap(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"server":{"mcp_max_sessions":1,"mcp_session_timeout":"10m"}}`), 0o600)
	s := serve(t, home)
	initialize := func() (*http.Response, string) {
		req, _ := http.NewRequest("POST", s.url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}
	if resp, body := initialize(); resp.StatusCode != 200 || resp.Header.Get("Mcp-Session-Id") == "" {
		t.Fatalf("first session: %d %s", resp.StatusCode, body)
	}
	resp, body := initialize()
	e := decode[struct {
		Error struct{ Code, Message string }
	}](t, body).Error
	if resp.StatusCode != 503 || e.Code != "EUNAVAILABLE" || !strings.Contains(e.Message, "limit of 1 open MCP sessions") {
		t.Fatalf("second session: %d %s", resp.StatusCode, body)
	}
	if !strings.Contains(s.log.String(), `"mcp_session_timeout":"10m0s","mcp_max_sessions":1`) {
		t.Fatalf("the serving line does not show the session bounds:\n%s", s.log)
	}
}
