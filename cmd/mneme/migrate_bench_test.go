package main

import (
	"context"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/sqlite"
)

// BenchmarkMigrateStore100k copies 100,000 records with 384-dimension
// vectors from SQLite into PostgreSQL (the budget: 60 s). Run with
// -benchtime=1x.
func BenchmarkMigrateStore100k(b *testing.B) {
	const n = 100_000
	ctx := context.Background()
	home := b.TempDir()
	src, err := sqlite.Open(ctx, home)
	if err != nil {
		b.Fatal(err)
	}
	eng := mneme.NewEngine(src)
	c := benchdata.New(1, 30_000)
	for start := 0; start < n; start += 1000 {
		batch := make([]*mneme.Record, 0, 1000)
		for i := start; i < min(start+1000, n); i++ {
			batch = append(batch, c.Record(i))
		}
		if _, err := eng.Import(ctx, batch, mneme.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	info := mneme.EmbedderInfo{Provider: "bench", Model: "synthetic", Version: "1", Dim: 384}
	if _, err := benchdata.AddVectors(ctx, src, info, benchdata.NewVectors(1, 384, 256)); err != nil {
		b.Fatal(err)
	}
	src.Close() // writes the index snapshots now, not after the copy
	if src, err = sqlite.Open(ctx, home); err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	for b.Loop() {
		b.StopTimer()
		dst := pgtest.Open(b)
		b.StartTimer()
		res, err := copyStore(ctx, src, dst, 2000, nil)
		if err != nil || res.Records != n || res.Vectors != n {
			b.Fatalf("copy = %+v, %v", res, err)
		}
		b.Logf("copied %d records and %d vectors in %.1f s", res.Records, res.Vectors, res.Seconds)
		b.ReportMetric(res.Seconds, "s/copy")
		b.StopTimer()
		dst.Close()
		b.StartTimer()
	}
}
