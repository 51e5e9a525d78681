package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
)

func TestRecall(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	for _, text := range []string{"Releases are cut on Tuesdays.", "We deploy with the blue-green script.", "Lunch is at noon."} {
		e.remember(nil, mneme.RememberRequest{Text: text, Project: "demo"})
	}
	var res mneme.RecallResponse
	e.want(e.do("POST", "/v1/recall", nil, mneme.RecallRequest{ID: "q1", Query: "when are releases cut", Project: "demo", Explain: true}), http.StatusOK, &res)
	if res.ID != "q1" || len(res.Hits) == 0 || res.Hits[0].Record.Text != "Releases are cut on Tuesdays." || res.Hits[0].Explain == nil || res.Mode != mneme.Hybrid {
		t.Fatalf("recall: %+v", res)
	}
	e.want(e.do("POST", "/v1/recall", nil, mneme.RecallRequest{Query: "releases", Project: "other"}), http.StatusOK, &res)
	if res.Hits == nil || len(res.Hits) != 0 {
		t.Fatalf("recall with no hits must say hits: [] as the CLI does: %+v", res.Hits)
	}

	var batch struct {
		Results []mneme.RecallResponse `json:"results"`
	}
	e.want(e.do("POST", "/v1/recall/batch", nil, map[string]any{"requests": []mneme.RecallRequest{
		{ID: "a", Query: "deploy script", Mode: mneme.Lexical},
		{ID: "b", Query: "lunch", Mode: mneme.Vector, K: 1},
	}}), http.StatusOK, &batch)
	if len(batch.Results) != 2 || batch.Results[0].ID != "a" || batch.Results[1].ID != "b" ||
		batch.Results[0].Hits[0].Record.Text != "We deploy with the blue-green script." || len(batch.Results[1].Hits) != 1 {
		t.Fatalf("batch: %+v", batch)
	}
}
