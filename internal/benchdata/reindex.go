package benchdata

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/eval"
)

// RecallDuringReindex measures recall on eng (hybrid, k 10, queries
// embedded by eng's embedder) first alone, then while eng.ReindexTo builds
// target's vectors over every record and switches to them: the
// percentiles of each phase (before-p50-ms, during-p99-ms, ...), how many
// recalls ran during the build, and how long the reindex took. Recalls
// during the build must not fail nor degrade.
func RecallDuringReindex(b *testing.B, eng *mneme.Engine, target mneme.Embedder, before int) {
	ctx := context.Background()
	q := New(2, 30_000)
	// recall times one recall; ok is false once the home has switched
	// (eng embeds queries with the old embedder: its recalls then degrade).
	recall := func() (took time.Duration, ok bool) {
		t0 := time.Now()
		res, err := eng.Recall(ctx, mneme.Query{Text: q.Query(), K: 10})
		took = time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		if res.Degraded || res.Unembedded > 0 {
			if home, _, _ := eng.Store().HomeEmbedder(ctx); home == target.Info() {
				return took, false
			}
			b.Fatalf("recall degraded: %s (%d unembedded)", res.DegradedReason, res.Unembedded)
		}
		return took, true
	}
	var alone []time.Duration
	for range before {
		took, _ := recall()
		alone = append(alone, took)
	}
	var done atomic.Bool
	var res mneme.ReindexResult
	var rerr error
	t0 := time.Now()
	go func() {
		defer done.Store(true)
		res, rerr = eng.ReindexTo(ctx, target, mneme.ReindexOptions{KeepOld: true})
	}()
	var during []time.Duration
	for !done.Load() {
		if took, ok := recall(); ok {
			during = append(during, took)
		}
	}
	took := time.Since(t0)
	if rerr != nil || !res.Switched {
		b.Fatalf("reindex: %+v, %v", res, rerr)
	}
	report := func(prefix string, lat []time.Duration) {
		p50, p99 := eval.Percentiles(lat)
		b.ReportMetric(p50, prefix+"-p50-ms")
		b.ReportMetric(p99, prefix+"-p99-ms")
	}
	report("before", alone)
	report("during", during)
	b.ReportMetric(float64(len(during)), "recalls-during")
	b.ReportMetric(took.Seconds(), "reindex-s")
	b.ReportMetric(float64(res.Embedded), "embedded")
}
