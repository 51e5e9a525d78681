package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
)

// TestLinks: a token links and unlinks records it may write; a target in
// another project or secret is refused as a missing one is (400, the same
// message), an unknown relation too, and GET never shows a hidden target.
func TestLinks(t *testing.T) {
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer, alpha}})
	from := e.remember(&alpha, mneme.RememberRequest{Text: "alpha's launch summary", Project: "alpha"})
	to := e.remember(&alpha, mneme.RememberRequest{Text: "alpha's launch checklist", Project: "alpha"})
	beta := e.remember(&writer, mneme.RememberRequest{Text: "beta's launch plan", Project: "beta"})
	const missing = "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"
	var res mneme.LinkResult
	e.want(e.do("POST", "/v1/memories/"+from+"/links", &alpha, map[string]string{"to": to, "rel": "derived_from"}), http.StatusOK, &res)
	if !res.Changed || len(res.Record.Links) != 1 || res.Record.Links[0] != (mneme.Link{Type: "derived_from", Target: to}) {
		t.Fatalf("link = %+v", res)
	}
	message := func(target string) string {
		r := e.do("POST", "/v1/memories/"+from+"/links", &alpha, map[string]string{"to": target, "rel": "relates_to"})
		var body struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		e.want(r, http.StatusBadRequest, &body)
		return strings.ReplaceAll(body.Error.Message, target, "ID")
	}
	if m, hidden := message(missing), message(beta); m != hidden {
		t.Fatalf("a missing target answers %q, another project's %q", m, hidden)
	}
	e.wantError(e.do("POST", "/v1/memories/"+from+"/links", &alpha, map[string]string{"to": to, "rel": "inspired_by"}), http.StatusBadRequest, mneme.EINVALID, "relates_to")
	// The owner's link to beta's record is not shown to alpha.
	e.want(e.do("POST", "/v1/memories/"+from+"/links", &writer, map[string]string{"to": beta, "rel": "relates_to"}), http.StatusOK, &res)
	var got mneme.Record
	e.want(e.do("GET", "/v1/memories/"+from, &alpha, nil), http.StatusOK, &got)
	if len(got.Links) != 1 || got.Links[0].Target != to {
		t.Fatalf("alpha sees links %v, want only the one to %s", got.Links, to)
	}
	for _, path := range []string{"/v1/export", "/v1/memories?project=alpha", "/v1/memories/" + to + "/related"} {
		if r := e.do("GET", path, &alpha, nil); r.status != http.StatusOK || strings.Contains(string(r.body), beta) {
			t.Fatalf("GET %s by alpha: %d, names beta's record %s:\n%s", path, r.status, beta, r.body)
		}
	}
	if r := e.do("POST", "/v1/recall", &alpha, map[string]any{"query": "alpha launch summary", "expand": 3}); r.status != http.StatusOK || strings.Contains(string(r.body), beta) {
		t.Fatalf("recall by alpha: %d, names beta's record:\n%s", r.status, r.body)
	}
	e.want(e.do("DELETE", "/v1/memories/"+from+"/links/"+to+"?rel=derived_from", &alpha, nil), http.StatusOK, &res)
	if !res.Changed || len(res.Record.Links) != 0 {
		t.Fatalf("unlink = %+v", res)
	}
	e.want(e.do("GET", "/v1/memories/"+from, &writer, nil), http.StatusOK, &got)
	if len(got.Links) != 1 || got.Links[0].Target != beta {
		t.Fatalf("after alpha's unlink the store holds %v, want the link to beta kept", got.Links)
	}
}
