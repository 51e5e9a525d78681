package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/sqlite"
)

// BenchmarkGuard measures what the gate (gate.go) adds to a request, whose
// budget is 0.2 ms on a write:
//
//   - admit: the checks alone on a write's headers (Host, Content-Type,
//     and no, the server's own, or a configured Origin);
//   - write: POST /v1/memories through the whole handler over a real
//     SQLite store, with and without the gate;
//   - noop: POST /mcp with a handler that does nothing, with and without
//     the gate (the overhead without a store's noise).
//
// go test -run '^$' -bench Guard -count 5 ./httpapi/
func BenchmarkGuard(b *testing.B) {
	noop := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	cfg := Config{MCP: noop, AllowedHosts: []string{"mneme.lan"}, AllowedOrigins: []string{"https://app.example.com"}}
	const host, self = "127.0.0.1:7077", "http://127.0.0.1:7077"
	request := func(path, origin, body string) *http.Request {
		r := httptest.NewRequest("POST", path, strings.NewReader(body))
		r.Host = host
		r.Header.Set("Content-Type", "application/json")
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		return r
	}

	g := newGate(cfg.AllowedHosts, cfg.AllowedOrigins)
	for _, origin := range []string{"", self, "https://app.example.com"} {
		name := map[string]string{"": "none", self: "same", "https://app.example.com": "configured"}[origin]
		b.Run("admit/origin="+name, func(b *testing.B) {
			r := request("/v1/memories", origin, `{"text":"x"}`)
			w := httptest.NewRecorder()
			for b.Loop() {
				clear(w.Header()) // a response's headers are new each time
				if !g.admit(w, r, "POST /v1/memories") {
					b.Fatal("refused")
				}
			}
		})
	}

	// Each run on a new store, so that neither mode writes into a bigger one.
	for _, mode := range []string{"with", "without"} {
		server := func(b *testing.B) *server {
			st, err := sqlite.Open(context.Background(), b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			em, err := hash.New(64)
			if err != nil {
				b.Fatal(err)
			}
			eng := mneme.NewEngine(st, mneme.WithEmbedder(em))
			b.Cleanup(func() { eng.Close() })
			s := New(eng, cfg).(*server)
			if mode == "without" {
				s.admit = func(http.ResponseWriter, *http.Request, string) bool { return true }
			}
			return s
		}
		b.Run("noop/"+mode, func(b *testing.B) {
			s := server(b)
			for b.Loop() {
				w := httptest.NewRecorder()
				s.ServeHTTP(w, request("/mcp", self, `{}`))
				if w.Code != 200 {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
		b.Run("write/"+mode, func(b *testing.B) {
			s := server(b)
			i := 0
			for b.Loop() {
				i++
				w := httptest.NewRecorder()
				s.ServeHTTP(w, request("/v1/memories", self, fmt.Sprintf(`{"text":"benchmark write %d","project":"bench"}`, i)))
				if w.Code != 201 {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}
