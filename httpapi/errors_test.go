package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
	"github.com/mneme-ai/mneme/jobs"
)

// TestErrors sends bad input to every kind of route: each gets its status,
// the CLI's error shape and a message saying what to send, and the store
// is left as it was.
func TestErrors(t *testing.T) {
	e := newEnv(t, httpapi.Config{MaxBody: 4096})
	id := e.remember(nil, mneme.RememberRequest{Text: "Releases are cut on Tuesdays.", Project: "demo"})
	before := e.stats()
	missing := "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		code               string
		parts              []string
	}{
		{"unknown field", "POST", "/v1/memories", `{"text":"x","colour":"red"}`, 400, mneme.EINVALID, []string{`unknown field "colour"`, "text"}},
		{"wrong type", "POST", "/v1/memories", `{"text":5}`, 400, mneme.EINVALID, []string{`"text" must be a string`}},
		{"trailing data", "POST", "/v1/memories", `{"text":"a"} {"text":"b"}`, 400, mneme.EINVALID, []string{"one object"}},
		{"not JSON", "POST", "/v1/memories", `text=hello`, 400, mneme.EINVALID, []string{"invalid JSON"}},
		{"empty body", "POST", "/v1/memories", ``, 400, mneme.EINVALID, []string{"empty"}},
		{"empty text", "POST", "/v1/memories", `{"text":"  "}`, 400, mneme.EINVALID, []string{"text is empty"}},
		{"invalid UTF-8", "POST", "/v1/memories", "{\"text\":\"caf\xe9\"}", 400, mneme.EINVALID, []string{"UTF-8"}},
		{"credential", "POST", "/v1/memories", `{"text":"key AKIAIOSFODNN7EXAMPLE"}`, 400, mneme.EINVALID, []string{"credential"}},
		{"oversized", "POST", "/v1/memories", `{"text":"` + strings.Repeat("a", 5000) + `"}`, 413, mneme.EINVALID, []string{"4096 bytes"}},
		{"batch item", "POST", "/v1/memories/batch", `{"memories":[{"text":"fine"},{"text":""}]}`, 400, mneme.EINVALID, []string{"memories[1]: text is empty"}},
		{"batch item field", "POST", "/v1/memories/batch", `{"memories":[{"txt":"x"}]}`, 400, mneme.EINVALID, []string{"memories[0]: unknown field", "occurred_at"}},
		{"batch not array", "POST", "/v1/memories/batch", `{"memories":5}`, 400, mneme.EINVALID, []string{`"memories" must be an array`}},
		{"batch wrapper field", "POST", "/v1/memories/batch", `{"memories":[{"text":"x"}],"dry_run":true}`, 400, mneme.EINVALID, []string{`unknown field "dry_run"`}},
		{"batch empty", "POST", "/v1/memories/batch", `{"memories":[]}`, 400, mneme.EINVALID, []string{"memories is empty"}},
		{"bad project", "POST", "/v1/memories", `{"text":"x","project":"No Spaces"}`, 400, mneme.EINVALID, []string{"project"}},
		{"bad id", "GET", "/v1/memories/nope", nil, 400, mneme.EINVALID, []string{"not a record id"}},
		{"missing", "GET", "/v1/memories/" + missing, nil, 404, mneme.ENOTFOUND, []string{missing}},
		{"patch missing", "PATCH", "/v1/memories/" + missing, `{}`, 404, mneme.ENOTFOUND, nil},
		{"patch empty text", "PATCH", "/v1/memories/" + id, `{"text":""}`, 400, mneme.EINVALID, []string{"text is empty"}},
		{"patch unknown", "PATCH", "/v1/memories/" + id, `{"project":"x"}`, 400, mneme.EINVALID, []string{`unknown field "project"`}},
		{"delete missing", "DELETE", "/v1/memories/" + missing, nil, 404, mneme.ENOTFOUND, nil},
		{"list param", "GET", "/v1/memories?projcet=demo", nil, 400, mneme.EINVALID, []string{`"projcet"`, "project"}},
		{"list limit", "GET", "/v1/memories?limit=0", nil, 400, mneme.EINVALID, []string{"limit"}},
		{"list bool", "GET", "/v1/memories?all_tags=maybe", nil, 400, mneme.EINVALID, []string{"all_tags"}},
		{"list since", "GET", "/v1/memories?since=yesterday", nil, 400, mneme.EINVALID, []string{"since"}},
		{"forget both", "POST", "/v1/forget", `{"ids":["` + id + `"],"filter":{"project":"demo"}}`, 400, mneme.EINVALID, []string{"not both"}},
		{"forget everything", "POST", "/v1/forget", `{"filter":{}}`, 400, mneme.EINVALID, []string{"refusing"}},
		{"forget filter field", "POST", "/v1/forget", `{"filter":{"projects":"demo"}}`, 400, mneme.EINVALID, []string{"filter: unknown field", "before"}},
		{"forget missing id", "POST", "/v1/forget", `{"ids":["` + id + `","` + missing + `"]}`, 404, mneme.ENOTFOUND, []string{missing}},
		{"recall k", "POST", "/v1/recall", `{"query":"release","k":5000}`, 400, mneme.EINVALID, []string{"k 5000"}},
		{"recall mode", "POST", "/v1/recall", `{"query":"release","mode":"psychic"}`, 400, mneme.EINVALID, []string{"mode"}},
		{"recall batch item", "POST", "/v1/recall/batch", `{"requests":[{"query":"a"},{"query":""}]}`, 400, mneme.EINVALID, []string{"requests[1]:"}},
		{"import line", "POST", "/v1/import", "{\"text\":\"fine\"}\n\n{\"text\":1}\n", 400, mneme.EINVALID, []string{"line 3:"}},
		{"import empty", "POST", "/v1/import", "\n", 400, mneme.EINVALID, []string{"no records"}},
		{"export param", "GET", "/v1/export?type=x", nil, 400, mneme.EINVALID, []string{`"type"`}},
		{"method", "PUT", "/v1/memories", `{}`, 405, mneme.EINVALID, []string{"PUT", "POST"}},
		{"method on id", "POST", "/v1/memories/" + id, `{}`, 405, mneme.EINVALID, []string{"PATCH"}},
		{"no route", "GET", "/v2/memories", nil, 404, mneme.ENOTFOUND, []string{"openapi"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			res := e.do(tc.method, tc.path, nil, tc.body)
			e.wantError(res, tc.status, tc.code, tc.parts...)
			if tc.status == 405 && !strings.Contains(res.header.Get("Allow"), "GET") {
				t.Errorf("Allow %q", res.header.Get("Allow"))
			}
			if after := e.stats(); after != before {
				t.Fatalf("bad input changed the store:\n%s\n%s", before, after)
			}
		})
	}
}

// TestConflict: a write with an embedder other than the stored vectors'
// is a conflict (409), not a silent mix of vector spaces.
func TestConflict(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	e.remember(nil, mneme.RememberRequest{Text: "first"})
	em, err := hash.New(32)
	if err != nil {
		t.Fatal(err)
	}
	e.restart(mneme.NewEngine(e.eng.Store(), mneme.WithEmbedder(em)), httpapi.Config{})
	e.wantError(e.do("POST", "/v1/memories", nil, mneme.RememberRequest{Text: "second"}), http.StatusConflict, mneme.ECONFLICT, "reindex")
}

// TestUnavailable: vector recall and writes that require embedding
// without a working embedder are 503 (other writes are stored pending
// embedding: they used to be 503 too); hybrid recall degrades to words and
// says so.
func TestUnavailable(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	e.remember(nil, mneme.RememberRequest{Text: "Releases are cut on Tuesdays."})
	e.restart(mneme.NewEngine(e.eng.Store(), mneme.WithEmbedderError(mneme.Errorf(mneme.EUNAVAILABLE, "the embedding provider is down"))), httpapi.Config{})
	e.wantError(e.do("POST", "/v1/recall", nil, `{"query":"releases","mode":"vector"}`), http.StatusServiceUnavailable, mneme.EUNAVAILABLE, "provider is down")
	e.wantError(e.do("POST", "/v1/recall/batch", nil, `{"requests":[{"query":"releases"},{"query":"releases","mode":"vector"}]}`),
		http.StatusServiceUnavailable, mneme.EUNAVAILABLE, "requests[1]: the embedding provider is down")
	e.wantError(e.do("POST", "/v1/memories", nil, `{"text":"stored with a vector?","require_embedding":true}`), http.StatusServiceUnavailable, mneme.EUNAVAILABLE, "provider is down")
	e.wantError(e.do("POST", "/v1/import?require_embedding=true", nil, `{"id":"0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e","text":"imported"}`),
		http.StatusServiceUnavailable, mneme.EUNAVAILABLE, "provider is down")
	var w mneme.WriteResult
	e.want(e.do("POST", "/v1/memories", nil, `{"text":"stored without a vector"}`), http.StatusCreated, &w)
	if w.PendingEmbeddings != 1 || w.PendingReason != "the embedding provider is down" {
		t.Fatalf("remember with the provider down: %+v", w)
	}
	var st jobs.Stats
	e.want(e.do("GET", "/v1/stats", nil, nil), http.StatusOK, &st)
	if st.PendingEmbeddings != 1 || st.EmbedderError == nil {
		t.Fatalf("stats with a memory pending: %+v", st)
	}
	var res mneme.RecallResponse
	e.want(e.do("POST", "/v1/recall", nil, `{"query":"releases"}`), http.StatusOK, &res)
	if !res.Degraded || len(res.Hits) != 1 {
		t.Fatalf("hybrid without embedder: %+v", res)
	}
}

// TestBoundedErrors: a huge bad value gives an error that quotes at most
// its start. Bodies carry a megabyte; the URL, under the server's header
// limit, a hundred kilobytes.
func TestBoundedErrors(t *testing.T) {
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer, reader}})
	mb := strings.Repeat("x", 1<<20)
	kb := strings.Repeat("x", 100<<10)
	for _, tc := range []struct {
		name, method, path string
		tok                *access.Token
		body               any
		status             int
		want               string
	}{
		{"project", "POST", "/v1/memories", &writer, mneme.RememberRequest{Text: "x", Project: mb}, 400, "is not a valid name"},
		{"tag", "POST", "/v1/memories", &writer, mneme.RememberRequest{Text: "x", Tags: []string{mb}}, 400, "is longer than"},
		{"occurred_at", "POST", "/v1/memories", &writer, mneme.RememberRequest{Text: "x", OccurredAt: mb}, 400, "is not a time"},
		{"ttl", "POST", "/v1/memories", &writer, mneme.RememberRequest{Text: "x", TTL: mb}, 400, "is not a positive duration"},
		{"type", "POST", "/v1/memories", &writer, mneme.RememberRequest{Text: "x", Type: mneme.Type(mb)}, 400, "is not valid"},
		{"unknown field", "POST", "/v1/memories", &writer, `{"text":"x","` + mb + `":1}`, 400, "unknown field"},
		{"batch wrapper field", "POST", "/v1/memories/batch", &writer, `{"` + mb + `":[]}`, 400, "unknown field"},
		{"number", "POST", "/v1/recall", &writer, `{"query":"x","k":1` + strings.Repeat("0", 1<<20) + `}`, 400, "must be a number"},
		{"recall since", "POST", "/v1/recall", &writer, mneme.RecallRequest{Query: "x", Since: mb}, 400, "is not a time"},
		{"recall mode", "POST", "/v1/recall", &writer, mneme.RecallRequest{Query: "x", Mode: mneme.Mode(mb)}, 400, "is not one of"},
		{"recall query", "POST", "/v1/recall", &writer, mneme.RecallRequest{Query: strings.Repeat("? ", 1<<19)}, 400, "has no words"},
		{"forget before", "POST", "/v1/forget", &writer, `{"filter":{"before":"` + mb + `"}}`, 400, "is not a time"},
		{"list project", "GET", "/v1/memories?project=" + kb, &writer, nil, 400, "is not a valid name"},
		{"list since", "GET", "/v1/memories?since=" + kb, &writer, nil, 400, "is not a time"},
		{"list limit", "GET", "/v1/memories?limit=" + kb, &writer, nil, 400, "is not a number"},
		{"list flag", "GET", "/v1/memories?all_tags=" + kb, &writer, nil, 400, "is not true or false"},
		{"list cursor", "GET", "/v1/memories?cursor=" + kb, &writer, nil, 400, "cursor"},
		{"parameter name", "GET", "/v1/memories?" + kb + "=1", &writer, nil, 400, "unknown query parameter"},
		{"id", "GET", "/v1/memories/" + kb, &writer, nil, 400, "is not a record id"},
		{"read-only path", "PATCH", "/v1/memories/" + kb, &reader, `{}`, 403, "is read-only"},
		{"no route", "GET", "/v1/" + kb, &writer, nil, 404, "no route"},
		{"method", "PUT", "/v1/memories/" + kb, &writer, nil, 405, "is not allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			res := e.do(tc.method, tc.path, tc.tok, tc.body)
			if res.status != tc.status || !strings.Contains(string(res.body), tc.want) {
				t.Fatalf("status %d, want %d and %q: %.300s", res.status, tc.status, tc.want, res.body)
			}
			if len(res.body) > 1024 {
				t.Fatalf("a %d-byte error (want under 1 KB): %.300s…", len(res.body), res.body)
			}
		})
	}
}
