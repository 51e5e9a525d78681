package bm25_test

import (
	"fmt"
	"github.com/mneme-ai/mneme/internal/eval"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// BenchmarkSearch measures the lexical search alone over 100,000 records
// of 25 to 35 words (the recall benchmarks' corpus), top 10, asked with a
// question of a few words and with a document of 200 words, in one run;
// CPU time per search beside the latency percentiles.
func BenchmarkSearch(b *testing.B) {
	const n = 100_000
	c := benchdata.New(1, 30_000)
	ix := bm25.New()
	for i := range n {
		r := c.Record(i)
		ix.Put(bm25.Doc{Key: int64(i + 1), Text: r.Text, Attrs: bm25.Attrs{Project: r.Project, Tags: r.Tags}})
	}
	for _, words := range []int{0, 200} {
		b.Run(fmt.Sprintf("n=%d/query-words=%d", n, words), func(b *testing.B) {
			q := benchdata.New(2, 30_000)
			var lat []time.Duration
			cpu0 := eval.CPUTime()
			for b.Loop() {
				text := q.Query()
				if words > 0 {
					text = q.Text(words)
				}
				t0 := time.Now()
				ix.Search(bm25.Query{Terms: textnorm.QueryTerms(text), K: 10})
				lat = append(lat, time.Since(t0))
			}
			b.ReportMetric(float64((eval.CPUTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			benchdata.ReportPercentiles(b, lat)
		})
	}
}
