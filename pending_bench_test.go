package mneme_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/minilm"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/sqlite"
)

// BenchmarkSyncThroughput: the embedding job against the model alone, on
// the same 512 synthetic memories of about 30 words, with the built-in
// model. model: the texts straight through the model in batches of
// EmbedBatch; sync: EmbedPending over a new home where they were written
// pending (reading them, the cache, writing vectors and the cursor
// included). Each iteration times both, in turn, the order alternating, so
// a noisy machine weighs on both alike.
//
//	go test -run '^$' -bench SyncThroughput -benchtime 6x .
func BenchmarkSyncThroughput(b *testing.B) {
	em, err := minilm.NewEmbedder(minilm.DefaultDir(os.Getenv))
	if err != nil {
		b.Skipf("SKIPPING: the built-in model is not available: %v", err)
	}
	const n = 512
	ctx := context.Background()
	c := benchdata.New(1, 30_000)
	recs := make([]*mneme.Record, n)
	texts := make([]string, n)
	for i := range recs {
		recs[i] = c.Record(i)
		texts[i] = recs[i].Text
	}
	em.Embed(ctx, texts[:8]) // warm the workspace pool
	timeModel := func() time.Duration {
		t0 := time.Now()
		for i := 0; i < n; i += mneme.EmbedBatch {
			em.Embed(ctx, texts[i:min(i+mneme.EmbedBatch, n)])
		}
		return time.Since(t0)
	}
	timeSync := func() time.Duration {
		s, err := sqlite.Open(ctx, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		pending := make([]*mneme.Record, n)
		for i, r := range recs {
			r := *r
			pending[i] = &r
		}
		// Written without an embedder: every record waits for a vector.
		if _, err := mneme.NewEngine(s).Import(ctx, pending, mneme.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		res, err := mneme.NewEngine(s, mneme.WithEmbedder(em)).EmbedPending(ctx)
		took := time.Since(t0)
		if err != nil || res.Embedded != n || res.Pending != 0 {
			b.Fatalf("sync: %+v, %v", res, err)
		}
		return took
	}
	var model, sync time.Duration
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			model += timeModel()
			sync += timeSync()
		} else {
			sync += timeSync()
			model += timeModel()
		}
	}
	b.ReportMetric(float64(n*b.N)/model.Seconds(), "model-texts/s")
	b.ReportMetric(float64(n*b.N)/sync.Seconds(), "sync-texts/s")
	b.ReportMetric(model.Seconds()/sync.Seconds(), "sync/model")
}
