package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/internal/pgtest"
)

// BenchmarkHybridRecall measures warm in-process recall at 100,000 records
// in PostgreSQL, as sqlite's BenchmarkHybridRecall does (the same corpus,
// synthetic clustered vectors, queries embedded by the built-in model,
// included in the latency). Run with -benchtime=300x.
func BenchmarkHybridRecall(b *testing.B) {
	const n = 100_000
	ctx := context.Background()
	eng, _ := loadVectors(b, n)
	if _, err := eng.Recall(ctx, mneme.Query{Text: "how do we warm up", K: 10}); err != nil {
		b.Fatal(err)
	}
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
		{"meta-tenth", mneme.Filter{Meta: benchdata.MetaTenth}}, // one meta value, 10% of the records
	}
	for _, mode := range []mneme.Mode{mneme.Hybrid, mneme.Lexical, mneme.Vector} {
		for i, fl := range filters {
			if mode != mneme.Hybrid && i > 0 {
				break
			}
			b.Run(fmt.Sprintf("n=%d/mode=%s/filter=%s", n, mode, fl.name), func(b *testing.B) {
				q := benchdata.New(2, 30_000)
				var lat []time.Duration
				for b.Loop() {
					t := time.Now()
					res, err := eng.Recall(ctx, mneme.Query{Text: q.Query(), K: 10, Filter: fl.f, Mode: mode})
					lat = append(lat, time.Since(t))
					if err != nil || res.Degraded {
						b.Fatal(err, res.DegradedReason)
					}
				}
				benchdata.ReportPercentiles(b, lat)
			})
		}
	}
}

// loadVectors opens a fresh store holding n records of the benchmark
// corpus with synthetic vectors from the built-in model's identity (its
// HNSW index built, the store vacuumed and analysed), and an engine that
// embeds queries with the model.
func loadVectors(b *testing.B, n int) (*mneme.Engine, mneme.Embedder) {
	b.Helper()
	em := benchdata.MiniLM(b)
	ctx := context.Background()
	s := pgtest.Open(b)
	b.Cleanup(func() { s.Close() })
	eng := mneme.NewEngine(s)
	c := benchdata.New(1, 30_000)
	t0 := time.Now()
	for start := 0; start < n; start += 1000 {
		batch := make([]*mneme.Record, 0, 1000)
		for i := start; i < min(start+1000, n); i++ {
			batch = append(batch, c.Record(i))
		}
		if _, err := eng.Import(ctx, batch, mneme.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("imported %d records in %s", n, time.Since(t0))
	t0 = time.Now()
	if err := s.SetHomeEmbedder(ctx, em.Info()); err != nil {
		b.Fatal(err)
	}
	err := s.WithoutVectorIndex(ctx, func() error {
		_, err := benchdata.AddVectors(ctx, s, em.Info(), benchdata.NewVectors(1, em.Info().Dim, 256))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("added vectors and built the HNSW index in %s", time.Since(t0))
	// A store at rest, as autovacuum leaves it: planner statistics, and a
	// visibility map that lets index-only scans skip the table.
	if _, err := s.Pool().Exec(ctx, "VACUUM ANALYZE"); err != nil {
		b.Fatal(err)
	}
	return mneme.NewEngine(s, mneme.WithEmbedder(em)), em
}

// BenchmarkRecallDuringReindex is sqlite's: hybrid recall at 100,000
// records alone, then while a reindex builds the hash embedder's vectors
// (384 dimensions) beside the model's and switches (run with
// -benchtime 1x).
func BenchmarkRecallDuringReindex(b *testing.B) {
	eng, _ := loadVectors(b, 100_000)
	if _, err := eng.Recall(context.Background(), mneme.Query{Text: "how do we warm up", K: 10}); err != nil {
		b.Fatal(err)
	}
	target, err := hash.New(384)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		benchdata.RecallDuringReindex(b, eng, target, 300)
	}
}
