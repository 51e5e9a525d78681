package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
	"github.com/mneme-ai/mneme/sqlite"
)

// fuzzHandler is the API over a real store in a temporary home, with and
// without tokens, and the id of a stored record (for the {id} routes).
func fuzzHandler(f *testing.F, cfg httpapi.Config) (http.Handler, string) {
	f.Helper()
	s, err := sqlite.Open(context.Background(), f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	em, err := hash.New(32)
	if err != nil {
		f.Fatal(err)
	}
	eng := mneme.NewEngine(s, mneme.WithEmbedder(em))
	res, err := eng.RememberRequests(context.Background(), []mneme.RememberRequest{{Text: "the deploy runs on Fridays", Project: "alpha", Tags: []string{"ops"}}})
	if err != nil {
		f.Fatal(err)
	}
	return httpapi.New(eng, cfg), res.ID
}

// fuzzRoutes are the routes that read a body or query parameters.
var fuzzRoutes = []struct{ method, path string }{
	{"POST", "/v1/memories"},
	{"POST", "/v1/memories/batch"},
	{"PATCH", "/v1/memories/{id}"},
	{"POST", "/v1/forget"},
	{"POST", "/v1/recall"},
	{"POST", "/v1/recall/batch"},
	{"POST", "/v1/import"},
	{"GET", "/v1/memories"},
	{"GET", "/v1/memories/{id}"},
	{"DELETE", "/v1/memories/{id}"},
	{"POST", "/v1/promote"},
	{"POST", "/v1/prune"},
}

// statusOf is the HTTP status each error code must come with.
var statusOf = map[string]int{"EINVALID": 400, "ENOTFOUND": 404, "ECONFLICT": 409, "EFORBIDDEN": 403, "EUNAUTHORIZED": 401}

// checkResponse: never a 5xx; an error is the JSON error shape with the
// status its code maps to (413 and 415 for bodies, 405 for methods); a
// success is JSON.
func checkResponse(t *testing.T, label string, rec *httptest.ResponseRecorder) {
	t.Helper()
	body := rec.Body.Bytes()
	if rec.Code >= 500 {
		t.Fatalf("%s: %d %s", label, rec.Code, body)
	}
	if rec.Code < 300 {
		if rec.Code != http.StatusNoContent && len(body) > 0 && !json.Valid(body) && !json.Valid(bytes.TrimSpace(bytes.Split(body, []byte("\n"))[0])) {
			t.Fatalf("%s: %d with a body that is not JSON: %.200s", label, rec.Code, body)
		}
		return
	}
	var e struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		t.Fatalf("%s: %d with a body that is not a JSON error: %.300s", label, rec.Code, body)
	}
	want, ok := statusOf[e.Error.Code]
	switch {
	case rec.Code == 413 || rec.Code == 415 || rec.Code == 405:
	case !ok || want != rec.Code:
		t.Fatalf("%s: status %d with code %s", label, rec.Code, e.Error.Code)
	}
}

// FuzzHandlers sends arbitrary bodies and query strings to each route that
// reads one, on an open server and one with tokens: the handler never
// panics, never answers 5xx, and answers errors as JSON with the right
// status. With tokens, the secret is sent when tokenised is set.
func FuzzHandlers(f *testing.F) {
	open, openID := fuzzHandler(f, httpapi.Config{})
	tokens := []access.Token{{Name: "w", Token: "fuzz-writer-0123456789", Access: "write", Projects: []string{"alpha"}},
		{Name: "r", Token: "fuzz-reader-0123456789", Access: "read"}}
	guarded, guardedID := fuzzHandler(f, httpapi.Config{Tokens: tokens})
	f.Fuzz(func(t *testing.T, route uint8, query string, body []byte, token uint8) {
		rt := fuzzRoutes[int(route)%len(fuzzRoutes)]
		h, id := open, openID
		if token%4 != 0 {
			h, id = guarded, guardedID
		}
		path := strings.Replace(rt.path, "{id}", id, 1)
		if query != "" {
			path += "?" + query
		}
		var req *http.Request
		func() {
			defer func() {
				if recover() != nil {
					req = nil // a query httptest cannot put in a request line
				}
			}()
			req = httptest.NewRequest(rt.method, "http://127.0.0.1:7077"+path, bytes.NewReader(body))
		}()
		if req == nil {
			return
		}
		if len(body) > 0 {
			req.Header.Set("Content-Type", "application/json")
		}
		switch token % 4 {
		case 1:
			req.Header.Set("Authorization", "Bearer "+tokens[0].Token)
		case 2:
			req.Header.Set("Authorization", "Bearer "+tokens[1].Token)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		checkResponse(t, rt.method+" "+path, rec)
	})
}

// FuzzGate sends arbitrary Host, Origin and Content-Type headers (and
// method) through the gate in front of every route, on a server with
// allowed hosts and origins configured: no panic, no 5xx, errors as JSON.
// The configured lists themselves are checked with CheckHosts and
// CheckOrigins, which must refuse with EINVALID or accept, never panic.
func FuzzGate(f *testing.F) {
	h, _ := fuzzHandler(f, httpapi.Config{AllowedHosts: []string{"mneme.lan", "192.168.1.20:7077", "[2001:db8::1]"},
		AllowedOrigins: []string{"https://app.example.com", "http://localhost:5173"}})
	f.Fuzz(func(t *testing.T, method, host, origin, contentType string) {
		for _, err := range []error{httpapi.CheckHosts([]string{host}), httpapi.CheckOrigins([]string{origin})} {
			if err != nil && mneme.ErrorCode(err) != mneme.EINVALID {
				t.Fatalf("check %q %q: %v", host, origin, err)
			}
		}
		switch method {
		case "GET", "POST", "OPTIONS", "PATCH", "DELETE", "PUT", "HEAD":
		default:
			method = "POST"
		}
		req := httptest.NewRequest(method, "http://127.0.0.1:7077/v1/recall", strings.NewReader(`{"query":"deploy"}`))
		req.Host = host
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Access-Control-Request-Method", "POST")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		checkResponse(t, method+" Host "+host+" Origin "+origin+" Content-Type "+contentType, rec)
	})
}
