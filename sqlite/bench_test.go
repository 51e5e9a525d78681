package sqlite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/sqlite"
)

// load opens a store in a fresh directory holding n synthetic records.
func load(b *testing.B, n int) *mneme.Engine { return loadTexts(b, n, nil) }

// loadTexts is load with each record's text from text, when not nil.
func loadTexts(b *testing.B, n int, text func(c *benchdata.Corpus, i int) string) *mneme.Engine {
	b.Helper()
	s, err := sqlite.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	eng := mneme.NewEngine(s)
	c := benchdata.New(1, 30_000)
	for start := 0; start < n; start += 1000 {
		batch := make([]*mneme.Record, 0, 1000)
		for i := start; i < min(start+1000, n); i++ {
			r := c.Record(i)
			if i%20 == 0 { // 5% reusable, for the status filter
				r.Status = mneme.Validated
			}
			if text != nil {
				r.Text = text(c, i)
			}
			batch = append(batch, r)
		}
		if _, err := eng.Import(context.Background(), batch, mneme.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	return eng
}

type namedFilter struct {
	name string
	f    mneme.Filter
}

// filters are the recall benchmarks' filters: none, half the records
// (project p0 holds half), a small slice, tags with a time range, the
// reusable records (5%), and one meta value (10%).
func filters() []namedFilter {
	since := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	until := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	return []namedFilter{
		{"none", mneme.Filter{}},
		{"big-project", mneme.Filter{Project: "p0"}},
		{"small-project+type", mneme.Filter{Project: "p7", Types: []mneme.Type{mneme.Episodic}}},
		{"tags+time", mneme.Filter{Tags: []string{"t3", "t4"}, Since: &since, Until: &until}},
		{"reusable", mneme.Filter{Statuses: []mneme.Status{mneme.Validated, mneme.Published}}},
		{"meta-tenth", mneme.Filter{Meta: benchdata.MetaTenth}},
	}
}

// timeRecalls runs q with a new query text each iteration and reports the
// latency percentiles, and the median CPU time of the process per query
// (cpu-p50-ms: the work, where the wall clock on a shared machine also
// measures the share of the CPU it got). A degraded result (no vector
// lane) fails.
func timeRecalls(b *testing.B, eng *mneme.Engine, q mneme.Query) {
	timeQueries(b, eng, q, (*benchdata.Corpus).Query)
}

// timeQueries is timeRecalls with each query's text from next.
func timeQueries(b *testing.B, eng *mneme.Engine, q mneme.Query, next func(*benchdata.Corpus) string) {
	c := benchdata.New(2, 30_000)
	var lat []time.Duration
	var cpu []float64
	for b.Loop() {
		q.Text = next(c)
		t0, c0 := time.Now(), eval.CPUTime()
		res, err := eng.Recall(context.Background(), q)
		lat = append(lat, time.Since(t0))
		cpu = append(cpu, float64((eval.CPUTime()-c0).Microseconds())/1000)
		if err != nil {
			b.Fatal(err)
		}
		if res.Degraded {
			b.Fatal(res.DegradedReason)
		}
	}
	benchdata.ReportPercentiles(b, lat)
	b.ReportMetric(eval.Median(cpu), "cpu-p50-ms")
}

// BenchmarkLexicalRecall measures in-process BM25 recall latency at 100,000
// records of ~30 words, unfiltered and under filters; p50 and p99 are over
// the b.N queries (run with -benchtime=2000x).
func BenchmarkLexicalRecall(b *testing.B) {
	for _, n := range []int{100_000} {
		eng := load(b, n)
		for _, fl := range filters() {
			b.Run(fmt.Sprintf("n=%d/filter=%s", n, fl.name), func(b *testing.B) {
				timeRecalls(b, eng, mneme.Query{K: 10, Filter: fl.f, Mode: mneme.Lexical})
			})
		}
	}
}

// BenchmarkLexicalLongQuery measures in-process lexical recall at 100,000
// records of ~30 words asked with a document of 200 words, every term of
// which the lane scores, against a short query in the same run (run with
// -benchtime=300x).
func BenchmarkLexicalLongQuery(b *testing.B) {
	const n = 100_000
	eng := load(b, n)
	for _, words := range []int{0, 200} {
		b.Run(fmt.Sprintf("n=%d/query-words=%d", n, words), func(b *testing.B) {
			next := (*benchdata.Corpus).Query
			if words > 0 {
				next = func(c *benchdata.Corpus) string { return c.Text(words) }
			}
			timeQueries(b, eng, mneme.Query{K: 10, Mode: mneme.Lexical}, next)
		})
	}
}

// BenchmarkHybridRecall measures warm in-process recall at 100,000 records
// with the built-in model: every record has a synthetic clustered 384-d
// unit vector, and each query is embedded by the model (included in the
// latency). Hybrid under each filter, then lexical and vector alone for the
// split; rss-MB and hwm-MB are the benchmark process's resident set after
// the queries and at its peak, the benchmark's own data included (run with
// -benchtime=300x).
func BenchmarkHybridRecall(b *testing.B) {
	em := benchdata.MiniLM(b)
	const n = 100_000
	ctx := context.Background()
	eng := load(b, n)
	if _, err := benchdata.AddVectors(ctx, eng.Store(), em.Info(), benchdata.NewVectors(1, em.Info().Dim, 256)); err != nil {
		b.Fatal(err)
	}
	eng = mneme.NewEngine(eng.Store(), mneme.WithEmbedder(em))
	// The first vector recall builds the index from the table, and the
	// first embedding sizes the model's buffers: both before any timing.
	res, err := eng.Recall(ctx, mneme.Query{Text: "how do we warm up", K: 10})
	if err != nil {
		b.Fatal(err)
	}
	if res.Degraded {
		b.Fatal(res.DegradedReason)
	}
	modes := map[mneme.Mode][]namedFilter{mneme.Hybrid: filters(), mneme.Lexical: filters()[:1], mneme.Vector: filters()[:1]}
	for _, mode := range []mneme.Mode{mneme.Hybrid, mneme.Lexical, mneme.Vector} {
		for _, fl := range modes[mode] {
			b.Run(fmt.Sprintf("n=%d/mode=%s/filter=%s", n, mode, fl.name), func(b *testing.B) {
				timeRecalls(b, eng, mneme.Query{K: 10, Filter: fl.f, Mode: mode})
				benchdata.ReportRSS(b)
			})
		}
	}
	// A question that names a time adds a search of that time (rank.Window).
	for _, named := range benchdata.NamedTimes() {
		b.Run(fmt.Sprintf("n=%d/mode=hybrid/filter=none/query=names-a-%s", n, named.Name), func(b *testing.B) {
			timeQueries(b, eng, mneme.Query{K: 10, Mode: mneme.Hybrid}, named.Next)
		})
	}
	// A question that names a person asks the store which of its names
	// are speakers (mneme.SpeakerFinder), and the vector lane embeds it in
	// the first person of the one that is (rank.FirstPerson): 1,000 turns
	// of two speakers join the home first.
	addTurns(b, eng, 1000, "Ann Lee", "Bo")
	b.Run(fmt.Sprintf("n=%d/mode=hybrid/filter=none/query=names-a-speaker", n), func(b *testing.B) {
		timeQueries(b, eng, mneme.Query{K: 10, Mode: mneme.Hybrid}, func(c *benchdata.Corpus) string { return c.Query() + " with Ann Lee" })
	})
	// The probe alone: the three names of that question, one found.
	b.Run(fmt.Sprintf("n=%d/speakers-probe", n), func(b *testing.B) {
		sf := eng.Store().(mneme.SpeakerFinder)
		f := mneme.Filter{Clearance: mneme.Internal, Now: time.Now()}
		var lat []time.Duration
		for b.Loop() {
			t0 := time.Now()
			if got, err := sf.Speakers(ctx, []string{"Ann", "Ann Lee", "Lee"}, f); err != nil || len(got) != 1 {
				b.Fatal(got, err)
			}
			lat = append(lat, time.Since(t0))
		}
		benchdata.ReportPercentiles(b, lat)
	})
}

// addTurns adds n conversation turns of the speakers given, in turn, and
// recalls once so the search indexes hold them before any timing.
func addTurns(b *testing.B, eng *mneme.Engine, n int, speakers ...string) {
	c := benchdata.New(4, 30_000)
	recs := make([]*mneme.Record, n)
	for i := range recs {
		recs[i] = &mneme.Record{Text: c.Text(20), Speaker: speakers[i%len(speakers)], SessionID: fmt.Sprintf("chat-%d", i/50)}
	}
	if _, err := eng.Remember(context.Background(), recs, mneme.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	if _, err := eng.Recall(context.Background(), mneme.Query{Text: "how do we warm up, Ann Lee", K: 10}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkHybridRecallLong is BenchmarkHybridRecall over 100,000 records
// of 100 to 140 words (documents rather than notes), with feedback, which
// such texts set off, and without it, and asked with a document of 200
// words, whose lexical lane reads every one of its terms (run with
// -benchtime=300x).
func BenchmarkHybridRecallLong(b *testing.B) {
	em := benchdata.MiniLM(b)
	const n = 100_000
	ctx := context.Background()
	eng := loadTexts(b, n, func(c *benchdata.Corpus, i int) string { return fmt.Sprintf("%s (%d)", c.Text(100+i%41), i) })
	s := eng.Store()
	if _, err := benchdata.AddVectors(ctx, s, em.Info(), benchdata.NewVectors(1, em.Info().Dim, 256)); err != nil {
		b.Fatal(err)
	}
	eng = mneme.NewEngine(s, mneme.WithEmbedder(em))
	if _, err := eng.Recall(ctx, mneme.Query{Text: "how do we warm up", K: 10}); err != nil {
		b.Fatal(err)
	}
	for _, off := range []bool{false, true} {
		b.Run(fmt.Sprintf("n=%d/mode=hybrid/words=100-140/no-feedback=%v", n, off), func(b *testing.B) {
			timeRecalls(b, eng, mneme.Query{K: 10, Mode: mneme.Hybrid, NoFeedback: off})
		})
	}
	for _, mode := range []mneme.Mode{mneme.Hybrid, mneme.Lexical} {
		b.Run(fmt.Sprintf("n=%d/mode=%s/words=100-140/query-words=200", n, mode), func(b *testing.B) {
			timeQueries(b, eng, mneme.Query{K: 10, Mode: mode}, func(c *benchdata.Corpus) string { return c.Text(200) })
		})
	}
}

// BenchmarkImport measures import throughput in batches of 1,000 short
// records, as `mneme import` writes them.
func BenchmarkImport(b *testing.B) {
	const n = 20_000
	c := benchdata.New(3, 30_000)
	recs := make([]mneme.Record, n)
	for i := range recs {
		recs[i] = *c.Record(i)
	}
	for b.Loop() {
		b.StopTimer()
		s, err := sqlite.Open(context.Background(), b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		eng := mneme.NewEngine(s)
		b.StartTimer()
		for start := 0; start < n; start += 1000 {
			batch := make([]*mneme.Record, 0, 1000)
			for i := start; i < start+1000; i++ {
				r := recs[i]
				batch = append(batch, &r)
			}
			if _, err := eng.Import(context.Background(), batch, mneme.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkImportEmbedded: Engine.Import of 5,000 records into a new home
// with the hash embedder (384 dimensions): the write path with vectors and
// the embedding cache, without a model's cost.
func BenchmarkImportEmbedded(b *testing.B) {
	const n = 5_000
	c := benchdata.New(3, 30_000)
	recs := make([]mneme.Record, n)
	for i := range recs {
		recs[i] = *c.Record(i)
	}
	em, err := hash.New(384)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		s, err := sqlite.Open(context.Background(), b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		eng := mneme.NewEngine(s, mneme.WithEmbedder(em))
		b.StartTimer()
		for start := 0; start < n; start += 1000 {
			batch := make([]*mneme.Record, 0, 1000)
			for i := start; i < start+1000; i++ {
				r := recs[i]
				batch = append(batch, &r)
			}
			if _, err := eng.Import(context.Background(), batch, mneme.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkRecallDuringReindex measures hybrid recall at 100,000 records
// (synthetic 384-d vectors from the built-in model's identity, queries
// embedded by the model) alone, then while `mneme reindex` builds the
// vectors of another embedder beside them and switches: the hash embedder
// (384 dimensions) is the target, so the build's cost is the store's, not
// a model's (run with -benchtime 1x).
func BenchmarkRecallDuringReindex(b *testing.B) {
	em := benchdata.MiniLM(b)
	ctx := context.Background()
	eng := load(b, 100_000)
	if _, err := benchdata.AddVectors(ctx, eng.Store(), em.Info(), benchdata.NewVectors(1, em.Info().Dim, 256)); err != nil {
		b.Fatal(err)
	}
	eng = mneme.NewEngine(eng.Store(), mneme.WithEmbedder(em))
	if _, err := eng.Recall(ctx, mneme.Query{Text: "how do we warm up", K: 10}); err != nil {
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
