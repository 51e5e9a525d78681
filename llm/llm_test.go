package llm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/llm"
)

const key = "sk-test-SECRET-key"

// answer writes content the way provider would.
func answer(w http.ResponseWriter, provider, content string) {
	w.Header().Set("Content-Type", "application/json")
	if provider == "ollama" {
		json.NewEncoder(w).Encode(map[string]any{"message": map[string]any{"role": "assistant", "content": content}, "done": true})
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}}})
}

func newGen(t *testing.T, provider, url, apiKey string) mneme.HypothesisGenerator {
	t.Helper()
	g, err := llm.New(llm.Config{Provider: provider, BaseURL: url, Model: "m1", APIKey: apiKey})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestRequestAndAnswer(t *testing.T) {
	for _, tc := range []struct {
		provider, apiKey, path string
		check                  func(t *testing.T, body map[string]any)
	}{
		{"ollama", "", "/api/chat", func(t *testing.T, b map[string]any) {
			opts, _ := b["options"].(map[string]any)
			if b["stream"] != false || opts["temperature"] != 0.0 || opts["seed"] != 42.0 {
				t.Errorf("stream %v, options %v", b["stream"], b["options"])
			}
		}},
		{"openai", "", "/v1/chat/completions", nil},
		{"openai", key, "/v1/chat/completions", func(t *testing.T, b map[string]any) {
			if b["temperature"] != 0.0 || b["seed"] != 42.0 || b["max_tokens"] != 200.0 {
				t.Errorf("temperature %v, seed %v, max_tokens %v", b["temperature"], b["seed"], b["max_tokens"])
			}
		}},
	} {
		t.Run(tc.provider+"/key="+fmt.Sprint(tc.apiKey != ""), func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost || r.URL.Path != tc.path || r.Header.Get("Content-Type") != "application/json" {
					t.Errorf("request %s %s %q", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
				}
				wantAuth := ""
				if tc.apiKey != "" {
					wantAuth = "Bearer " + tc.apiKey
				}
				if got := r.Header.Get("Authorization"); got != wantAuth {
					t.Errorf("Authorization %q, want %q", got, wantAuth)
				}
				var body struct {
					Model    string              `json:"model"`
					Messages []map[string]string `json:"messages"`
				}
				var raw map[string]any
				b, _ := io.ReadAll(r.Body)
				if json.Unmarshal(b, &raw) != nil || json.Unmarshal(b, &body) != nil {
					t.Errorf("body is not JSON: %s", b)
				}
				if body.Model != "m1" || len(body.Messages) != 2 ||
					body.Messages[0]["role"] != "system" || body.Messages[0]["content"] != llm.Prompt ||
					body.Messages[1]["role"] != "user" || body.Messages[1]["content"] != "where is the key?" {
					t.Errorf("body %s", b)
				}
				if tc.check != nil {
					tc.check(t, raw)
				}
				answer(w, tc.provider, "  Under the mat, said Ann.\n")
			}))
			defer srv.Close()
			g := newGen(t, tc.provider, srv.URL+"/", tc.apiKey)
			h, err := g.Hypothesize(context.Background(), "where is the key?")
			want := mneme.Hypothesis{Text: "Under the mat, said Ann.", Query: "where is the key?", GeneratorID: tc.provider + "/m1", GeneratorVersion: "prompt-1"}
			if err != nil || h != want {
				t.Fatalf("got %+v, %v; want %+v", h, err, want)
			}
			if id, version := g.Generator(); id != want.GeneratorID || version != want.GeneratorVersion {
				t.Errorf("Generator() = %q, %q", id, version)
			}
			if err := h.Check(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	long := strings.Repeat("é", 300) // 600 bytes: must be cut to at most 200 on a rune boundary
	for _, tc := range []struct {
		name    string
		status  int
		body    string // raw body when status != 200
		content string // answer content when status == 200
		want    string
		msg     string // the message must contain this
	}{
		{name: "500", status: 500, body: "boom", want: mneme.EUNAVAILABLE, msg: "HTTP 500: boom"},
		{name: "429", status: 429, body: "slow down", want: mneme.EUNAVAILABLE, msg: "llm.url"},
		{name: "401", status: 401, body: "bad key", want: mneme.EINVALID, msg: "refused the credentials"},
		{name: "403", status: 403, want: mneme.EINVALID, msg: "API key"},
		{name: "404", status: 404, body: long, want: mneme.EINVALID, msg: "HTTP 404"},
		{name: "bad JSON", status: 200, body: "not json", want: mneme.EUNAVAILABLE, msg: "unexpected JSON"},
		{name: "blank", status: 200, content: " \n\t", want: mneme.EUNAVAILABLE, msg: "no text"},
		{name: "empty", status: 200, content: "", want: mneme.EUNAVAILABLE, msg: "no text"},
		{name: "closed", want: mneme.EUNAVAILABLE, msg: "cannot reach"},
	} {
		for _, provider := range []string{"ollama", "openai"} {
			t.Run(tc.name+"/"+provider, func(t *testing.T) {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if tc.status == 200 && tc.body == "" {
						answer(w, provider, tc.content)
						return
					}
					w.WriteHeader(tc.status)
					w.Write([]byte(tc.body))
				}))
				g := newGen(t, provider, srv.URL, key)
				if tc.name == "closed" {
					srv.Close()
				}
				defer srv.Close()
				_, err := g.Hypothesize(context.Background(), "q")
				if code := mneme.ErrorCode(err); code != tc.want {
					t.Fatalf("code %q, want %q (%v)", code, tc.want, err)
				}
				msg := mneme.ErrorMessage(err)
				if !strings.Contains(msg, tc.msg) {
					t.Errorf("message %q lacks %q", msg, tc.msg)
				}
				if strings.Contains(msg, key) || strings.Contains(fmt.Sprintf("%+v", err), key) {
					t.Errorf("API key leaked: %s", msg)
				}
				if tc.want == mneme.EUNAVAILABLE && !strings.Contains(msg, srv.URL) {
					t.Errorf("message does not name the URL: %s", msg)
				}
				if tc.name == "404" && (strings.Contains(msg, strings.Repeat("é", 101)) || !strings.Contains(msg, strings.Repeat("é", 100))) {
					t.Errorf("body not quoted as 200 bytes: %s", msg)
				}
			})
		}
	}
}

func TestNewRejects(t *testing.T) {
	for _, tc := range []struct {
		cfg  llm.Config
		want string // config field the message must name
	}{
		{llm.Config{Provider: "claude", Model: "x"}, "llm.provider"},
		{llm.Config{Model: "x"}, "llm.provider"},
		{llm.Config{Provider: "ollama"}, "llm.model"},
		{llm.Config{Provider: "openai", Model: "  "}, "llm.model"},
	} {
		g, err := llm.New(tc.cfg)
		if g != nil || mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), tc.want) {
			t.Errorf("New(%+v) = %v, %v; want EINVALID naming %s", tc.cfg, g, err, tc.want)
		}
	}
}

// TestWithModel: a call may choose the configured model or one of
// Models, no other; the choice keeps the provider and server.
func TestWithModel(t *testing.T) {
	g, err := llm.New(llm.Config{Provider: "ollama", BaseURL: "http://127.0.0.1:9", Model: "m1", Models: []string{"m2"}})
	if err != nil {
		t.Fatal(err)
	}
	c := g.(interface {
		WithModel(string) (mneme.HypothesisGenerator, error)
	})
	for _, c2 := range []struct{ model, id, err string }{
		{"m2", "ollama/m2", ""},
		{"m1", "ollama/m1", ""},
		{"gpt-5", "", `model "gpt-5" is not one this deployment allows: use m1, m2`},
	} {
		other, err := c.WithModel(c2.model)
		if c2.err != "" {
			if mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), c2.err) {
				t.Errorf("%s: %v", c2.model, err)
			}
			continue
		}
		if id, _ := other.Generator(); err != nil || id != c2.id {
			t.Errorf("%s: %s, %v", c2.model, id, err)
		}
	}
	if id, _ := g.Generator(); id != "ollama/m1" {
		t.Errorf("the configured generator changed: %s", id)
	}
}
