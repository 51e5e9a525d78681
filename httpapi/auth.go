package httpapi

import (
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/access"
)

// guard lets through the callers a route's level allows: any for public
// routes; with tokens configured, a valid bearer token, which must allow
// writing for write routes.
func (s *server) guard(lv level, h http.Handler) http.Handler {
	if lv == public {
		return h
	}
	checked := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sc := access.FromContext(r.Context())
		r = r.WithContext(mneme.WithScope(r.Context(), sc)) // the Engine enforces it
		if info := infoFrom(r.Context()); info != nil && len(s.cfg.Tokens) > 0 {
			info.token = sc.Name
		}
		if lv == write && !sc.Write {
			fail(w, r, forbidden("token %q is read-only and %s %s writes: use a token with access write", sc.Name, r.Method, mneme.Clip(r.URL.Path)))
			return
		}
		h.ServeHTTP(w, r)
	})
	if len(s.cfg.Tokens) == 0 {
		return checked
	}
	return bearer(s.cfg.Tokens, checked)
}

// bearer verifies the token with the MCP SDK's middleware (shared with MCP
// over HTTP) and turns its plain-text refusals into JSON errors.
func bearer(tokens []access.Token, next http.Handler) http.Handler {
	mw := auth.RequireBearerToken(access.Verifier(tokens), &auth.RequireBearerTokenOptions{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		passed := false
		refusal := &probe{header: http.Header{}}
		mw(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
			passed = true
			next.ServeHTTP(w, r)
		})).ServeHTTP(refusal, r)
		if passed {
			return
		}
		msg := strings.TrimSpace(refusal.body.String())
		code := mneme.EINTERNAL
		switch refusal.status {
		case http.StatusUnauthorized:
			code, msg = EUNAUTHORIZED, msg+": send the header Authorization: Bearer TOKEN with a configured token"
			w.Header().Set("WWW-Authenticate", `Bearer realm="mneme"`)
		case http.StatusForbidden:
			code = EFORBIDDEN
		case http.StatusBadRequest:
			code = mneme.EINVALID
		}
		fail(w, r, mneme.Errorf(code, "%s", msg))
	})
}
