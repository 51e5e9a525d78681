package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
)

// TestMetaFilter: recall, list, export, forget and prune take the meta
// filter; a non-scalar value, a missing '=' or an empty key is a 400 that
// changes nothing.
func TestMetaFilter(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	acme := e.remember(nil, mneme.RememberRequest{Text: "Acme invoices are due in 30 days.", Project: "demo", Meta: json.RawMessage(`{"tenant":"acme","document_version":2}`)})
	e.remember(nil, mneme.RememberRequest{Text: "Globex invoices are due in 60 days.", Project: "demo", Meta: json.RawMessage(`{"tenant":"globex"}`)})
	e.remember(nil, mneme.RememberRequest{Text: "Invoices without a tenant.", Project: "demo"})

	var res mneme.RecallResponse
	e.want(e.do("POST", "/v1/recall", nil, map[string]any{"query": "invoices due", "meta": map[string]any{"tenant": "acme", "document_version": 2}}), http.StatusOK, &res)
	if len(res.Hits) != 1 || res.Hits[0].ID != acme {
		t.Fatalf("recall with meta: %+v", res.Hits)
	}
	var page mneme.ListPage
	e.want(e.do("GET", "/v1/memories?meta="+url.QueryEscape("tenant=acme"), nil, nil), http.StatusOK, &page)
	if len(page.Records) != 1 || page.Records[0].ID != acme {
		t.Fatalf("list with meta: %+v", page.Records)
	}
	exp := e.do("GET", "/v1/export?meta="+url.QueryEscape("tenant=acme"), nil, nil)
	if exp.status != http.StatusOK || strings.Count(string(exp.body), "\n") != 1 || !strings.Contains(string(exp.body), acme) {
		t.Fatalf("export with meta: %d %s", exp.status, exp.body)
	}
	var dry mneme.ForgetResult
	e.want(e.do("POST", "/v1/forget", nil, map[string]any{"filter": map[string]any{"meta": map[string]any{"tenant": "globex"}}, "dry_run": true}), http.StatusOK, &dry)
	if len(dry.IDs) != 1 {
		t.Fatalf("forget dry run with meta: %+v", dry)
	}

	before := e.stats()
	for _, c := range []struct {
		name, method, path string
		body               any
		part               string
	}{
		{"recall object value", "POST", "/v1/recall", map[string]any{"query": "invoices", "meta": map[string]any{"tenant": map[string]any{"name": "acme"}}}, "must be a string, number or boolean, not object"},
		{"recall array value", "POST", "/v1/recall", map[string]any{"query": "invoices", "meta": map[string]any{"tenant": []string{"acme"}}}, "not array"},
		{"recall null value", "POST", "/v1/recall", map[string]any{"query": "invoices", "meta": map[string]any{"tenant": nil}}, "not null"},
		{"recall not an object", "POST", "/v1/recall", map[string]any{"query": "invoices", "meta": "tenant=acme"}, `field "meta" must be an object`},
		{"context object value", "POST", "/v1/context", map[string]any{"query": "invoices", "meta": map[string]any{"tenant": map[string]any{}}}, "not object"},
		{"forget array value", "POST", "/v1/forget", map[string]any{"filter": map[string]any{"meta": map[string]any{"tenant": []any{}}}}, "not array"},
		{"prune empty key", "POST", "/v1/prune", map[string]any{"statuses": []string{"active"}, "meta": map[string]any{" ": "x"}}, "empty key"},
		{"list without =", "GET", "/v1/memories?meta=tenant", nil, "is not KEY=VALUE"},
		{"export empty key", "GET", "/v1/export?meta=%3Dacme", nil, "empty key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.wantError(e.do(c.method, c.path, nil, c.body), http.StatusBadRequest, mneme.EINVALID, c.part)
		})
	}
	if after := e.stats(); after != before {
		t.Fatalf("refused requests changed the store: %s -> %s", before, after)
	}
}
