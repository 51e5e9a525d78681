package httpapi_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
)

func TestPrune(t *testing.T) {
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer, reader, alpha}})
	draft := e.remember(&writer, mneme.RememberRequest{Text: "A first guess at the cause.", Project: "demo", Status: mneme.Draft})
	kept := e.remember(&writer, mneme.RememberRequest{Text: "The cause, checked.", Project: "demo"})
	other := e.remember(&writer, mneme.RememberRequest{Text: "A draft elsewhere.", Project: "alpha", Status: mneme.Draft})
	before := e.stats()
	for _, c := range []struct {
		name   string
		tok    *access.Token
		body   any
		status int
		code   string
		part   string
	}{
		{"project alone", &writer, map[string]any{"project": "demo"}, 400, mneme.EINVALID, "never empties a project"},
		{"every current record", &writer, map[string]any{"project": "demo", "before": "2100-01-01"}, 400, mneme.EINVALID, "every current record of project \"demo\""},
		{"nothing", &writer, map[string]any{}, 400, mneme.EINVALID, "say what to prune"},
		{"bad status", &writer, map[string]any{"statuses": []string{"stale"}}, 400, mneme.EINVALID, "stale"},
		{"wrong type", &writer, map[string]any{"expired": "yes"}, 400, mneme.EINVALID, "expired"},
		{"unknown field", &writer, map[string]any{"expired": true, "ids": []string{draft}}, 400, mneme.EINVALID, "unknown field"},
		{"read-only", &reader, map[string]any{"expired": true}, 403, mneme.EFORBIDDEN, "read-only"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			e.wantError(e.do("POST", "/v1/prune", c.tok, c.body), c.status, c.code, c.part)
		})
	}
	e.t = t
	var dry, done mneme.PruneResult
	req := map[string]any{"project": "demo", "statuses": []string{"draft"}}
	e.want(e.do("POST", "/v1/prune", &writer, map[string]any{"project": "demo", "statuses": []string{"draft"}, "dry_run": true}), http.StatusOK, &dry)
	if after := e.stats(); after != before || !dry.DryRun || !slices.Equal(dry.IDs, []string{draft}) {
		t.Fatalf("dry run: %+v; stats before and after:\n%s\n%s", dry, before, after)
	}
	e.want(e.do("POST", "/v1/prune", &writer, req), http.StatusOK, &done)
	if done.Pruned != 1 || !slices.Equal(done.IDs, []string{draft}) {
		t.Fatalf("prune: %+v", done)
	}
	e.wantError(e.do("GET", "/v1/memories/"+draft, &writer, nil), 404, mneme.ENOTFOUND)
	again := e.remember(&writer, mneme.RememberRequest{Text: "Another guess.", Project: "demo", Status: mneme.Draft})
	var scoped mneme.PruneResult // a token of one project prunes there only
	e.want(e.do("POST", "/v1/prune", &alpha, map[string]any{"statuses": []string{"draft"}, "dry_run": true}), http.StatusOK, &scoped)
	if !slices.Equal(scoped.IDs, []string{other}) {
		t.Fatalf("alpha's token would prune %q, want %q only (not %s)", scoped.IDs, other, again)
	}
	for _, id := range []string{kept, other} {
		e.want(e.do("GET", "/v1/memories/"+id, &writer, nil), http.StatusOK, nil)
	}
}
