package main_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tokens of the security table's server (secrets of 16+ characters).
const (
	secWriter = "sec-writer-token-0123456789"
	secReader = "sec-reader-token-0123456789"
	secAlpha  = "sec-alpha-token-0123456789"
)

// The probes of one attack on each surface; nil means the attack does not
// apply there, and the row says why in na.
type cliProbe struct {
	stdin string
	args  []string // --json is added
	env   []string // extra environment variables
}

type httpProbe struct {
	method, path, body string
	token              string            // bearer secret; "" sends none
	header             map[string]string // Content-Type defaults to application/json with a body
}

type mcpProbe struct {
	tool, args string     // a tools/call with raw JSON arguments…
	line       string     // …or a raw JSON-RPC line…
	raw        *httpProbe // …or a raw HTTP request to /mcp on the server
	token      string     // with tool: call it over HTTP with this token (else on `mneme mcp` stdio)
}

// attack is one row: what each surface must answer. Outcomes are written
// as the surface shows them: "exit 2 EINVALID" (CLI: exit status and the
// JSON error's code), "403 EFORBIDDEN" (HTTP status and code), "tool error
// EINVALID" or "rpc -32700" (MCP: a tool error's code, a JSON-RPC error).
type attack struct {
	name              string
	cli               *cliProbe
	http              *httpProbe
	mcp               *mcpProbe
	wantCLI, wantHTTP string
	wantMCP           string
	na                map[string]string // surface → why the attack does not apply
	marker            string            // text that must not be stored (the control's must be)
}

// TestSecurityTable runs one table of attacks against the CLI, the HTTP API
// (`mneme serve` with tokens) and MCP (`mneme mcp` on stdio, and MCP over
// HTTP on the same server), each with the refusal expected on each surface,
// then checks that nothing an attack carried was stored.
func TestSecurityTable(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"hash"},"mcp":{"tools":"all"},"server":{"tokens":[
		{"name":"writer","token":"`+secWriter+`","access":"write"},
		{"name":"reader","token":"`+secReader+`","access":"read"},
		{"name":"alpha","token":"`+secAlpha+`","access":"write","projects":["alpha"]}]}}`), 0o600)
	files := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(files, name)
		os.WriteFile(p, []byte(body), 0o600)
		return p
	}
	s := serve(t, home)
	port := s.url[strings.LastIndexByte(s.url, ':')+1:]
	stdio := startMCPStdio(t, home)
	rig := &securityRig{t: t, root: t, home: home, url: s.url, stdio: stdio, sessions: map[string]*mcp.ClientSession{}}
	hidden := seedHidden(t, home)

	const credential = "token ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	huge := "atk-huge " + strings.Repeat("a", 1<<20)
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	mcpHeader := func(kv ...string) map[string]string {
		h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
		for i := 0; i < len(kv); i += 2 {
			h[kv[i]] = kv[i+1]
		}
		return h
	}
	noTokens := map[string]string{"cli": "the CLI has no tokens: it acts as whoever may read and write the data directory"}
	noNetwork := map[string]string{"cli": "the CLI takes no network requests"}
	attacks := []attack{
		{
			name:    "control: a plain memory is stored",
			cli:     &cliProbe{args: []string{"remember", "ctl-cli a plain memory"}},
			http:    &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"ctl-http a plain memory"}`, token: secWriter},
			mcp:     &mcpProbe{tool: "remember", args: `{"text":"ctl-mcp a plain memory"}`},
			wantCLI: "exit 0", wantHTTP: "201", wantMCP: "ok",
		},
		{
			name:    "a credential in the text",
			cli:     &cliProbe{args: []string{"remember", "atk-cred " + credential}},
			http:    &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"atk-cred ` + credential + `"}`, token: secWriter},
			mcp:     &mcpProbe{tool: "remember", args: `{"text":"atk-cred ` + credential + `"}`},
			wantCLI: "exit 2 EINVALID", wantHTTP: "400 EINVALID", wantMCP: "tool error EINVALID", marker: "atk-cred",
		},
		{
			name:    "an unknown field",
			cli:     &cliProbe{args: []string{"import", file("unknown.jsonl", `{"text":"atk-field","colour":"red"}`)}},
			http:    &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"atk-field","colour":"red"}`, token: secWriter},
			mcp:     &mcpProbe{tool: "remember", args: `{"text":"atk-field","colour":"red"}`},
			wantCLI: "exit 2 EINVALID", wantHTTP: "400 EINVALID", wantMCP: "tool error EINVALID", marker: "atk-field",
		},
		{
			name: "invalid UTF-8",
			cli:  &cliProbe{args: []string{"remember", "atk-utf8 bad \xff\xfe bytes"}},
			http: &httpProbe{method: "POST", path: "/v1/memories", body: "{\"text\":\"atk-utf8 bad \xff\xfe bytes\"}", token: secWriter},
			// The stdio transport refuses the whole line, before JSON decoding
			// could replace the bytes with U+FFFD.
			mcp:     &mcpProbe{line: "{\"jsonrpc\":\"2.0\",\"id\":78,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\",\"arguments\":{\"text\":\"atk-utf8 bad \xff\xfe bytes\"}}}"},
			wantCLI: "exit 2 EINVALID", wantHTTP: "400 EINVALID", wantMCP: "rpc -32700", marker: "atk-utf8",
		},
		{
			name:    "a text over 1 MiB",
			cli:     &cliProbe{stdin: huge, args: []string{"remember", "-"}}, // an argument that long is over the kernel's limit
			http:    &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"` + huge + `"}`, token: secWriter},
			mcp:     &mcpProbe{tool: "remember", args: `{"text":"` + huge + `"}`},
			wantCLI: "exit 2 EINVALID", wantHTTP: "400 EINVALID", wantMCP: "tool error EINVALID", marker: "atk-huge",
		},
		{
			name:    "an impossible time range (since after until)",
			cli:     &cliProbe{args: []string{"recall", "anything", "--since", "2026-02-01", "--until", "2026-01-01"}},
			http:    &httpProbe{method: "POST", path: "/v1/recall", body: `{"query":"anything","since":"2026-02-01","until":"2026-01-01"}`, token: secWriter},
			mcp:     &mcpProbe{tool: "recall", args: `{"query":"anything","since":"2026-02-01","until":"2026-01-01"}`},
			wantCLI: "exit 2 EINVALID", wantHTTP: "400 EINVALID", wantMCP: "tool error EINVALID",
		},
		{
			name:    "a project name like ../x",
			cli:     &cliProbe{args: []string{"remember", "atk-path memory", "--project", "../x"}},
			http:    &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"atk-path memory","project":"../x"}`, token: secWriter},
			mcp:     &mcpProbe{tool: "remember", args: `{"text":"atk-path memory","project":"../x"}`},
			wantCLI: "exit 2 EINVALID", wantHTTP: "400 EINVALID", wantMCP: "tool error EINVALID", marker: "atk-path",
		},
		{
			name:     "a read-only token writes",
			http:     &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"atk-reader memory"}`, token: secReader},
			mcp:      &mcpProbe{tool: "remember", args: `{"text":"atk-reader memory"}`, token: secReader},
			wantHTTP: "403 EFORBIDDEN", wantMCP: "tool error EFORBIDDEN", na: noTokens, marker: "atk-reader",
		},
		{
			name:     "a project-scoped token writes to another project",
			http:     &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"atk-scope memory","project":"beta"}`, token: secAlpha},
			mcp:      &mcpProbe{tool: "remember", args: `{"text":"atk-scope memory","project":"beta"}`, token: secAlpha},
			wantHTTP: "403 EFORBIDDEN", wantMCP: "tool error EFORBIDDEN", na: noTokens, marker: "atk-scope",
		},
		{
			name:     "no token",
			http:     &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"atk-anon memory"}`},
			mcp:      &mcpProbe{raw: &httpProbe{method: "POST", path: "/mcp", body: initialize, header: mcpHeader()}},
			wantHTTP: "401 EUNAUTHORIZED", wantMCP: "401 EUNAUTHORIZED", na: noTokens, marker: "atk-anon",
		},
		{
			name:     "a foreign Host header (DNS rebinding)",
			http:     &httpProbe{method: "GET", path: "/v1/export", token: secWriter, header: map[string]string{"Host": "evil.example:" + port}},
			mcp:      &mcpProbe{raw: &httpProbe{method: "POST", path: "/mcp", body: initialize, token: secWriter, header: mcpHeader("Host", "evil.example:"+port)}},
			wantHTTP: "403 EFORBIDDEN", wantMCP: "403 EFORBIDDEN", na: noNetwork,
		},
		{
			name:     "a foreign Origin",
			http:     &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"atk-origin memory"}`, token: secWriter, header: map[string]string{"Origin": "https://evil.example"}},
			mcp:      &mcpProbe{raw: &httpProbe{method: "POST", path: "/mcp", body: initialize, token: secWriter, header: mcpHeader("Origin", "https://evil.example")}},
			wantHTTP: "403 EFORBIDDEN", wantMCP: "403 EFORBIDDEN", na: noNetwork, marker: "atk-origin",
		},
		{
			name:     "a cross-site text/plain POST",
			http:     &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"atk-plain memory"}`, header: map[string]string{"Content-Type": "text/plain"}},
			mcp:      &mcpProbe{raw: &httpProbe{method: "POST", path: "/mcp", body: initialize, header: mcpHeader("Content-Type", "text/plain")}},
			wantHTTP: "415 EINVALID", wantMCP: "415 EINVALID", na: noNetwork, marker: "atk-plain",
		},
		{
			// It would become a schema name in $MNEME_PG_DSN's database.
			name: "a connection string as the store",
			cli: &cliProbe{args: []string{"remember", "atk-store memory", "--store", "postgres://app:Pr0dPw@127.0.0.1:1/prod"},
				env: []string{"MNEME_PG_DSN=postgres://mneme@127.0.0.1:1/mneme?connect_timeout=1"}},
			wantCLI: "exit 2 EINVALID", marker: "atk-store",
			na: map[string]string{"http": "the store is the server's configuration, not a request's", "mcp": "the store is the server's configuration, not a request's"},
		},
		{
			// Two names sharing their first 63 bytes would be one home.
			name: "a schema name over PostgreSQL's 63 bytes",
			cli: &cliProbe{args: []string{"remember", "atk-schema memory", "--store", "postgres:" + strings.Repeat("s", 64)},
				env: []string{"MNEME_PG_DSN=postgres://mneme@127.0.0.1:1/mneme?connect_timeout=1"}},
			wantCLI: "exit 2 EINVALID", marker: "atk-schema",
			na: map[string]string{"http": "the store is the server's configuration, not a request's", "mcp": "the store is the server's configuration, not a request's"},
		},
		{
			name:    "an unquoted password holding a secret word",
			cli:     &cliProbe{args: []string{"remember", "atk-pw1 password=supersecret1"}},
			http:    &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"atk-pw1 password=supersecret1"}`, token: secWriter},
			mcp:     &mcpProbe{tool: "remember", args: `{"text":"atk-pw1 password=supersecret1"}`, token: secWriter},
			wantCLI: "exit 2 EINVALID", wantHTTP: "400 EINVALID", wantMCP: "tool error EINVALID", marker: "atk-pw1",
		},
		{
			name:    "a bare pwd= assignment",
			cli:     &cliProbe{args: []string{"remember", "atk-pw2 pwd=Xk9mQ2vLp77"}},
			http:    &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"atk-pw2 pwd=Xk9mQ2vLp77"}`, token: secWriter},
			mcp:     &mcpProbe{tool: "remember", args: `{"text":"atk-pw2 pwd=Xk9mQ2vLp77"}`},
			wantCLI: "exit 2 EINVALID", wantHTTP: "400 EINVALID", wantMCP: "tool error EINVALID", marker: "atk-pw2",
		},
		{
			name:    "malformed JSON",
			cli:     &cliProbe{args: []string{"import", file("malformed.jsonl", `{"text":"atk-json`)}},
			http:    &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"atk-json`, token: secWriter},
			mcp:     &mcpProbe{line: `{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"remember","arguments":{"text":"atk-json`},
			wantCLI: "exit 2 EINVALID", wantHTTP: "400 EINVALID", wantMCP: "rpc -32700", marker: "atk-json",
		},
	}
	attacks = append(attacks, hidden.attacks()...)

	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			rig.t = t
			for _, sf := range []struct {
				name, want string
				probe      bool
				run        func() string
			}{
				{"cli", a.wantCLI, a.cli != nil, func() string { return rig.cli(a.cli) }},
				{"http", a.wantHTTP, a.http != nil, func() string { return rig.http(a.http) }},
				{"mcp", a.wantMCP, a.mcp != nil, func() string { return rig.mcp(a.mcp) }},
			} {
				if !sf.probe {
					if a.na[sf.name] == "" {
						t.Errorf("%s: no probe and no reason why the attack does not apply", sf.name)
					}
					t.Logf("%s: does not apply: %s", sf.name, a.na[sf.name])
					continue
				}
				got := sf.run()
				t.Logf("%s: %s", sf.name, got)
				if got != sf.want {
					t.Errorf("%s: got %s, want %s", sf.name, got, sf.want)
				}
			}
		})
	}
	rig.t = t
	// The stdio session is alive after every bad line.
	if got := stdio.call(t, "ping", `{}`); got != "ok" {
		t.Errorf("ping on mcp stdio after the attacks: %s", got)
	}

	hidden.check(t, rig)

	stored := ok(t, home, "export", "--clearance", "secret")
	for _, ctl := range []string{"ctl-cli", "ctl-http", "ctl-mcp"} {
		if !strings.Contains(stored, ctl) {
			t.Errorf("the control write %s was not stored", ctl)
		}
	}
	for _, a := range attacks {
		if a.marker != "" && strings.Contains(stored, a.marker) {
			t.Errorf("%s: the attack's text was stored", a.name)
		}
	}
}

type securityRig struct {
	t        *testing.T // the running row's
	root     *testing.T
	home     string
	url      string
	stdio    *mcpStdio
	sessions map[string]*mcp.ClientSession // MCP over HTTP, by token
}

func (r *securityRig) cli(p *cliProbe) string {
	res := mnemeEnv(r.t, r.home, p.stdin, p.env, append(p.args, "--json")...)
	if res.code == 0 {
		return "exit 0"
	}
	var e struct{ Error struct{ Code string } }
	json.Unmarshal([]byte(res.stderr), &e)
	return fmt.Sprintf("exit %d %s", res.code, e.Error.Code)
}

func (r *securityRig) http(p *httpProbe) string {
	status, body := r.send(p)
	if status < 300 {
		return fmt.Sprint(status)
	}
	var e struct{ Error struct{ Code string } }
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		return fmt.Sprintf("%d (not a JSON error: %.200s)", status, body)
	}
	return fmt.Sprintf("%d %s", status, e.Error.Code)
}

func (r *securityRig) send(p *httpProbe) (int, string) {
	h := map[string]string{}
	if p.body != "" {
		h["Content-Type"] = "application/json"
	}
	if p.token != "" {
		h["Authorization"] = "Bearer " + p.token
	}
	for k, v := range p.header {
		h[k] = v
	}
	status, _, body := httpDo(r.t, p.method, r.url+p.path, p.body, h)
	return status, body
}

func (r *securityRig) mcp(p *mcpProbe) string {
	switch {
	case p.raw != nil:
		return r.http(p.raw)
	case p.line != "":
		return r.stdio.raw(r.t, p.line)
	case p.token == "":
		return r.stdio.call(r.t, "tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, p.tool, p.args))
	}
	cs := r.sessions[p.token]
	if cs == nil {
		client := &http.Client{Transport: bearerTransport(p.token)}
		var err error
		cs, err = mcp.NewClient(&mcp.Implementation{Name: "security-table", Version: "1"}, nil).
			Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: r.url + "/mcp", HTTPClient: client}, nil)
		if err != nil {
			r.t.Fatalf("MCP over HTTP with a token: %v", err)
		}
		r.root.Cleanup(func() { cs.Close() }) // kept for later rows: not the row's t
		r.sessions[p.token] = cs
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: p.tool, Arguments: json.RawMessage(p.args)})
	if err != nil {
		return "rpc error " + err.Error()
	}
	return toolOutcome(res.IsError, res.Meta, res.Content)
}

func toolOutcome(isError bool, meta map[string]any, content []mcp.Content) string {
	if !isError {
		return "ok"
	}
	if code, ok := meta["code"].(string); ok {
		return "tool error " + code
	}
	for _, c := range content {
		if tc, ok := c.(*mcp.TextContent); ok {
			code, _, _ := strings.Cut(tc.Text, ":")
			return "tool error " + code
		}
	}
	return "tool error without a code"
}

type bearerTransport string

func (b bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(req)
}

// mcpStdio is `mneme mcp` driven line by line, so that a test can send any
// bytes.
type mcpStdio struct {
	stdin   io.WriteCloser
	replies chan []byte
	stderr  *bytes.Buffer
	next    int
}

func startMCPStdio(t *testing.T, home string) *mcpStdio {
	t.Helper()
	cmd := exec.Command(bin, "mcp")
	cmd.Env = append(os.Environ(), "MNEME_HOME="+home)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	m := &mcpStdio{stdin: stdin, replies: make(chan []byte, 64), stderr: &bytes.Buffer{}, next: 1000}
	cmd.Stderr = m.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			m.replies <- bytes.Clone(sc.Bytes())
		}
		close(m.replies)
	}()
	if got := m.call(t, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"security-table","version":"1"}}`); got != "ok" {
		t.Fatalf("initialize: %s", got)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return m
}

type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		IsError bool            `json:"isError"`
		Meta    map[string]any  `json:"_meta"`
		Content json.RawMessage `json:"content"`
	} `json:"result"`
	Error *struct{ Code int } `json:"error"`
}

// call sends a request and describes its reply: "ok", "tool error CODE"
// or "rpc CODE".
func (m *mcpStdio) call(t *testing.T, method, params string) string {
	t.Helper()
	m.next++
	id := fmt.Sprint(m.next)
	return m.exchange(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, params), id)
}

// raw sends a line that is not a valid request: its reply has a null id.
func (m *mcpStdio) raw(t *testing.T, line string) string {
	t.Helper()
	return m.exchange(t, line, "null")
}

func (m *mcpStdio) exchange(t *testing.T, line, id string) string {
	t.Helper()
	r := m.reply(t, line, id)
	switch {
	case r.Error != nil:
		return fmt.Sprintf("rpc %d", r.Error.Code)
	case r.Result == nil:
		return "no result"
	case !r.Result.IsError:
		return "ok"
	}
	if code, ok := r.Result.Meta["code"].(string); ok {
		return "tool error " + code
	}
	return "tool error without a code"
}

// text calls a tool and returns its result's content as sent.
func (m *mcpStdio) text(t *testing.T, tool, args string) string {
	t.Helper()
	m.next++
	id := fmt.Sprint(m.next)
	r := m.reply(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args), id)
	if r.Result == nil {
		return "no result"
	}
	return string(r.Result.Content)
}

// reply sends line and waits for the reply with id.
func (m *mcpStdio) reply(t *testing.T, line, id string) rpcReply {
	t.Helper()
	if _, err := io.WriteString(m.stdin, line+"\n"); err != nil {
		t.Fatalf("write to mneme mcp: %v\nstderr: %s", err, m.stderr)
	}
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l, open := <-m.replies:
			if !open {
				t.Fatalf("mneme mcp ended\nstderr: %s", m.stderr)
			}
			var r rpcReply
			if err := json.Unmarshal(l, &r); err != nil {
				t.Fatalf("reply %q: %v", l, err)
			}
			if string(r.ID) == id {
				return r
			} // else a notification, or an answer to someone else
		case <-timeout:
			t.Fatalf("no reply to %.100q\nstderr: %s", line, m.stderr)
		}
	}
}
