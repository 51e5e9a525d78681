package mneme_test

import (
	"context"
	"github.com/mneme-ai/mneme/internal/eval"
	"os"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/minilm"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/internal/skips"
	"github.com/mneme-ai/mneme/sqlite"
)

// BenchmarkSyncThroughput: the embedding job against the model alone, on
// the same 512 synthetic memories of about 30 words, with the built-in
// model. model: the texts straight through the model in batches of
// EmbedBatch; sync: EmbedPending over a new home where they were written
// pending (reading them, the cache, writing vectors and the cursor
// included). Each iteration times both, in turn, the order alternating, so
// a noisy machine weighs on both alike. On a shared machine wall time
// swings with the load: sync/model-cpu compares the CPU time each took for
// the same texts (the throughput ratio on an idle machine, as both use
// both cores), and %-outside-model is the share of the job's wall time not
// spent in the model (its own work).
//
//	go test -run '^$' -bench SyncThroughput -benchtime 4x -count 3 .
func BenchmarkSyncThroughput(b *testing.B) {
	em, err := minilm.NewEmbedder(minilm.DefaultDir(os.Getenv))
	if err != nil {
		skips.Skip(b, "mneme model fetch", "the built-in model is not installed: "+mneme.ErrorMessage(err))
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
	var model, sync, inModel, modelCPU, syncCPU time.Duration
	timeModel := func() {
		t0, c0 := time.Now(), eval.CPUTime()
		for i := 0; i < n; i += mneme.EmbedBatch {
			em.Embed(ctx, texts[i:min(i+mneme.EmbedBatch, n)])
		}
		model, modelCPU = model+time.Since(t0), modelCPU+eval.CPUTime()-c0
	}
	timeSync := func() {
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
		timed := &timedEmbedder{Embedder: em}
		t0, c0 := time.Now(), eval.CPUTime()
		res, err := mneme.NewEngine(s, mneme.WithEmbedder(timed)).EmbedPending(ctx)
		sync, syncCPU, inModel = sync+time.Since(t0), syncCPU+eval.CPUTime()-c0, inModel+timed.took
		if err != nil || res.Embedded != n || res.Pending != 0 {
			b.Fatalf("sync: %+v, %v", res, err)
		}
	}
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			timeModel()
			timeSync()
		} else {
			timeSync()
			timeModel()
		}
	}
	b.ReportMetric(float64(n*b.N)/model.Seconds(), "model-texts/s")
	b.ReportMetric(float64(n*b.N)/sync.Seconds(), "sync-texts/s")
	b.ReportMetric(model.Seconds()/sync.Seconds(), "sync/model")
	b.ReportMetric(modelCPU.Seconds()/syncCPU.Seconds(), "sync/model-cpu")
	b.ReportMetric(100*(sync-inModel).Seconds()/sync.Seconds(), "%-outside-model")
}

// timedEmbedder adds up the time its embedder takes.
type timedEmbedder struct {
	mneme.Embedder
	took time.Duration
}

func (t *timedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	t0 := time.Now()
	defer func() { t.took += time.Since(t0) }()
	return t.Embedder.Embed(ctx, texts)
}
