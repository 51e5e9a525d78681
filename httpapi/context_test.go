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
