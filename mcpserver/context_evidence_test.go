package mcpserver

import (
	"context"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/evidence"
)

// TestContextEvidenceTool: the tool answers what evidence.Build does for
// the same request (the CLI's --evidence-export and HTTP's
// /v1/context/evidence call it too); bad thresholds are a tool error.
func TestContextEvidenceTool(t *testing.T) {
	eng, now := newEngine(t, true)
	if _, err := eng.RememberRequests(context.Background(), []mneme.RememberRequest{{Text: "The release train leaves on Tuesdays", Project: "p"}}); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, eng, now, nil)
	var got evidence.Export
	structured(t, call(t, cs, "context_evidence", args{"query": "release train", "project": "p", "min_items": 2}), &got)
	want, err := evidence.Build(context.Background(), eng, evidence.Request{Request: contextpack.Request{RecallRequest: mneme.RecallRequest{Query: "release train", Project: "p"}},
		Thresholds: evidence.Thresholds{MinItems: 2}}, mneme.Internal)
	if err != nil {
		t.Fatal(err)
	}
	if got.Decision != "hold" || got.Decision != want.Decision || got.PackageSHA256 != want.PackageSHA256 || len(got.Items) != len(want.Items) {
		t.Fatalf("tool %+v, library %+v", got, want)
	}
	if res := call(t, cs, "context_evidence", args{"query": "x", "degraded": "maybe"}); !res.IsError {
		t.Fatal("a bad threshold was accepted")
	}
}
