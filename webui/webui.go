// Package webui is mneme's web UI: static pages and ES modules, embedded in
// the binary, that call the HTTP API with the user's token. It needs no
// build step and no network: `go install` gives a working UI.
package webui

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"strings"
	"time"
)

//go:embed static
var files embed.FS

// Policy is the Content-Security-Policy of every file the UI serves: its
// own scripts and styles only (no inline code, nothing from elsewhere),
// calls to its own origin only, and no framing (clickjacking).
const Policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the UI: index.html at /, the other files under
// /ui/VERSION/, where VERSION is a hash of every file: a browser keeps
// them for good (immutable) and a new binary's files get new addresses.
// Modules import each other by relative paths, so they follow.
func Handler() http.Handler {
	static, _ := fs.Sub(files, "static")
	version := digest(static)
	prefix := "/ui/" + version + "/"
	index, _ := fs.ReadFile(static, "index.html")
	index = bytes.ReplaceAll(index, []byte(`"/ui/`), []byte(`"`+prefix))
	assets := http.StripPrefix(prefix, http.FileServerFS(static))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", Policy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		switch p := r.URL.Path; {
		case p == "/":
			h.Set("Cache-Control", "no-cache") // the page names the current files
			http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(index))
		case !strings.HasPrefix(p, prefix) || strings.HasSuffix(p, "/") || p == prefix+"index.html":
			http.NotFound(w, r) // another version, a directory, or the page under another name
		default:
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
			assets.ServeHTTP(w, r)
		}
	})
}

// digest is a short hash of every file in fsys.
func digest(fsys fs.FS) string {
	sum := sha256.New()
	fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error { //nolint:errcheck // embedded: cannot fail
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(fsys, path)
			sum.Write([]byte(path + "\x00"))
			sum.Write(b)
		}
		return nil
	})
	return hex.EncodeToString(sum.Sum(nil))[:12]
}

// AssetPrefix is where Handler serves the files other than the page, for
// tests.
func AssetPrefix() string {
	static, _ := fs.Sub(files, "static")
	return "/ui/" + digest(static) + "/"
}
