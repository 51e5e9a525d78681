package hook_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/hook"
)

// TestStartLeavesAColdIndexToWarm: a session start whose search would
// first index more than MaxBacklog changes does not search: it records
// the session, prints nothing, logs why and hands the work to Warm. Once
// the indexes are warm, the next start serves the package and calls no
// Warm.
func TestStartLeavesAColdIndexToWarm(t *testing.T) {
	ctx := context.Background()
	c, repo := home(t)
	c.NoContext = false
	recs := make([]*mneme.Record, 30)
	for i := range recs {
		recs[i] = &mneme.Record{Project: "shop-api", Type: mneme.Semantic, Text: fmt.Sprintf("decision %d: we build with make ci", i)}
	}
	if _, err := c.Eng.Remember(ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	warmed := 0
	c.Warm, c.MaxBacklog = func() { warmed++ }, 20
	start := func(session string) string {
		t.Helper()
		a := hook.Adapters["claude-code"]
		ev, err := a.Parse([]byte(event(session, repo, "SessionStart", `,"source":"startup"`)))
		if err != nil {
			t.Fatal(err)
		}
		out, err := c.Handle(ctx, a, ev)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	if out := start("cold"); out != "" || warmed != 1 {
		t.Fatalf("cold start printed %q, warm called %d times; want nothing and once", out, warmed)
	}
	if n, _, _ := c.Eng.List(ctx, mneme.Filter{Project: "shop-api", Kinds: []string{"session"}}, 10, ""); len(n) != 1 {
		t.Fatalf("cold start recorded %d sessions, want 1", len(n))
	}
	if _, err := c.Eng.WarmIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	if out := start("warm"); !strings.Contains(out, "we build with make ci") || warmed != 1 {
		t.Fatalf("warm start printed %q, warm called %d times; want the package and no call", out, warmed)
	}
}
