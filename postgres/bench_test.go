package postgres_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/postgres"
)

// BenchmarkHybridRecall measures warm in-process recall at 100,000 records
// in PostgreSQL, as sqlite's BenchmarkHybridRecall does (the same corpus,
// synthetic clustered vectors, queries embedded by the built-in model,
// included in the latency). Run with -benchtime=300x.
func BenchmarkHybridRecall(b *testing.B) {
	const n = 100_000
	ctx := context.Background()
	eng := keptVectors(b, n)
	if _, err := eng.Recall(ctx, mneme.Query{Text: "how do we warm up", K: 10}); err != nil {
		b.Fatal(err)
	}
	since := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	until := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	filters := []struct {
		name string
		f    mneme.Filter
	}{
		{"none", mneme.Filter{}},
		{"big-project", mneme.Filter{Project: "p0"}},
		{"small-project+type", mneme.Filter{Project: "p7", Types: []mneme.Type{mneme.Episodic}}},
		{"tags+time", mneme.Filter{Tags: []string{"t3", "t4"}, Since: &since, Until: &until}},
		{"meta-tenth", mneme.Filter{Meta: benchdata.MetaTenth}}, // one meta value, 10% of the records
	}
	for _, mode := range []mneme.Mode{mneme.Hybrid, mneme.Lexical, mneme.Vector} {
		for i, fl := range filters {
			if mode != mneme.Hybrid && i > 0 {
				break
			}
			b.Run(fmt.Sprintf("n=%d/mode=%s/filter=%s", n, mode, fl.name), func(b *testing.B) {
				timeRecalls(b, eng, mneme.Query{K: 10, Filter: fl.f, Mode: mode}, (*benchdata.Corpus).Query)
			})
		}
	}
	// A question that names a time adds a search of that time (rank.Window).
	for _, named := range benchdata.NamedTimes() {
		b.Run(fmt.Sprintf("n=%d/mode=hybrid/filter=none/query=names-a-%s", n, named.Name), func(b *testing.B) {
			timeRecalls(b, eng, mneme.Query{K: 10, Mode: mneme.Hybrid}, named.Next)
		})
	}
}

// timeRecalls times recalls of q, each with its text from next, and
// reports their percentiles and the CPU time of client and server.
func timeRecalls(b *testing.B, eng *mneme.Engine, q mneme.Query, next func(*benchdata.Corpus) string) {
	c := benchdata.New(2, 30_000)
	var lat []time.Duration
	c0, s0 := eval.CPUTime(), serverCPU(b, eng)
	for b.Loop() {
		q.Text = next(c)
		t := time.Now()
		res, err := eng.Recall(context.Background(), q)
		lat = append(lat, time.Since(t))
		if err != nil || res.Degraded {
			b.Fatal(err, res.DegradedReason)
		}
	}
	benchdata.ReportPercentiles(b, lat)
	b.ReportMetric(float64((eval.CPUTime()-c0).Microseconds())/1000/float64(b.N), "client-cpu-ms/op")
	if s1 := serverCPU(b, eng); s0 > 0 && s1 > 0 {
		b.ReportMetric(float64((s1-s0).Microseconds())/1000/float64(b.N), "server-cpu-ms/op")
	}
}

// serverCPU is the CPU time the server's processes (its postmaster's
// children) have used, read from /proc when the server runs on this
// machine (scripts/pg-cluster), else 0: on a shared machine the wall
// clock also measures the share of the CPU the server got.
func serverCPU(b *testing.B, eng *mneme.Engine) time.Duration {
	var dir string
	if err := eng.Store().(*postgres.Store).Pool().QueryRow(context.Background(), "SHOW data_directory").Scan(&dir); err != nil {
		b.Fatal(err)
	}
	pid, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	parent, _, _ := strings.Cut(string(pid), "\n")
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	var ticks int64
	for _, p := range procs {
		stat, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// After "(comm)": state ppid … utime (14th field) stime (15th).
		_, rest, ok := strings.Cut(string(stat), ") ")
		f := strings.Fields(rest)
		if !ok || len(f) < 13 || f[1] != parent {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		ticks += u + st
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}

// loadVectors opens a fresh store holding n records of the benchmark
// corpus with synthetic vectors from the built-in model's identity (its
// HNSW index built, the store vacuumed and analysed), and an engine that
// embeds queries with the model.
func loadVectors(b *testing.B, n int) (*mneme.Engine, mneme.Embedder) {
	b.Helper()
	em := benchdata.MiniLM(b)
	s := pgtest.Open(b)
	b.Cleanup(func() { s.Close() })
	fill(b, s, n, em)
	return mneme.NewEngine(s, mneme.WithEmbedder(em)), em
}

// keptVectors is loadVectors for benchmarks that only read: the loaded
// store is kept on the server between runs (loading 100,000 records takes
// minutes) in a schema named by what its data is made of (fixtureKey). A
// schema is used only once its load has finished (marked by its comment);
// one left by an interrupted load is dropped and loaded again. Drop the
// kept schemas with DROP SCHEMA mneme_bench_… CASCADE, or remove the
// test cluster.
func keptVectors(b *testing.B, n int) *mneme.Engine {
	b.Helper()
	em := benchdata.MiniLM(b)
	ctx := context.Background()
	schema := "mneme_bench_" + fixtureKey(b, n, em.Info())
	admin, err := pgx.Connect(ctx, pgtest.DSN(b))
	if err != nil {
		b.Fatal(err)
	}
	defer admin.Close(ctx) // which also releases the lock
	// One process loads at a time; another waits and then reuses its store.
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock(hashtext($1))", schema); err != nil {
		b.Fatal(err)
	}
	var mark *string
	err = admin.QueryRow(ctx, "SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = $1", schema).Scan(&mark)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		b.Fatal(err)
	}
	loaded := mark != nil && *mark == fixtureDone
	if !loaded {
		if _, err := admin.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
			b.Fatal(err)
		}
	}
	s := pgtest.OpenIn(b, schema)
	b.Cleanup(func() { s.Close() })
	if !loaded {
		fill(b, s, n, em)
		if _, err := admin.Exec(ctx, "COMMENT ON SCHEMA "+pgx.Identifier{schema}.Sanitize()+" IS '"+fixtureDone+"'"); err != nil {
			b.Fatal(err)
		}
	} else {
		b.Logf("reusing the loaded store in schema %s", schema)
	}
	return mneme.NewEngine(s, mneme.WithEmbedder(em))
}

// fixtureDone marks a kept store whose load finished.
const fixtureDone = "mneme benchmark fixture, loaded"

// fixtureKey names a kept store's data: the record count, the embedder,
// the migrations' names and contents (a store of another schema is not
// read, nor migrated under another version's benchmark), and a digest of
// records and vectors the corpus generators make, so a change to any of
// them loads anew.
func fixtureKey(b *testing.B, n int, info mneme.EmbedderInfo) string {
	b.Helper()
	h := sha256.New()
	fmt.Fprintf(h, "%d\n%s\n", n, info.ID())
	files, err := filepath.Glob("migrations/*.sql")
	if err != nil || len(files) == 0 {
		b.Fatal("reading the migrations:", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(h, "%s\n%d\n%s\n", f, len(data), data)
	}
	c := benchdata.New(1, 30_000)
	for _, i := range []int{0, 1, n / 2, n - 1} {
		r := c.Record(i)
		fmt.Fprintf(h, "%s\n%s\n%s\n%v\n%s\n", r.Text, r.Project, r.Type, r.Tags, r.Meta)
	}
	fmt.Fprintf(h, "%v\n", benchdata.NewVectors(1, info.Dim, 256).Next())
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// fill loads n records of the benchmark corpus into s, with synthetic
// vectors from em's identity, builds the HNSW index, and leaves the store
// at rest.
func fill(b *testing.B, s *postgres.Store, n int, em mneme.Embedder) {
	b.Helper()
	ctx := context.Background()
	eng := mneme.NewEngine(s)
	c := benchdata.New(1, 30_000)
	t0 := time.Now()
	for start := 0; start < n; start += 1000 {
		batch := make([]*mneme.Record, 0, 1000)
		for i := start; i < min(start+1000, n); i++ {
			batch = append(batch, c.Record(i))
		}
		if _, err := eng.Import(ctx, batch, mneme.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("imported %d records in %s", n, time.Since(t0))
	t0 = time.Now()
	if err := s.SetHomeEmbedder(ctx, em.Info()); err != nil {
		b.Fatal(err)
	}
	err := s.WithoutVectorIndex(ctx, func() error {
		_, err := benchdata.AddVectors(ctx, s, em.Info(), benchdata.NewVectors(1, em.Info().Dim, 256))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("added vectors and built the HNSW index in %s", time.Since(t0))
	// A store at rest, as autovacuum leaves it: planner statistics, and a
	// visibility map that lets index-only scans skip the table.
	if _, err := s.Pool().Exec(ctx, "VACUUM ANALYZE"); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRecallDuringReindex is sqlite's: hybrid recall at 100,000
// records alone, then while a reindex builds the hash embedder's vectors
// (384 dimensions) beside the model's and switches (run with
// -benchtime 1x).
func BenchmarkRecallDuringReindex(b *testing.B) {
	eng, _ := loadVectors(b, 100_000)
	if _, err := eng.Recall(context.Background(), mneme.Query{Text: "how do we warm up", K: 10}); err != nil {
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
