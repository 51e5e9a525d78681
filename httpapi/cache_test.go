package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/cache"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/ground"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
)

// TestCacheRoutes: cache stats for a token covering every project, 403 for
// one limited to projects; verified answers stored and returned only for
// the same token; bad input is 400 and changes nothing; lookups in
// /metrics.
func TestCacheRoutes(t *testing.T) {
	cfg := httpapi.Config{Tokens: []access.Token{writer, reader, alpha}}
	e := newEnv(t, cfg)
	em, _ := hash.New(64)
	cs := e.eng.Store().(mneme.CacheStore)
	e.restart(mneme.NewEngine(e.eng.Store(), mneme.WithEmbedder(em), mneme.WithCache(cache.New(cs, cache.Policy{}, time.Now))), cfg)
	e.remember(&writer, mneme.RememberRequest{Text: "Releases are cut on Tuesdays.", Project: "demo"})
	stats := func() cache.Stats {
		var st cache.Stats
		e.want(e.do("GET", "/v1/cache/stats", &reader, nil), http.StatusOK, &st)
		return st
	}
	e.wantError(e.do("GET", "/v1/cache/stats", &alpha, nil), http.StatusForbidden, "EFORBIDDEN", "covers only some projects")
	put := map[string]any{"request": map[string]any{"query": "when are releases cut", "project": "demo"}, "answer": "Releases are cut on Tuesdays.",
		"verification_token": "tok-9", "provider": "openai", "model": "gpt-4o", "model_version": "2024-08-06"}
	bad := func(field string, v any) map[string]any {
		m := map[string]any{}
		for k, x := range put {
			m[k] = x
		}
		m[field] = v
		return m
	}
	before := stats()
	for _, c := range []struct {
		path string
		body any
		want string
	}{
		{"/v1/answers", bad("verification_token", " "), "verification_token is empty"},
		{"/v1/answers", bad("model_version", ""), "has a part missing"},
		{"/v1/answers", bad("request", map[string]any{"query": "x", "answer_scope": "a/b/c", "verification_token": "t"}), "leave verification_token"},
		{"/v1/context", map[string]any{"query": "releases", "verification_token": "t", "answer_scope": "a/b"}, "needs three parts"},
		{"/v1/context", map[string]any{"query": "releases", "verification_token": "", "answer_scope": "a/b/c"}, "verification_token is empty"},
		{"/v1/context", map[string]any{"query": "releases", "answer_scope": "a/b/c"}, "needs verification_token"},
	} {
		e.wantError(e.do("POST", c.path, &writer, c.body), http.StatusBadRequest, mneme.EINVALID, c.want)
	}
	if after := stats(); after.Entries != before.Entries {
		t.Fatalf("bad input changed the cache: %d entries, then %d", before.Entries, after.Entries)
	}
	r := e.do("POST", "/v1/answers", &writer, put)
	var res ground.AnswerResult
	e.want(r, http.StatusOK, &res)
	if !res.Stored || strings.Contains(string(r.body), "tok-9") || strings.Contains(string(r.body), "cut on Tuesdays") {
		t.Fatalf("answer put: %s", r.body)
	}
	ask := map[string]any{"query": "when are releases cut", "project": "demo", "verification_token": "tok-9", "answer_scope": "openai/gpt-4o/2024-08-06"}
	for _, c := range []struct {
		token, status string
		tok           *access.Token
	}{{"tok-9", "hit", &writer}, {"tok-other", "miss", &writer}, {"tok-9", "miss", &reader}} { // reader: another scope
		ask["verification_token"] = c.token
		r := e.do("POST", "/v1/context", c.tok, ask)
		var pkg contextpack.Response
		e.want(r, http.StatusOK, &pkg)
		if v := pkg.VerifiedAnswer; v == nil || v.Status != c.status || strings.Contains(string(r.body), c.token) || (c.status == "miss") != (v.Answer == "") {
			t.Fatalf("token %s as %s: %s", c.token, c.tok.Name, r.body)
		}
	}
	metrics := e.do("GET", "/metrics", &reader, nil)
	if !strings.Contains(string(metrics.body), `mneme_cache_lookups_total{kind="verified_answer",result="hit"} 1`) {
		t.Fatalf("metrics:\n%s", metrics.body)
	}
}
