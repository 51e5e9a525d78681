package contextpack_test

import (
	"context"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/internal/benchdata"
)

// BenchmarkContext2000: a 2,000-token package over 10,000 memories, warm,
// hybrid recall with the hash embedder (the built-in model adds its ~5 ms
// query embedding; see docs/performance.md).
func BenchmarkContext2000(b *testing.B) {
	eng := engine(b)
	c := benchdata.New(1, 30_000)
	for start := 0; start < 10_000; start += 1000 {
		batch := make([]*mneme.Record, 0, 1000)
		for i := start; i < start+1000; i++ {
			batch = append(batch, c.Record(i))
		}
		if _, err := eng.Import(context.Background(), batch, mneme.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	build(b, eng, contextpack.Request{RecallRequest: mneme.RecallRequest{Query: c.Query()}, Budget: 2000}) // warm
	var lat []time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		pkg := build(b, eng, contextpack.Request{RecallRequest: mneme.RecallRequest{Query: c.Query()}, Budget: 2000})
		lat = append(lat, time.Since(t0))
		if pkg.TokensUsed > 2000 {
			b.Fatal(pkg.TokensUsed)
		}
	}
	benchdata.ReportPercentiles(b, lat)
}
