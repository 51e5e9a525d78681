package storetest

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/cache"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/skips"
)

// cacheStore returns the store's cache role, or skips t.
func cacheStore(t *testing.T, f *fixture) mneme.CacheStore {
	t.Helper()
	cs, ok := f.eng.Store().(mneme.CacheStore)
	if !ok {
		skips.Skip(t, "a store that implements mneme.CacheStore", "the store does not implement mneme.CacheStore")
	}
	return cs
}

// withCache replaces the fixture's engine with one that caches, embedding
// with em (nil: none).
func withCache(t *testing.T, f *fixture, em mneme.Embedder) {
	cs := cacheStore(t, f)
	c := cache.New(cs, cache.Policy{}, func() time.Time { return f.now })
	f.eng = mneme.NewEngine(f.eng.Store(), f.clock(), mneme.WithEmbedder(em), mneme.WithCache(c))
}

func generation(t *testing.T, cs mneme.CacheStore, f *fixture, project string) int64 {
	t.Helper()
	g, err := cs.Generation(f.ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// testCacheEntries: an entry round-trips every field, is replaced by a
// new one under its key, and reads as a miss once expired.
func testCacheEntries(t *testing.T, f *fixture) {
	cs := cacheStore(t, f)
	at := f.now.Add(time.Hour)
	e := mneme.CacheEntry{Kind: mneme.CacheRetrieval, Key: "k1", Payload: []byte(`{"a":1}`), PayloadHash: "h1",
		SchemaVersion: 3, CreatedAt: f.now, ExpiresAt: &at}
	if err := cs.CachePut(f.ctx, e); err != nil {
		t.Fatal(err)
	}
	got, err := cs.CacheGet(f.ctx, e.Kind, e.Key, f.now)
	if err != nil || got == nil || !bytes.Equal(got.Payload, e.Payload) || got.PayloadHash != "h1" || got.SchemaVersion != 3 ||
		!got.CreatedAt.Equal(f.now) || got.ExpiresAt == nil || !got.ExpiresAt.Equal(at) {
		t.Fatalf("get = %+v, %v; want %+v", got, err, e)
	}
	if got, err := cs.CacheGet(f.ctx, mneme.CacheRerank, e.Key, f.now); err != nil || got != nil {
		t.Fatalf("another kind's key = %+v, %v; want a miss", got, err)
	}
	if got, err := cs.CacheGet(f.ctx, e.Kind, e.Key, at); err != nil || got != nil {
		t.Fatalf("expired entry = %+v, %v; want a miss", got, err)
	}
	e.Payload, e.ExpiresAt = []byte(`{"a":2}`), nil
	if err := cs.CachePut(f.ctx, e); err != nil {
		t.Fatal(err)
	}
	if got, err := cs.CacheGet(f.ctx, e.Kind, e.Key, at.Add(1000*time.Hour)); err != nil || got == nil || string(got.Payload) != `{"a":2}` || got.ExpiresAt != nil {
		t.Fatalf("replaced entry = %+v, %v", got, err)
	}
}

// testCachePrune: prune needs a selection, counts without deleting on a
// dry run, and deletes by kind or expiry; stats count by kind.
func testCachePrune(t *testing.T, f *fixture) {
	cs := cacheStore(t, f)
	past, future := f.now.Add(-time.Minute), f.now.Add(time.Hour)
	for i, e := range []mneme.CacheEntry{
		{Kind: mneme.CacheRetrieval, Key: "a", ExpiresAt: &past},
		{Kind: mneme.CacheRetrieval, Key: "b", ExpiresAt: &future},
		{Kind: mneme.CacheQueryEmbedding, Key: "c"},
		{Kind: mneme.CacheQueryEmbedding, Key: "d", ExpiresAt: &past},
	} {
		e.Payload, e.PayloadHash, e.SchemaVersion, e.CreatedAt = []byte("[1]"), "h", 1, f.now.Add(time.Duration(i))
		if err := cs.CachePut(f.ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cs.CachePrune(f.ctx, mneme.CacheSelection{}, f.now, false); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("prune without a selection: %v, want EINVALID", err)
	}
	if _, err := cs.CachePrune(f.ctx, mneme.CacheSelection{Kind: "bogus"}, f.now, false); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("prune of an unknown kind: %v, want EINVALID", err)
	}
	st, err := cs.CacheStats(f.ctx, f.now)
	if err != nil || len(st) != 2 || st[0] != (mneme.CacheKindStats{Kind: mneme.CacheQueryEmbedding, Entries: 2, Expired: 1, Bytes: 6}) ||
		st[1] != (mneme.CacheKindStats{Kind: mneme.CacheRetrieval, Entries: 2, Expired: 1, Bytes: 6}) {
		t.Fatalf("stats = %+v, %v", st, err)
	}
	for _, c := range []struct {
		sel  mneme.CacheSelection
		dry  bool
		want int
	}{
		{mneme.CacheSelection{Expired: true}, true, 2},
		{mneme.CacheSelection{Expired: true, Kind: mneme.CacheQueryEmbedding, Key: "c"}, true, 0},
		{mneme.CacheSelection{Kind: mneme.CacheQueryEmbedding, Key: "c"}, true, 1},
		{mneme.CacheSelection{Expired: true, Kind: mneme.CacheRetrieval}, false, 1},
		{mneme.CacheSelection{Expired: true}, false, 1},
		{mneme.CacheSelection{Kind: mneme.CacheQueryEmbedding}, false, 1},
		{mneme.CacheSelection{Kind: mneme.CacheQueryEmbedding}, false, 0},
	} {
		if n, err := cs.CachePrune(f.ctx, c.sel, f.now, c.dry); err != nil || n != c.want {
			t.Fatalf("prune %+v dry %v = %d, %v; want %d", c.sel, c.dry, n, err, c.want)
		}
	}
	if got, _ := cs.CacheGet(f.ctx, mneme.CacheRetrieval, "b", f.now); got == nil {
		t.Fatal("prune deleted an entry it did not select")
	}
	if sc, ok := cs.(interface{ CacheSchema(context.Context) error }); ok {
		if err := sc.CacheSchema(f.ctx); err != nil {
			t.Fatalf("schema: %v", err)
		}
	}
	if err := cache.Probe(f.ctx, cs, f.now); err != nil {
		t.Fatalf("probe: %v", err)
	}
	if st, _ := cs.CacheStats(f.ctx, f.now); len(st) != 1 || st[0].Entries != 1 {
		t.Fatalf("after the probe: %+v, want the one entry left", st)
	}
}

// testCacheGenerations: every write to a project's records or vectors
// raises its generation and the sum, and leaves other projects' alone.
func testCacheGenerations(t *testing.T, f *fixture) {
	cs := cacheStore(t, f)
	a0, b0, all0 := generation(t, cs, f, "a"), generation(t, cs, f, "b"), generation(t, cs, f, "")
	r := f.remember(mneme.Record{Project: "a", Text: "first fact about apples"})
	a1 := generation(t, cs, f, "a")
	if a1 <= a0 || generation(t, cs, f, "b") != b0 || generation(t, cs, f, "") <= all0 {
		t.Fatalf("after a write to a: a %d→%d, b %d→%d", a0, a1, b0, generation(t, cs, f, "b"))
	}
	rec := f.get(r.ID)
	rec.Text, rec.ContentHash = "changed fact about apples", ""
	if _, err := f.eng.Import(f.ctx, []*mneme.Record{rec}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	a2 := generation(t, cs, f, "a")
	if a2 <= a1 {
		t.Fatalf("an update left a's generation at %d", a2)
	}
	withEmbedder(t, f, 8)
	if _, err := f.eng.EmbedPending(f.ctx); err != nil {
		t.Fatal(err)
	}
	a3 := generation(t, cs, f, "a")
	if a3 <= a2 {
		t.Fatalf("embedding a's record left its generation at %d", a3)
	}
	if _, err := f.eng.Store().Delete(f.ctx, []string{r.ID}); err != nil {
		t.Fatal(err)
	}
	if a4 := generation(t, cs, f, "a"); a4 <= a3 || generation(t, cs, f, "b") != b0 {
		t.Fatalf("a delete: a %d→%d, b %d", a3, a4, generation(t, cs, f, "b"))
	}
}

// testCacheRecall: a repeated recall and its query embedding hit; a write
// to the project makes the next one miss; another clearance or scope
// never reads the entry.
func testCacheRecall(t *testing.T, f *fixture) {
	em, err := hash.New(16)
	if err != nil {
		t.Fatal(err)
	}
	withCache(t, f, em)
	f.remember(mneme.Record{Project: "p", Text: "the deploy runs on fridays"})
	q := mneme.Query{Text: "when does the deploy run", K: 5, Filter: mneme.Filter{Project: "p"}}
	status := func(q mneme.Query) mneme.CacheStatus {
		t.Helper()
		res, err := f.eng.Recall(f.ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return res.Cache
	}
	want := func(got mneme.CacheStatus, kind, v string) {
		t.Helper()
		if got[kind] != v {
			t.Fatalf("cache status %v, want %s %s", got, kind, v)
		}
	}
	want(status(q), mneme.CacheRetrieval, mneme.CacheMiss)
	st := status(q)
	want(st, mneme.CacheRetrieval, mneme.CacheHit)
	f.remember(mneme.Record{Project: "p", Text: "the deploy moved to mondays"})
	st = status(q)
	want(st, mneme.CacheRetrieval, mneme.CacheMiss)
	want(st, mneme.CacheQueryEmbedding, mneme.CacheHit)
	f.remember(mneme.Record{Project: "other", Text: "unrelated"})
	want(status(q), mneme.CacheRetrieval, mneme.CacheHit)
	secret := q
	secret.Filter.Clearance = mneme.Secret
	want(status(secret), mneme.CacheRetrieval, mneme.CacheMiss)
	scoped := mneme.WithScope(f.ctx, mneme.Scope{Name: "t", Projects: []string{"p"}})
	res, err := f.eng.Recall(scoped, q)
	if err != nil || res.Cache[mneme.CacheRetrieval] != mneme.CacheMiss {
		t.Fatalf("another scope: %v, %v; want a miss", res, err)
	}
}
