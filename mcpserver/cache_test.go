package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/cache"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/ground"
	"github.com/mneme-ai/mneme/internal/access"
)

// TestVerifiedAnswerTool: the context tool returns a verified answer for
// the same token and scope, never the token, and refuses a scope with a
// part missing as a tool error.
func TestVerifiedAnswerTool(t *testing.T) {
	base, now := newEngine(t, true)
	eng := mneme.NewEngine(base.Store(), mneme.WithClock(now), mneme.WithEmbedder(base.Embedder()),
		mneme.WithCache(cache.New(base.Store().(mneme.CacheStore), cache.Policy{}, now)))
	ctx := context.Background()
	if _, err := eng.Remember(ctx, []*mneme.Record{{Project: "demo", Text: "Releases are cut on Tuesdays."}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// Stored by a caller of the same scope as the session's: scopes never share.
	res, err := ground.PutAnswer(mneme.WithScope(ctx, access.Open), eng, eng, eng.Embedder().Info().ID(), ground.AnswerRequest{
		Request:           contextpack.Request{RecallRequest: mneme.RecallRequest{Query: "when are releases cut", Project: "demo"}},
		Answer:            "Releases are cut on Tuesdays.",
		VerificationToken: "tok-5", Provider: "p", Model: "m", ModelVersion: "v"}, mneme.Internal)
	if err != nil || !res.Stored {
		t.Fatalf("put: %+v, %v", res, err)
	}
	cs := connect(t, eng, now, nil)
	args := map[string]any{"query": "when are releases cut", "project": "demo", "verification_token": "tok-5", "answer_scope": "p/m/v"}
	out := call(t, cs, "context", args)
	var pkg contextpack.Package
	structured(t, out, &pkg)
	if v := pkg.VerifiedAnswer; v == nil || v.Status != mneme.CacheHit || !strings.Contains(text(out), "verified answer (p/m/v):\nReleases are cut on Tuesdays.") {
		t.Fatalf("hit: %+v %q", pkg.VerifiedAnswer, text(out))
	}
	args["answer_scope"] = "p/m"
	if out := call(t, cs, "context", args); !out.IsError || !strings.Contains(text(out), "needs three parts") || strings.Contains(text(out), "tok-5") {
		t.Fatalf("bad scope: %q", text(out))
	}
}
