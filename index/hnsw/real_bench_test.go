package hnsw

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/internal/skips"
)

// Benchmarks on real all-MiniLM-L6-v2 sentence vectors (nfcorpus sentences,
// LoCoMo turns, word windows; queries are held-out nfcorpus queries and
// LoCoMo questions). Make the vector file once, about 6 minutes on 2 cores:
//
//	go run ./tools/minilmvectors -out /tmp/minilm-100k.f32
//
// then, e.g.
//
//	export MNEME_HNSW_VECTORS=/tmp/minilm-100k.f32
//	go test ./index/hnsw/ -run '^$' -bench 'Real(Build|Search|Filtered)' -benchtime 1x   (build, then search)
//	go test ./index/hnsw/ -run '^$' -bench RealSweep -timeout 1h                          (M × EfConstruction × EfSearch)
//
// File format, little-endian: u32 rows, u32 dim, then rows·dim float32. The
// first realQueries rows are queries, the rest the index, inserted in order.
const realQueries = 500

var realData struct {
	once    sync.Once
	err     error
	queries [][]float32
	vecs    [][]float32
	ix      *Index // default Config, built once per process
}

func loadReal(b *testing.B) {
	path := os.Getenv("MNEME_HNSW_VECTORS")
	if path == "" {
		skips.Skip(b, "MNEME_HNSW_VECTORS=FILE (go run ./tools/minilmvectors -out /tmp/minilm-100k.f32)", "no vector file")
	}
	realData.once.Do(func() {
		raw, err := os.ReadFile(path)
		if err != nil {
			realData.err = err
			return
		}
		if len(raw) < 8 {
			realData.err = fmt.Errorf("%s: no header", path)
			return
		}
		rows, dim := int(binary.LittleEndian.Uint32(raw)), int(binary.LittleEndian.Uint32(raw[4:]))
		if rows <= realQueries || dim == 0 || len(raw) != 8+4*rows*dim {
			realData.err = fmt.Errorf("%s: %d rows × %d dims does not match %d bytes", path, rows, dim, len(raw))
			return
		}
		all := make([]float32, rows*dim)
		for i := range all {
			all[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[8+4*i:]))
		}
		vecs := make([][]float32, rows)
		for i := range vecs {
			vecs[i] = all[i*dim : (i+1)*dim : (i+1)*dim]
		}
		realData.queries, realData.vecs = vecs[:realQueries], vecs[realQueries:]
	})
	if realData.err != nil {
		b.Fatal(realData.err)
	}
}

// buildReal builds the index for cfg with AddBatch and returns it with
// the build rate in vectors/s.
func buildReal(b *testing.B, cfg Config) (*Index, float64) {
	start := time.Now()
	cfg.Dim = len(realData.vecs[0])
	ix := build(b, cfg, realData.vecs, true)
	took := time.Since(start)
	rate := float64(len(realData.vecs)) / took.Seconds()
	b.Logf("built %d × %d, %+v, in %v: %.0f vectors/s", len(realData.vecs), cfg.Dim, ix.Config(), took.Round(time.Millisecond), rate)
	return ix, rate
}

func realIndex(b *testing.B) *Index {
	loadReal(b)
	if realData.ix == nil {
		realData.ix, _ = buildReal(b, Config{})
	}
	return realData.ix
}

// BenchmarkRealBuild times AddBatch of the whole index with the defaults.
func BenchmarkRealBuild(b *testing.B) {
	loadReal(b)
	var ix *Index
	var rate float64
	for b.Loop() {
		ix, rate = buildReal(b, Config{})
	}
	b.ReportMetric(rate, "vectors/s")
	b.ReportMetric(ix.bytesPerVector(), "bytes/vector")
	realData.ix = ix
}

// realSearch times Search (k=10) per query, cycling through the queries,
// and measures recall@10 over all of them against Exact with the same
// accept.
func realSearch(b *testing.B, ix *Index, accept func(int64) bool) {
	qs := realData.queries
	lat := make([]time.Duration, 0, 4096)
	i := 0
	for b.Loop() {
		t := time.Now()
		ix.Search(qs[i%len(qs)], 10, accept)
		lat = append(lat, time.Since(t))
		i++
	}
	b.ReportMetric(recall(ix, qs, 10, accept), "recall@10")
	p50, p99 := eval.Percentiles(lat)
	b.ReportMetric(p50, "p50-ms")
	b.ReportMetric(p99, "p99-ms")
}

func BenchmarkRealSearch(b *testing.B) { realSearch(b, realIndex(b), nil) }

// BenchmarkRealFiltered passes about 1%, 10% and 50% of keys, chosen by a
// hash of the key so the filter is uncorrelated with insertion order.
func BenchmarkRealFiltered(b *testing.B) {
	for _, pct := range []uint64{1, 10, 50} {
		b.Run(fmt.Sprintf("pass%d%%", pct), func(b *testing.B) {
			realSearch(b, realIndex(b), func(k int64) bool { return mix(uint64(k))%100 < pct })
		})
	}
}

// mix is the splitmix64 finaliser.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// BenchmarkRealSweep measures M × EfConstruction × EfSearch. Each graph is
// built once (its build rate is reported with every EfSearch) and dropped
// before the next.
func BenchmarkRealSweep(b *testing.B) {
	loadReal(b)
	for _, m := range []int{16, 24} {
		for _, efc := range []int{100, 200} {
			var ix *Index
			var rate float64
			for _, efs := range []int{32, 64, 96, 128, 200} {
				b.Run(fmt.Sprintf("M=%d/efc=%d/efs=%d", m, efc, efs), func(b *testing.B) {
					if ix == nil {
						ix, rate = buildReal(b, Config{M: m, EfConstruction: efc})
					}
					ix.cfg.EfSearch = efs
					realSearch(b, ix, nil)
					b.ReportMetric(rate, "vectors/s")
				})
			}
		}
	}
}
