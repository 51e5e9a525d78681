//go:build unix

package bm25_test

import (
	"fmt"
	"syscall"
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
			cpu0 := cpuTime()
			for b.Loop() {
				text := q.Query()
				if words > 0 {
					text = q.Text(words)
				}
				t0 := time.Now()
				ix.Search(bm25.Query{Terms: textnorm.QueryTerms(text), K: 10})
				lat = append(lat, time.Since(t0))
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			benchdata.ReportPercentiles(b, lat)
		})
	}
}

// cpuTime is the CPU time the process has used: on a shared machine,
// steadier than the time a search takes.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
