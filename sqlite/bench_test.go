package sqlite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/sqlite"
)

// load opens a store in a fresh directory holding n synthetic records.
func load(b *testing.B, n int) *mneme.Engine {
	b.Helper()
	s, err := sqlite.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	eng := mneme.NewEngine(s)
	c := benchdata.New(1, 30_000)
	for start := 0; start < n; start += 1000 {
		batch := make([]*mneme.Record, 0, 1000)
		for i := start; i < min(start+1000, n); i++ {
			batch = append(batch, c.Record(i))
		}
		if _, err := eng.Import(context.Background(), batch, mneme.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	return eng
}

// BenchmarkLexicalRecall measures in-process BM25 recall latency at 100,000
// records of ~30 words, unfiltered and under filters; p50 and p99 are over
// the b.N queries (run with -benchtime=2000x).
func BenchmarkLexicalRecall(b *testing.B) {
	for _, n := range []int{100_000} {
		eng := load(b, n)
		since := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
		until := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
		filters := []struct {
			name string
			f    mneme.Filter
		}{
			{"none", mneme.Filter{}},
			{"big-project", mneme.Filter{Project: "p0"}},
			{"small-project+type", mneme.Filter{Project: "p7", Types: []mneme.Type{mneme.Episodic}}},
			{"tags+time", mneme.Filter{Tags: []string{"t3", "t4"}, Since: &since, Until: &until}},
		}
		for _, fl := range filters {
			b.Run(fmt.Sprintf("n=%d/filter=%s", n, fl.name), func(b *testing.B) {
				c := benchdata.New(2, 30_000)
				queries := make([]string, 1000)
				for i := range queries {
					queries[i] = c.Query()
				}
				var lat []time.Duration
				for i := 0; b.Loop(); i++ {
					t0 := time.Now()
					if _, err := eng.Recall(context.Background(), mneme.Query{Text: queries[i%len(queries)], K: 10, Filter: fl.f}); err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(t0))
				}
				benchdata.ReportPercentiles(b, lat)
			})
		}
	}
}

// BenchmarkImport measures import throughput in batches of 1,000 short
// records, as `mneme import` writes them.
func BenchmarkImport(b *testing.B) {
	const n = 20_000
	c := benchdata.New(3, 30_000)
	recs := make([]mneme.Record, n)
	for i := range recs {
		recs[i] = *c.Record(i)
	}
	for b.Loop() {
		b.StopTimer()
		s, err := sqlite.Open(context.Background(), b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		eng := mneme.NewEngine(s)
		b.StartTimer()
		for start := 0; start < n; start += 1000 {
			batch := make([]*mneme.Record, 0, 1000)
			for i := start; i < start+1000; i++ {
				r := recs[i]
				batch = append(batch, &r)
			}
			if _, err := eng.Import(context.Background(), batch, mneme.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "records/s")
}
