package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/consolidate"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
	"github.com/mneme-ai/mneme/llm"
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

// TestSummarizeOptions: time_range as recall's, the memory type, and a
// per-call provider and model among those the configuration allows;
// anything else is a 400 that writes nothing (no ledger entry either).
func TestSummarizeOptions(t *testing.T) {
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer}})
	e.remember(&writer, mneme.RememberRequest{Text: "We moved staging to Postgres 17.", Project: "demo", Type: mneme.Episodic, OccurredAt: "2026-04-02"})
	e.remember(&writer, mneme.RememberRequest{Text: "Staging runs Postgres 17 with incremental backups.", Project: "demo", Type: mneme.Semantic, OccurredAt: "2026-04-02"})
	var res consolidate.Response
	e.want(e.do("POST", "/v1/summarize", &writer, map[string]any{"project": "demo", "type": "semantic",
		"time_range": map[string]any{"start": "2026-04-01", "end": "2026-04-03"}}), http.StatusCreated, &res)
	if len(res.SourceIDs) != 1 || len(res.UsedFilters.Types) != 1 || res.UsedFilters.Types[0] != "semantic" || !strings.Contains(res.Summary, "incremental backups") {
		t.Fatalf("semantic summary over time_range: %+v", res)
	}
	g, err := llm.New(llm.Config{Provider: "ollama", BaseURL: "http://127.0.0.1:9", Model: "m1", Models: []string{"m2"}})
	if err != nil {
		t.Fatal(err)
	}
	em, _ := hash.New(64)
	e.restart(mneme.NewEngine(e.eng.Store(), mneme.WithEmbedder(em), mneme.WithHypothesisGenerator(g)), httpapi.Config{Tokens: []access.Token{writer}})
	before := e.stats()
	window := func(extra map[string]any) map[string]any {
		m := map[string]any{"project": "demo", "since": "2026-04-01", "until": "2026-04-03"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	for _, c := range []struct {
		name   string
		body   map[string]any
		status int
		part   string
	}{
		{"time_range and since differ", window(map[string]any{"time_range": map[string]any{"start": "2026-03-01"}}), 400, "time_range.start and since are the same parameter with different values"},
		{"unknown type", window(map[string]any{"type": "dream"}), 400, `type "dream" is not valid`},
		{"other provider", window(map[string]any{"provider": "openai"}), 400, `provider "openai" is not this deployment's language model provider: it allows ollama`},
		{"model not allowed", window(map[string]any{"model": "gpt-5"}), 400, `model "gpt-5" is not one this deployment allows: use m1, m2`},
		{"model with extractive", window(map[string]any{"model": "m2", "strategy": "extractive"}), 400, "strategy extractive uses none"},
		{"allowed model, server down", window(map[string]any{"model": "m2"}), 503, "127.0.0.1:9"},
	} {
		r := e.do("POST", "/v1/summarize", &writer, c.body)
		var env struct{ Error struct{ Message string } }
		json.Unmarshal(r.body, &env)
		if r.status != c.status || !strings.Contains(env.Error.Message, c.part) {
			t.Errorf("%s: %d %s", c.name, r.status, r.body)
		}
	}
	if after := e.stats(); after != before {
		t.Errorf("a refused summarize wrote something:\n%s\n%s", before, after)
	}
}
