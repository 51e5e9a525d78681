package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
	"github.com/mneme-ai/mneme/sqlite"
)

// Tokens of the auth tests; each secret is 16+ characters as access.Check wants.
var (
	writer = access.Token{Name: "writer", Token: "writer-secret-0123456789", Access: "write"}
	reader = access.Token{Name: "reader", Token: "reader-secret-0123456789", Access: "read"}
	alpha  = access.Token{Name: "alpha", Token: "alpha-secret-0123456789", Access: "write", Projects: []string{"alpha"}}
	duo    = access.Token{Name: "duo", Token: "duo-secret-0123456789", Access: "read", Projects: []string{"alpha", "beta"}}
)

// env is a real server on a loopback port over a real engine and store.
type env struct {
	t    *testing.T
	eng  *mneme.Engine
	srv  *httptest.Server
	logs *syncBuffer
}

func newEnv(t *testing.T, cfg httpapi.Config) *env {
	t.Helper()
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	em, err := hash.New(64)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, logs: &syncBuffer{}}
	cfg.Logger = slog.New(slog.NewJSONHandler(e.logs, nil))
	e.restart(mneme.NewEngine(s, mneme.WithEmbedder(em)), cfg)
	return e
}

// restart serves eng, over the same store, in place of the running server:
// how a test changes the embedder (a provider down, another model).
func (e *env) restart(eng *mneme.Engine, cfg httpapi.Config) {
	if e.srv != nil {
		e.srv.Close()
	}
	e.eng = eng
	e.srv = httptest.NewServer(httpapi.New(eng, cfg))
	e.t.Cleanup(e.srv.Close)
}

type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends body (a string or []byte as is, anything else as JSON) with the
// token's secret, if a token is given, and Content-Type: application/json
// when there is a body.
func (e *env) do(method, path string, tok *access.Token, body any) response {
	e.t.Helper()
	var h map[string]string
	if body != nil {
		h = map[string]string{"Content-Type": "application/json"}
	}
	return e.send(method, path, tok, body, h)
}

// send is do with the given headers only; "Host" sets the request's Host.
func (e *env) send(method, path string, tok *access.Token, body any, header map[string]string) response {
	e.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, r)
	if err != nil {
		e.t.Fatal(err)
	}
	if tok != nil {
		req.Header.Set("Authorization", "Bearer "+tok.Token)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return response{resp.StatusCode, resp.Header, data}
}

// want checks the status and decodes the body strictly into out (if
// non-nil): the body must be exactly what the CLI prints for the same value
// (one line of JSON, HTML not escaped).
func (e *env) want(res response, status int, out any) {
	e.t.Helper()
	if res.status != status {
		e.t.Fatalf("status %d, want %d: %s", res.status, status, res.body)
	}
	if out == nil {
		return
	}
	if ct := res.header.Get("Content-Type"); ct != "application/json" {
		e.t.Fatalf("Content-Type %q, want application/json", ct)
	}
	reflect.ValueOf(out).Elem().SetZero() // no field left over from an earlier call
	if err := mneme.DecodeStrict(res.body, out); err != nil {
		e.t.Fatalf("body does not decode into %T: %v\n%s", out, err, res.body)
	}
	if cli := cliJSON(e.t, out); cli != string(res.body) {
		e.t.Fatalf("body differs from the CLI's JSON of the same value:\nhttp %s\ncli  %s", res.body, cli)
	}
}

// cliJSON encodes v as the CLI's printJSON does.
func cliJSON(t *testing.T, v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// wantError checks an error response: status, the CLI's error shape, code
// and a message containing each of parts.
func (e *env) wantError(res response, status int, code string, parts ...string) {
	e.t.Helper()
	var body struct {
		Error struct {
			Code    string       `json:"code"`
			Message string       `json:"message"`
			Hints   []mneme.Hint `json:"hints,omitempty"`
		} `json:"error"`
	}
	e.want(res, status, &body)
	if body.Error.Code != code {
		e.t.Fatalf("code %s, want %s: %s", body.Error.Code, code, body.Error.Message)
	}
	for _, p := range parts {
		if !strings.Contains(body.Error.Message, p) {
			e.t.Fatalf("message %q does not contain %q", body.Error.Message, p)
		}
	}
}

// remember stores text and returns its id.
func (e *env) remember(tok *access.Token, req mneme.RememberRequest) string {
	e.t.Helper()
	var res mneme.WriteResult
	e.want(e.do("POST", "/v1/memories", tok, req), http.StatusCreated, &res)
	return res.ID
}

func (e *env) stats() string {
	e.t.Helper()
	return string(e.do("GET", "/v1/stats", &writer, nil).body)
}

// syncBuffer is a log sink the server's goroutines share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
