package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/httpapi"
)

func TestContext(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	for _, text := range []string{"Releases are cut on Tuesdays.", "We deploy with the blue-green script.", "Lunch is at noon."} {
		e.remember(nil, mneme.RememberRequest{Text: text, Project: "demo"})
	}
	var pkg contextpack.Response
	e.want(e.do("POST", "/v1/context", nil, map[string]any{"id": "c1", "query": "when are releases cut", "project": "demo", "budget": 100}), http.StatusOK, &pkg)
	if pkg.ID != "c1" || len(pkg.Citations) == 0 || !strings.Contains(pkg.Text, "[1] ") || pkg.TokensUsed > 100 || pkg.Budget != 100 {
		t.Fatalf("context: %+v", pkg)
	}
	e.wantError(e.do("POST", "/v1/context", nil, map[string]any{"query": "releases", "budget": 10}), http.StatusBadRequest, mneme.EINVALID, "50 to 100000")
	e.wantError(e.do("POST", "/v1/context", nil, map[string]any{"query": "releases", "budget": 100001}), http.StatusBadRequest, mneme.EINVALID, "50 to 100000")
	e.wantError(e.do("POST", "/v1/context", nil, map[string]any{"query": ""}), http.StatusBadRequest, mneme.EINVALID, "query is empty")
}

func TestContextBatch(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	for _, text := range []string{"Releases are cut on Tuesdays.", "We deploy with the blue-green script.", "Lunch is at noon."} {
		e.remember(nil, mneme.RememberRequest{Text: text, Project: "demo"})
	}
	var out struct {
		Results []contextpack.Response `json:"results"`
	}
	e.want(e.do("POST", "/v1/context/batch", nil, map[string]any{"requests": []map[string]any{
		{"id": "a", "query": "when are releases cut", "budget": 100},
		{"id": "b", "query": "deploy script", "mode": "lexical", "budget": 60, "report": true},
	}}), http.StatusOK, &out)
	if len(out.Results) != 2 || out.Results[0].ID != "a" || out.Results[1].ID != "b" || out.Results[0].Budget != 100 ||
		out.Results[1].Budget != 60 || len(out.Results[1].Citations) == 0 || out.Results[0].Report != nil || out.Results[1].Report == nil {
		t.Fatalf("batch: %+v", out)
	}
	var single contextpack.Response
	e.want(e.do("POST", "/v1/context", nil, map[string]any{"id": "a", "query": "when are releases cut", "budget": 100}), http.StatusOK, &single)
	if single.Text != out.Results[0].Text {
		t.Errorf("batch item %q, single %q", out.Results[0].Text, single.Text)
	}
	e.wantError(e.do("POST", "/v1/context/batch", nil, map[string]any{"requests": []map[string]any{{"query": "releases"}, {"query": "releases", "budget": 10}}}),
		http.StatusBadRequest, mneme.EINVALID, "requests[1]:")
	e.wantError(e.do("POST", "/v1/context/batch", nil, map[string]any{"requests": []map[string]any{}}), http.StatusBadRequest, mneme.EINVALID, "")
}

// TestContextHyDE: a package made with HyDE names the hypothesis (its
// generator, version and hash); a supplied hypothesis written for
// another query is a 400.
func TestContextHyDE(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	e.remember(nil, mneme.RememberRequest{Text: "Releases are cut on Tuesdays.", Project: "demo"})
	hyde := map[string]any{"hypothesis": "We cut releases on Tuesday.", "query": "when are releases cut", "generator_id": "agent", "generator_version": "2"}
	var pkg contextpack.Response
	e.want(e.do("POST", "/v1/context", nil, map[string]any{"query": "when are releases cut", "project": "demo", "hyde": hyde}), http.StatusOK, &pkg)
	if h := pkg.HyDE; h == nil || h.GeneratorID != "agent" || h.GeneratorVersion != "2" || len(h.HypothesisSHA256) != 64 || !h.Supplied {
		t.Fatalf("hyde provenance: %+v", pkg.HyDE)
	}
	hyde["query"] = "what is for lunch"
	e.wantError(e.do("POST", "/v1/context", nil, map[string]any{"query": "when are releases cut", "project": "demo", "hyde": hyde}),
		http.StatusBadRequest, mneme.EINVALID, "is not the request's query")
}
