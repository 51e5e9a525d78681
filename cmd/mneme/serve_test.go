package main_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
