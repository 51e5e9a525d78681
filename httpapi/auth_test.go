package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
	"github.com/mneme-ai/mneme/jobs"
)

// mcpStub stands in for the MCP handler: it answers with the caller's
// scope, flushing as MCP's streaming does through the server's wrappers.
var mcpStub = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	json.NewEncoder(w).Encode(access.FromContext(r.Context()))
	if err := http.NewResponseController(w).Flush(); err != nil {
		panic(err)
	}
})

func TestAuth(t *testing.T) {
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer, reader, alpha, duo}, MCP: mcpStub})
	beta := e.remember(&writer, mneme.RememberRequest{Text: "Beta ships on Fridays.", Project: "beta"})
	gamma := e.remember(&writer, mneme.RememberRequest{Text: "Gamma ships on Mondays.", Project: "gamma"})
	unknown := access.Token{Name: "unknown", Token: "not-a-configured-token"}
	write := mneme.RememberRequest{Text: "Alpha ships on Tuesdays."}

	for _, tc := range []struct {
		name         string
		method, path string
		tok          *access.Token
		body         any
		status       int
		code         string
		parts        []string
	}{
		{"health is open", "GET", "/v1/health", nil, nil, 200, "", nil},
		{"openapi is open", "GET", "/v1/openapi.json", nil, nil, 200, "", nil},
		{"no token", "GET", "/v1/stats", nil, nil, 401, httpapi.EUNAUTHORIZED, []string{"no bearer token", "Authorization: Bearer"}},
		{"unknown token", "GET", "/v1/stats", &unknown, nil, 401, httpapi.EUNAUTHORIZED, []string{"unknown bearer token"}},
		{"metrics need a token", "GET", "/metrics", nil, nil, 401, httpapi.EUNAUTHORIZED, nil},
		{"mcp needs a token", "POST", "/mcp", nil, `{}`, 401, httpapi.EUNAUTHORIZED, nil},
		{"reader reads", "GET", "/v1/stats", &reader, nil, 200, "", nil},
		{"reader recalls", "POST", "/v1/recall", &reader, `{"query":"ships"}`, 200, "", nil},
		{"reader may not write", "POST", "/v1/memories", &reader, write, 403, httpapi.EFORBIDDEN, []string{`"reader" is read-only`, "access write"}},
		{"reader may not delete", "DELETE", "/v1/memories/" + beta, &reader, nil, 403, httpapi.EFORBIDDEN, nil},
		{"reader may not import", "POST", "/v1/import", &reader, `{"text":"x"}`, 403, httpapi.EFORBIDDEN, nil},
		{"scoped write elsewhere", "POST", "/v1/memories", &alpha, mneme.RememberRequest{Text: "x", Project: "beta"}, 403, httpapi.EFORBIDDEN, []string{`project "beta"`, "alpha"}},
		{"scoped batch elsewhere", "POST", "/v1/memories/batch", &alpha, `{"memories":[{"text":"x"},{"text":"y","project":"beta"}]}`, 403, httpapi.EFORBIDDEN, []string{"memories[1]:"}},
		{"scoped get elsewhere", "GET", "/v1/memories/" + beta, &alpha, nil, 404, mneme.ENOTFOUND, nil},
		{"scoped patch elsewhere", "PATCH", "/v1/memories/" + beta, &alpha, `{"title":"mine"}`, 404, mneme.ENOTFOUND, nil},
		{"scoped delete elsewhere", "DELETE", "/v1/memories/" + beta, &alpha, nil, 404, mneme.ENOTFOUND, nil},
		{"scoped forget elsewhere", "POST", "/v1/forget", &alpha, `{"ids":["` + beta + `"]}`, 404, mneme.ENOTFOUND, nil},
		{"scoped forget filter", "POST", "/v1/forget", &alpha, `{"filter":{"project":"beta"}}`, 403, httpapi.EFORBIDDEN, nil},
		{"scoped import elsewhere", "POST", "/v1/import", &alpha, `{"text":"x","project":"beta"}`, 403, httpapi.EFORBIDDEN, []string{"line 1:"}},
		{"scoped import over another's id", "POST", "/v1/import", &alpha, `{"id":"` + gamma + `","text":"x","project":"alpha"}`, 403, httpapi.EFORBIDDEN, []string{gamma}},
		{"scoped list elsewhere", "GET", "/v1/memories?project=gamma", &duo, nil, 403, httpapi.EFORBIDDEN, nil},
		{"scoped export elsewhere", "GET", "/v1/export?project=gamma", &duo, nil, 403, httpapi.EFORBIDDEN, nil},
		{"several projects need one", "POST", "/v1/recall", &duo, `{"query":"ships"}`, 400, mneme.EINVALID, []string{"alpha, beta", "project"}},
		{"several projects, one named", "POST", "/v1/recall", &duo, `{"query":"ships","project":"beta"}`, 200, "", nil},
		{"scoped recall elsewhere", "POST", "/v1/recall/batch", &duo, `{"requests":[{"query":"ships","project":"gamma"}]}`, 403, httpapi.EFORBIDDEN, []string{"requests[0]:"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			res := e.do(tc.method, tc.path, tc.tok, tc.body)
			if tc.code == "" {
				e.want(res, tc.status, nil)
				return
			}
			e.wantError(res, tc.status, tc.code, tc.parts...)
			if tc.status == 401 && res.header.Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
		})
	}
	e.t = t

	// A token limited to one project implies it: writes land there, reads
	// see only it.
	id := e.remember(&alpha, write)
	var rec mneme.Record
	e.want(e.do("GET", "/v1/memories/"+id, &alpha, nil), 200, &rec)
	if rec.Project != "alpha" {
		t.Fatalf("a write by a token for alpha went to %s", rec.Project)
	}
	var res mneme.RecallResponse
	e.want(e.do("POST", "/v1/recall", &alpha, `{"query":"ships"}`), 200, &res)
	if len(res.Hits) != 1 || res.Hits[0].ID != id {
		t.Fatalf("recall by a token for alpha found %+v", res.Hits)
	}
	var page mneme.ListPage
	e.want(e.do("GET", "/v1/memories", &alpha, nil), 200, &page)
	if len(page.Records) != 1 || page.Records[0].ID != id {
		t.Fatalf("list by a token for alpha: %+v", page.Records)
	}
	exp := e.do("GET", "/v1/export", &alpha, nil)
	if n := strings.Count(string(exp.body), "\n"); exp.status != 200 || n != 1 {
		t.Fatalf("export by a token for alpha: %d, %d lines", exp.status, n)
	}
	var st jobs.Stats
	e.want(e.do("GET", "/v1/stats", &duo, nil), 200, &st)
	if st.Total != 2 || len(st.Projects) != 2 || st.Projects[0].Project != "alpha" || st.Projects[1].Project != "beta" {
		t.Fatalf("stats for a token covering alpha and beta: %+v", st)
	}

	// MCP sits behind the same tokens and sees the caller's scope.
	var sc mneme.Scope
	mcp := e.do("POST", "/mcp", &duo, `{}`)
	if err := json.Unmarshal(mcp.body, &sc); err != nil || mcp.status != 200 || sc.Name != "duo" || sc.Write || len(sc.Projects) != 2 {
		t.Fatalf("mcp: %d %s", mcp.status, mcp.body)
	}

	// The log names tokens, never their secrets, and carries no memory text.
	logs := e.logs.String()
	for _, tok := range []access.Token{writer, reader, alpha, duo, unknown} {
		if strings.Contains(logs, tok.Token) {
			t.Fatalf("the log holds the secret of %s", tok.Name)
		}
	}
	if strings.Contains(logs, "ships") || !strings.Contains(logs, `"token":"duo"`) {
		t.Fatalf("log:\n%s", logs)
	}
}

// TestStatsClearance: GET /v1/stats counts secret records only for a
// token with clearance secret.
func TestStatsClearance(t *testing.T) {
	cleared := access.Token{Name: "cleared", Token: "cleared-secret-0123456789", Access: "read", Clearance: mneme.Secret}
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer, reader, cleared}})
	e.remember(&writer, mneme.RememberRequest{Text: "the shop deploys on fridays", Project: "shop"})
	e.remember(&writer, mneme.RememberRequest{Text: "the vault code is 0000", Project: "vault", Sensitivity: mneme.Secret})
	for _, c := range []struct {
		tok             *access.Token
		total, projects int
		secret          int
	}{{&reader, 1, 1, 0}, {&writer, 1, 1, 0}, {&cleared, 2, 2, 1}} {
		var st jobs.Stats
		e.want(e.do("GET", "/v1/stats", c.tok, nil), http.StatusOK, &st)
		if st.Total != c.total || len(st.Projects) != c.projects || st.Secret != c.secret {
			t.Errorf("%s: %+v", c.tok.Name, st)
		}
	}
}

// TestReadClearance: a token reads with its own clearance on every read
// route: a secret record is found, listed, recalled and exported for a
// token with clearance secret, and for no other.
func TestReadClearance(t *testing.T) {
	cleared := access.Token{Name: "cleared", Token: "cleared-secret-0123456789", Access: "read", Clearance: mneme.Secret}
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer, reader, cleared}})
	id := e.remember(&writer, mneme.RememberRequest{Text: "the vault code is 0000", Project: "vault", Sensitivity: mneme.Secret})
	for _, c := range []struct {
		tok  *access.Token
		sees bool
	}{{&reader, false}, {&writer, false}, {&cleared, true}} {
		get := e.do("GET", "/v1/memories/"+id, c.tok, nil)
		var page struct {
			Records    []mneme.Record `json:"records"`
			NextCursor string         `json:"next_cursor"`
		}
		e.want(e.do("GET", "/v1/memories?project=vault", c.tok, nil), http.StatusOK, &page)
		var res mneme.Result
		e.want(e.do("POST", "/v1/recall", c.tok, map[string]any{"query": "vault code", "project": "vault", "mode": "lexical"}), http.StatusOK, &res)
		export := e.do("GET", "/v1/export?project=vault", c.tok, nil)
		got := []bool{get.status == http.StatusOK, len(page.Records) == 1, len(res.Hits) == 1, strings.Contains(string(export.body), id)}
		for i, route := range []string{"get", "list", "recall", "export"} {
			if got[i] != c.sees {
				t.Errorf("%s, %s: sees the secret record %v, want %v", c.tok.Name, route, got[i], c.sees)
			}
		}
	}
}
