package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/consolidate"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
)

func TestSummarize(t *testing.T) {
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer, reader, alpha}})
	for _, text := range []string{"We moved staging to Postgres 17 for incremental backups.", "The release train leaves every Tuesday at noon."} {
		e.remember(&writer, mneme.RememberRequest{Text: text, Project: "demo", Type: mneme.Episodic, OccurredAt: "2026-04-02"})
	}
	window := map[string]any{"project": "demo", "since": "2026-04-01", "until": "2026-04-03", "max_words": 40}
	var first, again consolidate.Response
	e.want(e.do("POST", "/v1/summarize", &writer, window), http.StatusCreated, &first)
	if !first.Created || len(first.SourceIDs) != 2 || first.Strategy != consolidate.Extractive || first.UsedFilters.MaxWords != 40 {
		t.Fatalf("%+v", first)
	}
	e.want(e.do("POST", "/v1/summarize", &writer, window), http.StatusOK, &again)
	if again.Created || again.RecordID != first.RecordID || again.Summary != first.Summary {
		t.Errorf("repeat: %+v", again)
	}
	before := e.stats()
	for _, c := range []struct {
		name   string
		tok    *access.Token
		body   any
		status int
		code   string
		part   string
	}{
		{"no window", &writer, map[string]any{"project": "demo"}, 400, mneme.EINVALID, "since"},
		{"inverted", &writer, map[string]any{"project": "demo", "since": "2026-04-03", "until": "2026-04-01"}, 400, mneme.EINVALID, "inverted"},
		{"limit 0", &writer, map[string]any{"project": "demo", "since": "2026-04-01", "until": "2026-04-03", "limit": 0}, 400, mneme.EINVALID, "limit 0"},
		{"max_words text", &writer, map[string]any{"project": "demo", "since": "2026-04-01", "until": "2026-04-03", "max_words": "many"}, 400, mneme.EINVALID, "max_words"},
		{"unknown field", &writer, map[string]any{"project": "demo", "since": "2026-04-01", "until": "2026-04-03", "window": 1}, 400, mneme.EINVALID, "unknown field"},
		{"empty", &writer, map[string]any{"project": "demo", "since": "2020-01-01", "until": "2020-01-02"}, 400, mneme.EINVALID, "nothing to summarize"},
		{"no model", &writer, map[string]any{"project": "demo", "since": "2026-04-01", "until": "2026-04-03", "strategy": "abstractive"}, 503, mneme.EUNAVAILABLE, "no language model"},
		{"read-only", &reader, window, 403, mneme.EFORBIDDEN, "read-only"},
		{"other project", &alpha, window, 403, mneme.EFORBIDDEN, "does not cover"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			e.wantError(e.do("POST", "/v1/summarize", c.tok, c.body), c.status, c.code, c.part)
		})
	}
	e.t = t
	if after := e.stats(); after != before {
		t.Errorf("a refused summarize wrote something:\n%s\n%s", before, after)
	}
}
