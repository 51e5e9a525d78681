// Package webui is mneme's web UI: static pages and ES modules, embedded in
// the binary, that call the HTTP API with the user's token. It needs no
// build step and no network: `go install` gives a working UI.
package webui

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

//go:embed static
var files embed.FS

// Policy is the Content-Security-Policy of every file the UI serves: its
// own scripts and styles only (no inline code, nothing from elsewhere),
// calls to its own origin only, and no framing (clickjacking).
const Policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the UI: index.html at /, the other files under /ui/.
func Handler() http.Handler {
	static, _ := fs.Sub(files, "static")
	assets := http.StripPrefix("/ui/", http.FileServerFS(static))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", Policy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cache-Control", "no-cache") // revalidate: a new binary serves new files
		switch {
		case r.URL.Path == "/":
			http.ServeFileFS(w, r, static, "index.html")
		case strings.HasSuffix(r.URL.Path, "/") || r.URL.Path == "/ui/index.html":
			http.NotFound(w, r) // no directory listings; the page lives at /
		default:
			assets.ServeHTTP(w, r)
		}
	})
}
