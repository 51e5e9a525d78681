package cache_test

import (
	"context"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/cache"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/sqlite"
)

// home is a store of n benchdata memories, embedded by the hash embedder.
func home(b *testing.B, n int) (*sqlite.Store, mneme.Embedder) {
	s, err := sqlite.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	em, _ := hash.New(64)
	eng := mneme.NewEngine(s, mneme.WithEmbedder(em))
	c := benchdata.New(1, 30_000)
	for start := 0; start < n; start += 1000 {
		batch := make([]*mneme.Record, 0, 1000)
		for i := start; i < min(n, start+1000); i++ {
			batch = append(batch, c.Record(i))
		}
		if _, err := eng.Import(context.Background(), batch, mneme.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	return s, em
}

func pack(b *testing.B, eng *mneme.Engine, query string) *contextpack.Package {
	req := contextpack.Request{RecallRequest: mneme.RecallRequest{Query: query}, Budget: 2000}
	pkg, err := contextpack.Build(context.Background(), eng, req, mneme.Internal)
	if err != nil {
		b.Fatal(err)
	}
	return pkg
}

// BenchmarkContextCache: a 2,000-token package over 10,000 memories, warm,
// hybrid recall with the hash embedder: uncached (no cache), miss (a new
// query each time: looked up, built, kept) and hit (the same query).
// Queries come from the same seed in uncached and miss, so they build the
// same packages.
func BenchmarkContextCache(b *testing.B) {
	s, em := home(b, 10_000)
	plain := mneme.NewEngine(s, mneme.WithEmbedder(em))
	cached := mneme.NewEngine(s, mneme.WithEmbedder(em), mneme.WithCache(cache.New(s, cache.Policy{}, time.Now)))
	pack(b, plain, "warm the indexes up")
	for _, c := range []struct {
		name string
		eng  *mneme.Engine
		want string
	}{{"uncached", plain, ""}, {"miss", cached, mneme.CacheMiss}, {"hit", cached, mneme.CacheHit}} {
		b.Run(c.name, func(b *testing.B) {
			queries := benchdata.New(7, 30_000)
			same := queries.Query()
			pack(b, cached, same)
			var lat []time.Duration
			for b.Loop() {
				q := same
				if c.name != "hit" {
					q = queries.Query() // the same sequence in uncached and miss
				}
				t0 := time.Now()
				pkg := pack(b, c.eng, q)
				lat = append(lat, time.Since(t0))
				if got := pkg.Cache[mneme.CacheContextPackage]; got != c.want && (c.name != "miss" || got != mneme.CacheHit) {
					b.Fatalf("context_package %q, want %q", got, c.want)
				}
			}
			benchdata.ReportPercentiles(b, lat)
		})
	}
}

// BenchmarkMissOverhead: what a miss adds to a recall: the key (the
// generation read and the hash), the failed read, and keeping a result
// of 50 hits.
func BenchmarkMissOverhead(b *testing.B) {
	s, em := home(b, 1000)
	eng := mneme.NewEngine(s, mneme.WithEmbedder(em))
	res, err := eng.Recall(context.Background(), mneme.Query{Text: "how do we deploy", K: 50, IncludeUnmatched: true})
	if err != nil {
		b.Fatal(err)
	}
	c := cache.New(s, cache.Policy{}, time.Now)
	ctx := context.Background()
	var lat []time.Duration
	i := 0
	for b.Loop() {
		i++
		t0 := time.Now()
		var out mneme.Result
		key, hit := c.Lookup(ctx, mneme.CacheRetrieval, "", mneme.Query{Text: "q", K: i}, &out)
		if hit {
			b.Fatal("hit")
		}
		c.Keep(ctx, mneme.CacheRetrieval, key, res, nil)
		lat = append(lat, time.Since(t0))
	}
	benchdata.ReportPercentiles(b, lat)
	b.ReportMetric(float64(len(res.Hits)), "hits")
}
