package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
)

// TestContextBudget: the context tool, given no budget, builds a package
// within contextpack.DefaultBudget tokens of its text, and every [n] in
// the text is a citation naming a memory the caller can get.
func TestContextBudget(t *testing.T) {
	eng, now := newEngine(t, true)
	var recs []*mneme.Record
	for i := range 300 {
		recs = append(recs, &mneme.Record{Project: "shop", Text: fmt.Sprintf("Deploy %d: the staging deploy of service %d failed on the migration lock and was retried with a smaller batch size; the fix was to raise lock_timeout to %d seconds before the release.", i, i%17, 5+i%9)})
	}
	if _, err := eng.Remember(context.Background(), recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, eng, now, nil)
	var pkg contextpack.Package
	res := call(t, cs, "context", args{"query": "why did the staging deploy fail on the migration", "project": "shop", "k": 100})
	structured(t, res, &pkg)
	if pkg.Budget != contextpack.DefaultBudget || pkg.TokensUsed > pkg.Budget || pkg.TokensUsed != contextpack.Tokens(pkg.Text) || pkg.TokensUsed < pkg.Budget/2 {
		t.Fatalf("budget %d, tokens used %d (text %d tokens)", pkg.Budget, pkg.TokensUsed, contextpack.Tokens(pkg.Text))
	}
	cited := map[string]string{}
	for _, c := range pkg.Citations {
		cited[fmt.Sprintf("[%d]", c.N)] = c.ID
	}
	refs := regexp.MustCompile(`\[\d+\]`).FindAllString(pkg.Text, -1)
	if len(refs) < 5 || len(refs) != len(pkg.Citations) {
		t.Fatalf("%d references in the text, %d citations", len(refs), len(pkg.Citations))
	}
	for _, ref := range refs {
		if id := cited[ref]; id == "" || strings.HasPrefix(text(call(t, cs, "get", args{"id": id})), "E") {
			t.Errorf("%s cites %q, which get does not return", ref, id)
		}
	}
	// The model reads the text block: the package text, not the whole
	// package (spans, hashes, dropped candidates), which is ten times as long.
	if content := text(res); content != pkg.Text || len(res.Content) != 1 {
		t.Errorf("the text block: %.300q", content)
	}
	t.Logf("text block %d tokens of a budget of %d, %d citations; the package as JSON %d tokens", pkg.TokensUsed, pkg.Budget, len(pkg.Citations), contextpack.Tokens(string(must(json.Marshal(res.StructuredContent)))))
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestContextHyDE: the context tool's package names its hypothesis; one
// supplied for another query is a tool error.
func TestContextHyDE(t *testing.T) {
	eng, now := newEngine(t, true)
	if _, err := eng.Remember(context.Background(), []*mneme.Record{{Project: "shop", Text: "The staging deploy failed on the migration lock."}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, eng, now, nil)
	hyde := args{"hypothesis": "The migration lock timed out.", "query": "why did the deploy fail", "generator_id": "agent"}
	var pkg contextpack.Package
	structured(t, call(t, cs, "context", args{"query": "why did the deploy fail", "project": "shop", "options": args{"hyde": hyde}}), &pkg)
	if h := pkg.HyDE; h == nil || h.GeneratorID != "agent" || len(h.HypothesisSHA256) != 64 || !h.Supplied {
		t.Fatalf("hyde provenance: %+v", pkg.HyDE)
	}
	hyde["query"] = "who broke the build"
	res := call(t, cs, "context", args{"query": "why did the deploy fail", "project": "shop", "options": args{"hyde": hyde}})
	if !res.IsError || !strings.Contains(text(res), "is not the request's query") {
		t.Fatalf("hypothesis for another query: %s", text(res))
	}
}
