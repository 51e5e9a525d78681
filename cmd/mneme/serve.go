package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/mcpserver"
	"github.com/mneme-ai/mneme/webui"
)

func init() {
	commands["serve"] = command{
		usage:   "serve [--addr 127.0.0.1:7077]",
		summary: "serve the web UI (/), the HTTP JSON API (/v1/), MCP over streamable HTTP (/mcp) and metrics (/metrics)",
		run:     runServe,
	}
}

func runServe(a *app, args []string) error {
	fs := a.flags()
	a.embedderFlag(fs)
	addr := fs.String("addr", "127.0.0.1:7077", "address to listen on (host:port; port 0 picks a free one)")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	c, err := a.config()
	if err != nil {
		return err
	}
	conf, err := c.Serving()
	if err != nil {
		return err
	}
	tokens := conf.Tokens
	if err := checkExposure(*addr, len(tokens)); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return mneme.Invalid("cannot listen on %s: %v", mneme.Clip(*addr), errors.Unwrap(err))
	}
	eng, srv, err := a.openServer()
	if err != nil {
		ln.Close()
		return err
	}
	defer eng.Close()
	code, err := c.CodeService()
	if err != nil {
		return err
	}
	home := c.Home
	log := slog.New(slog.NewJSONHandler(a.stderr, nil))
	handler := httpapi.New(eng, httpapi.Config{Tokens: tokens, MaxBody: conf.MaxBodyBytes, Logger: log, Version: version(),
		StoreSize: func() int64 { return dirSize(home) },
		MCP:       mcpserver.HTTPHandler(srv, conf.MCP), Code: code, UI: webui.Handler(),
		AllowedHosts: append(boundHosts(*addr, ln.Addr()), conf.AllowedHosts...), AllowedOrigins: conf.AllowedOrigins})
	server := &http.Server{Handler: writeDeadline(handler, 2*time.Minute), ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: time.Minute, IdleTimeout: 2 * time.Minute, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	ctx, stop := signal.NotifyContext(a.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	stopSync := keepEmbedding(ctx, eng, log)
	defer stopSync() // before the store closes
	served := make(chan error, 1)
	go func() { served <- server.Serve(ln) }()
	log.Info("serving", "url", "http://"+ln.Addr().String(), "ui", "/", "api", "/v1/", "mcp", "/mcp", "home", home, "tokens", len(tokens),
		"mcp_session_timeout", conf.MCP.SessionTimeout.String(), "mcp_max_sessions", conf.MCP.MaxSessions)
	select {
	case err := <-served:
		return mneme.InternalError(err, "serve")
	case <-ctx.Done():
	}
	// Finish the requests in flight (every acknowledged write is committed
	// before its response), then close the store.
	log.Info("shutting down")
	shutdown, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := server.Shutdown(shutdown); err != nil {
		return mneme.InternalError(err, "shut down")
	}
	return nil
}

// writeDeadline bounds the time to write each response, except on /mcp:
// there a client may hold a GET open for server-sent events as long as its
// session lives (a server-wide WriteTimeout would cut it).
func writeDeadline(next http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/mcp" {
			http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d))
		}
		next.ServeHTTP(w, r)
	})
}

// checkExposure refuses to serve memory without tokens beyond loopback:
// anyone who could reach the port could read and change everything.
func checkExposure(addr string, tokens int) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return mneme.Invalid("--addr %q is not host:port, like 127.0.0.1:7077", mneme.Clip(addr))
	}
	if tokens > 0 {
		return nil
	}
	if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
		return nil
	}
	return mneme.Invalid("refusing to serve on %s without tokens: anyone who can reach it could read and change every memory; add server.tokens to config.json (see docs/http.md, \"Auth\"), or bind to 127.0.0.1", mneme.Clip(addr))
}

// boundHosts are the hosts a server bound to one address beyond loopback
// (which takes tokens) answers besides the configured ones: that address,
// as --addr names it and as it resolved.
func boundHosts(addr string, bound net.Addr) []string {
	host, _, _ := net.SplitHostPort(addr)
	var out []string
	for _, h := range []string{host, bound.(*net.TCPAddr).IP.String()} {
		ip := net.ParseIP(h)
		switch {
		case h == "" || h == "localhost" || (ip != nil && (ip.IsUnspecified() || ip.IsLoopback())):
		case ip != nil && ip.To4() == nil:
			out = append(out, "["+ip.String()+"]")
		default:
			out = append(out, h)
		}
	}
	return out
}

// dirSize is the bytes of the data directory's files (database, WAL,
// index snapshots).
func dirSize(dir string) int64 {
	var total int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := os.Stat(filepath.Join(dir, e.Name())); err == nil && info.Mode().IsRegular() {
			total += info.Size()
		}
	}
	return total
}
