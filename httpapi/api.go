// Package httpapi serves mneme over HTTP: the CLI's commands as JSON
// routes under /v1/ with the same semantics and shapes (those live in the
// mneme package), bearer-token scopes, Prometheus metrics and an OpenAPI
// document, behind a gate that keeps web pages from driving it (gate.go).
package httpapi

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/codemem"
	"github.com/mneme-ai/mneme/internal/access"
)

// Config configures the handler.
type Config struct {
	Tokens  []access.Token // already checked (access.Check); empty: open
	MaxBody int64          // request body limit in bytes; 0: DefaultMaxBody
	MCP     http.Handler   // mounted at /mcp behind the same auth, if non-nil
	// UI is the web UI (package webui), mounted at / and /ui/ without
	// auth: its pages hold no data and call the API with the user's token.
	UI        http.Handler
	Logger    *slog.Logger // one line per request; nil: no logs
	StoreSize func() int64 // bytes on disk, for /metrics; nil: not reported
	Version   string
	// Code serves /v1/code/ (codemem.Options.Restrict to code.roots); nil
	// refuses every repository.
	Code *codemem.Service

	// AllowedHosts are the Host names answered besides loopback ones
	// (localhost, 127.0.0.1, [::1]): a name or address on any port, or
	// host:port. AllowedOrigins may call the server from a browser, with
	// CORS: scheme://host[:port]. Both already checked (CheckHosts,
	// CheckOrigins); see gate.go.
	AllowedHosts   []string
	AllowedOrigins []string
}

// DefaultMaxBody is the request body limit when Config.MaxBody is 0.
const DefaultMaxBody = 8 << 20

// level is what a route asks of the caller.
type level int

const (
	public level = iota // no token (health, the API's description)
	read
	write
)

// route is one entry of the mux: pattern, who may call it, handler.
type route struct {
	pattern string
	level   level
	handle  func(s *server, w http.ResponseWriter, r *http.Request) error
}

// routes is the API; openapi_test.go checks openapi.json against it.
var routes = []route{
	{"GET /v1/health", public, (*server).health},
	{"GET /v1/openapi.json", public, (*server).openAPI},
	{"POST /v1/memories", write, (*server).remember},
	{"POST /v1/memories/batch", write, (*server).rememberBatch},
	{"GET /v1/memories", read, (*server).list},
	{"GET /v1/memories/{id}", read, (*server).get},
	{"PATCH /v1/memories/{id}", write, (*server).patch},
	{"DELETE /v1/memories/{id}", write, (*server).delete},
	{"POST /v1/forget", write, (*server).forget},
	{"POST /v1/prune", write, (*server).prune},
	{"POST /v1/recall", read, (*server).recall},
	{"POST /v1/recall/batch", read, (*server).recallBatch},
	{"POST /v1/context", read, (*server).context},
	{"POST /v1/context/batch", read, (*server).contextBatch},
	{"POST /v1/context/evidence", read, (*server).contextEvidence},
	{"POST /v1/ground", read, (*server).ground},
	{"POST /v1/answers", read, (*server).putAnswer},
	{"POST /v1/summarize", write, (*server).summarize},
	{"POST /v1/promote", write, (*server).promote},
	{"POST /v1/ops", write, (*server).opsWrite},
	{"GET /v1/ops", read, (*server).opsRead},
	{"POST /v1/ops/prune", write, (*server).opsPrune},
	{"GET /v1/stats", read, (*server).stats},
	{"GET /v1/cache/stats", read, (*server).cacheStats},
	{"GET /v1/jobs", read, (*server).listJobs},
	{"GET /v1/export", read, (*server).export},
	{"POST /v1/import", write, (*server).importRecords},
	{"GET /metrics", read, (*server).metrics},
	{"GET /v1/scope", read, (*server).scope},
	{"GET /v1/memories/{id}/related", read, (*server).related},
	{"POST /v1/memories/{id}/links", write, (*server).link},
	{"DELETE /v1/memories/{id}/links/{to}", write, (*server).unlink},
	{"GET /v1/tags", read, (*server).tags},
	{"GET /v1/doctor", read, (*server).doctor},
}

// mcpPatterns mount Config.MCP for the methods of MCP's Streamable HTTP
// transport.
var mcpPatterns = []string{"POST /mcp", "GET /mcp", "DELETE /mcp"}

// uiPatterns mount Config.UI: its page at / only (other paths stay the
// API's JSON 404s) and its files under /ui/.
var uiPatterns = []string{"GET /{$}", "GET /ui/"}

type server struct {
	eng    *mneme.Engine
	cfg    Config
	mux    *http.ServeMux
	log    *slog.Logger
	series *metrics
	errors errorRing                                             // the latest failed requests, for GET /v1/doctor
	admit  func(http.ResponseWriter, *http.Request, string) bool // the gate's
}

// New returns the HTTP API over eng. It adds a recall observer to eng
// for the stage metrics.
func New(eng *mneme.Engine, cfg Config) http.Handler {
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	s := &server{eng: eng, cfg: cfg, mux: http.NewServeMux(), log: cfg.Logger, series: newMetrics()}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.admit = newGate(cfg.AllowedHosts, cfg.AllowedOrigins).admit
	eng.Observe(mneme.Observer{Stage: s.series.observeStage, Cache: s.series.observeCache})
	for _, rt := range routes {
		s.mux.Handle(rt.pattern, s.guard(rt.level, s.endpoint(rt.handle)))
	}
	if cfg.MCP != nil {
		for _, p := range mcpPatterns {
			s.mux.Handle(p, s.guard(read, s.limit(utf8Only(cfg.MCP))))
		}
	}
	if cfg.UI != nil {
		for _, p := range uiPatterns {
			s.mux.Handle(p, cfg.UI)
		}
	}
	return s
}

// endpoint adapts a route's handler: its error becomes the JSON answer.
func (s *server) endpoint(h func(*server, http.ResponseWriter, *http.Request) error) http.Handler {
	return s.limit(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(s, w, r); err != nil {
			fail(w, r, err)
		}
	}))
}

// utf8Only refuses a body that is not valid UTF-8 (the MCP SDK's JSON
// decoding would silently replace the bytes), as the API's own routes do.
func utf8Only(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.ContentLength == 0 {
			h.ServeHTTP(w, r)
			return
		}
		data, err := readBody(r)
		if err != nil {
			fail(w, r, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(data))
		h.ServeHTTP(w, r)
	})
}

// limit bounds the request body to Config.MaxBody.
func (s *server) limit(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
		h.ServeHTTP(w, r)
	})
}
