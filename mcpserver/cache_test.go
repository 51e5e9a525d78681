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
	"github.com/modelcontextprotocol/go-sdk/mcp"
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

// TestAnswerTool: the opt-in answer tool stores a verified answer as
// `mneme answer put` and POST /v1/answers do (only one the groundedness
// check accepts), and its result shows hashes, never the token; the
// context tool then returns it for the same token and scope.
func TestAnswerTool(t *testing.T) {
	base, now := newEngine(t, true)
	eng := mneme.NewEngine(base.Store(), mneme.WithClock(now), mneme.WithEmbedder(base.Embedder()),
		mneme.WithCache(cache.New(base.Store().(mneme.CacheStore), cache.Policy{}, now)))
	if _, err := eng.Remember(context.Background(), []*mneme.Record{{Project: "demo", Text: "Releases are cut on Tuesdays."}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, eng, now, nil)
	request := map[string]any{"query": "when are releases cut", "project": "demo"}
	put := func(answer, token string) *mcp.CallToolResult {
		return call(t, cs, "answer", map[string]any{"request": request, "answer": answer, "verification_token": token,
			"provider": "p", "model": "m", "model_version": "v"})
	}
	if out := put("Releases are cut on Fridays at 9.", "tok-7"); out.IsError || strings.Contains(text(out), `"stored":true`) {
		t.Fatalf("an unsupported answer: %q", text(out))
	}
	out := put("Releases are cut on Tuesdays.", "tok-7")
	if out.IsError || !strings.Contains(text(out), `"stored":true`) || strings.Contains(text(out), "tok-7") {
		t.Fatalf("a supported answer: %q", text(out))
	}
	if out := put("Releases are cut on Tuesdays.", ""); !out.IsError {
		t.Fatalf("an empty token: %q", text(out))
	}
	got := call(t, cs, "context", map[string]any{"query": "when are releases cut", "project": "demo", "verification_token": "tok-7", "answer_scope": "p/m/v"})
	if !strings.Contains(text(got), "verified answer (p/m/v):\nReleases are cut on Tuesdays.") {
		t.Fatalf("context after the answer tool: %q", text(got))
	}
}
