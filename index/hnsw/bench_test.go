package hnsw

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// The 100k benchmarks: 1,000 cluster centres, 384 dims. Run with e.g.
//
//	go test ./index/hnsw/ -run '^$' -bench 100k -benchtime 1x   (build)
//	go test ./index/hnsw/ -run '^$' -bench 'Search100k'          (search)
const benchN, benchDim = 100_000, 384

var bench struct {
	once    sync.Once
	g       *gen
	vecs    [][]float32
	queries [][]float32
	ix      *Index
	build   time.Duration
}

func benchData() {
	bench.once.Do(func() {
		bench.g = newGen(benchDim, 1000)
		bench.vecs = bench.g.points(benchN, 100)
		bench.queries = bench.g.points(500, 101) // near the data, not stored points
	})
}

// benchIndex builds the shared index once per process.
func benchIndex(b *testing.B) *Index {
	benchData()
	if bench.ix == nil {
		start := time.Now()
		bench.ix = build(b, Config{Dim: benchDim}, bench.vecs, true)
		bench.build = time.Since(start)
		b.Logf("built %d in %v (%.0f vectors/s)", benchN, bench.build, benchN/bench.build.Seconds())
	}
	return bench.ix
}

// bytesPerVector counts the index's arrays plus an estimate for the key map.
func (ix *Index) bytesPerVector() float64 {
	n := len(ix.keys)
	total := 4*len(ix.vecs) + 4*len(ix.links0) + 4*len(ix.upper) + 8*len(ix.keys) +
		len(ix.levels) + 4*len(ix.upperOff) + 8*len(ix.dead) + 24*len(ix.byKey)
	return float64(total) / float64(n)
}

func BenchmarkBuild100k(b *testing.B) {
	benchData()
	var ix *Index
	start := time.Now()
	for b.Loop() {
		ix = build(b, Config{Dim: benchDim}, bench.vecs, true)
	}
	b.ReportMetric(float64(b.N*benchN)/time.Since(start).Seconds(), "vectors/s")
	b.ReportMetric(ix.bytesPerVector(), "bytes/vector")
	if bench.ix == nil {
		bench.ix = ix
	}
}

// searchBench times Search per query (p50, p99) and measures recall@10
// against Exact under the same filter.
func searchBench(b *testing.B, accept func(int64) bool) {
	ix := benchIndex(b)
	qs := bench.queries
	var lat []time.Duration
	i := 0
	b.ResetTimer()
	for b.Loop() {
		t := time.Now()
		ix.Search(qs[i%len(qs)], 10, accept)
		lat = append(lat, time.Since(t))
		i++
	}
	slices.Sort(lat)
	ms := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Nanoseconds()) / 1e6 }
	b.ReportMetric(recall(ix, qs[:250], 10, accept), "recall@10")
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
	b.ReportMetric(ix.bytesPerVector(), "bytes/vector")
}

func BenchmarkSearch100k(b *testing.B) { searchBench(b, nil) }

func BenchmarkFilteredSearch100k(b *testing.B) {
	b.Run("pass1%", func(b *testing.B) { searchBench(b, func(k int64) bool { return k%100 == 7 }) })
	b.Run("pass10%", func(b *testing.B) { searchBench(b, func(k int64) bool { return k%10 == 3 }) })
	b.Run("pass20%", func(b *testing.B) { searchBench(b, func(k int64) bool { return k%5 == 3 }) })
	b.Run("pass50%", func(b *testing.B) { searchBench(b, func(k int64) bool { return k%2 == 1 }) })
}
