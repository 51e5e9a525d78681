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
	"github.com/mneme-ai/mneme/internal/eval"
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
// hybrid recall with the hash embedder. miss-vs-uncached builds each new
// query twice, alternating which goes first: without a cache, and with
// one (a miss: looked up, built, kept), reporting both medians; hit asks
// the same query again.
func BenchmarkContextCache(b *testing.B) {
	s, em := home(b, 10_000)
	ctx := context.Background()
	plain := mneme.NewEngine(s, mneme.WithEmbedder(em))
	c := cache.New(s, cache.Policy{}, time.Now)
	cached := mneme.NewEngine(s, mneme.WithEmbedder(em), mneme.WithCache(c))
	pack(b, plain, "warm the indexes up")
	b.Run("miss-vs-uncached", func(b *testing.B) {
		for _, kind := range mneme.CacheKinds { // every query a miss, however often this runs
			s.CachePrune(ctx, mneme.CacheSelection{Kind: kind}, time.Now(), false)
		}
		queries := benchdata.New(7, 30_000)
		var lat, base []time.Duration
		i := 0
		for b.Loop() {
			q := queries.Query()
			timed := func(eng *mneme.Engine) time.Duration {
				t0 := time.Now()
				pkg := pack(b, eng, q)
				d := time.Since(t0)
				if eng == cached && pkg.Cache[mneme.CacheContextPackage] != mneme.CacheMiss && pkg.Cache[mneme.CacheContextPackage] != mneme.CacheHit {
					b.Fatalf("cache status %v", pkg.Cache)
				}
				return d
			}
			if i++; i%2 == 0 {
				base = append(base, timed(plain))
				lat = append(lat, timed(cached))
			} else {
				lat = append(lat, timed(cached))
				base = append(base, timed(plain))
			}
			c.Wait() // the background write counts against the miss's iteration, not the next
		}
		benchdata.ReportPercentiles(b, lat)
		p50, _ := eval.Percentiles(base)
		b.ReportMetric(p50, "uncached-p50-ms")
	})
	b.Run("hit", func(b *testing.B) {
		same := "how do we keep the same query"
		pack(b, cached, same)
		c.Wait()
		var lat []time.Duration
		for b.Loop() {
			t0 := time.Now()
			pkg := pack(b, cached, same)
			lat = append(lat, time.Since(t0))
			if got := pkg.Cache[mneme.CacheContextPackage]; got != mneme.CacheHit {
				b.Fatalf("context_package %q, want hit", got)
			}
		}
		benchdata.ReportPercentiles(b, lat)
	})
}

// BenchmarkMissOverhead: what a miss adds to a recall before its caller
// has the result: the key (the generation read and the hash), the failed
// read, and handing a result of 50 hits to the background write.
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
		c.Wait() // the background write, after the caller has its result
	}
	benchdata.ReportPercentiles(b, lat)
	b.ReportMetric(float64(len(res.Hits)), "hits")
}
