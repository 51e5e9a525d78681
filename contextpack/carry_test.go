package contextpack_test

import (
	"context"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/cache"
	"github.com/mneme-ai/mneme/contextpack"
)

// TestCarry: a package carried over a write the caller knows shows in no
// package is found in the cache after it; without Carry the write makes
// the same request a miss, and a package citing a memory that is gone is
// not carried.
func TestCarry(t *testing.T) {
	ctx := context.Background()
	base := engine(t, turns()...)
	eng := mneme.NewEngine(base.Store(), mneme.WithClock(func() time.Time { return now }),
		mneme.WithCache(cache.New(base.Store().(mneme.CacheStore), cache.Policy{}, func() time.Time { return now })))
	req := contextpack.Request{RecallRequest: mneme.RecallRequest{Query: "why did the migration fail", Mode: mneme.Lexical}, Budget: 300}
	q, n, err := req.Recall(now, mneme.Internal)
	if err != nil {
		t.Fatal(err)
	}
	assemble := func() *contextpack.Package {
		t.Helper()
		pkg, err := contextpack.Assemble(ctx, eng, q, n)
		if err != nil || len(pkg.Citations) == 0 {
			t.Fatalf("assemble: %v %+v", err, pkg)
		}
		return pkg
	}
	write := func(text string) string {
		t.Helper()
		res, err := eng.Remember(ctx, []*mneme.Record{{Text: text, Type: mneme.Episodic, Kind: "session"}}, mneme.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res.ID
	}
	status := func(p *contextpack.Package) string { return string(p.Cache[mneme.CacheContextPackage]) }

	pkg := assemble()
	write("Session s9 (claude-code)")
	if got := status(assemble()); got != string(mneme.CacheMiss) {
		t.Fatalf("after a write, without carry: %s, want a miss", got)
	}
	pkg = assemble()
	write("Session s10 (claude-code)")
	contextpack.CarryLed(ctx, eng, q, n, 0, pkg)
	if got := assemble(); status(got) != string(mneme.CacheHit) || got.Text != pkg.Text {
		t.Fatalf("after a carried write: %s, want a hit with the same text", status(got))
	}
	pkg = assemble()
	if _, err := eng.Forget(ctx, mneme.ForgetRequest{IDs: []string{pkg.Citations[0].ID}}); err != nil {
		t.Fatal(err)
	}
	contextpack.CarryLed(ctx, eng, q, n, 0, pkg)
	if got := assemble(); status(got) != string(mneme.CacheMiss) {
		t.Fatalf("a package citing a forgotten memory was carried: %s", status(got))
	}
}
