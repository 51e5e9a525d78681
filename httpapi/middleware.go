package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// reqInfo collects what the log line needs from inside the handlers.
type reqInfo struct {
	token, code, err string
}

type infoKey struct{}

func infoFrom(ctx context.Context) *reqInfo {
	info, _ := ctx.Value(infoKey{}).(*reqInfo)
	return info
}

// ServeHTTP passes r through the gate (gate.go), routes it, answers the mux's own 404 and 405 in JSON, and
// records the request's metrics and log line under its route pattern (never
// the raw path: ids would explode the label set).
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	info := &reqInfo{}
	r = r.WithContext(context.WithValue(r.Context(), infoKey{}, info))
	rec := &recorder{ResponseWriter: w}
	_, pattern := s.mux.Handler(r)
	defer func() {
		p := recover()
		if p != nil && p != http.ErrAbortHandler && rec.status == 0 {
			s.log.Error("panic", "route", pattern, "panic", p)
			writeError(rec, http.StatusInternalServerError, mneme.EINTERNAL, "internal error")
		}
		s.done(r, pattern, rec, info, time.Since(start))
		if p != nil {
			panic(http.ErrAbortHandler) // the connection cannot be trusted; net/http closes it quietly
		}
	}()
	if !s.admit(rec, r, pattern) {
		return
	}
	if pattern == "" {
		s.unrouted(rec, r)
		return
	}
	s.mux.ServeHTTP(rec, r)
}

// unrouted answers a request no pattern matches, in JSON: 405 with Allow
// when another method would match, else 404.
func (s *server) unrouted(w http.ResponseWriter, r *http.Request) {
	probe := &probe{header: http.Header{}}
	s.mux.ServeHTTP(probe, r)
	if allow := probe.header.Get("Allow"); probe.status == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, mneme.EINVALID,
			"method "+mneme.Clip(r.Method)+" is not allowed on "+mneme.Clip(r.URL.Path)+": use "+allow)
		return
	}
	writeError(w, http.StatusNotFound, mneme.ENOTFOUND,
		"no route "+mneme.Clip(r.Method)+" "+mneme.Clip(r.URL.Path)+": see GET /v1/openapi.json for the routes")
}

// done logs the request and counts it. The log names the token, never its
// secret, and no bodies or queries.
func (s *server) done(r *http.Request, pattern string, rec *recorder, info *reqInfo, d time.Duration) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	if pattern == "" {
		pattern = "unmatched"
	}
	s.series.observeRequest(pattern, r.Method, rec.status, d)
	attrs := []any{"method", r.Method, "route", pattern, "status", rec.status,
		"duration_ms", float64(d.Microseconds()) / 1000, "bytes", rec.bytes}
	if info.token != "" {
		attrs = append(attrs, "token", info.token)
	}
	if info.code != "" {
		attrs = append(attrs, "code", info.code)
	}
	if info.err != "" {
		attrs = append(attrs, "error", info.err)
	}
	lvl := slog.LevelInfo
	if rec.status >= 500 {
		lvl = slog.LevelError
		s.errors.add(recentError{At: time.Now().UTC(), Route: pattern, Status: rec.status, Code: info.code, Message: info.err})
	}
	s.log.Log(r.Context(), lvl, "http request", attrs...)
}

// recorder notes the status and the body's size.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *recorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *recorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController (MCP's streaming) reach the flusher.
func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// probe keeps a plain-text answer (the mux's 404 and 405, the bearer
// middleware's refusals) so it can be sent as JSON instead.
type probe struct {
	header http.Header
	status int
	body   strings.Builder
}

func (p *probe) Header() http.Header         { return p.header }
func (p *probe) Write(b []byte) (int, error) { return p.body.Write(b) }
func (p *probe) WriteHeader(status int)      { p.status = status }

// methodLabel bounds the method label to the standard methods.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
		return m
	}
	return "OTHER"
}
