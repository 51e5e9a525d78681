package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/internal/skips"
	"github.com/mneme-ai/mneme/postgres"
)

// Writer processes: TestWriterProcesses runs this test binary again with
// these variables set, and each child writes and reports what it wrote.
const (
	envChild  = "MNEME_PG_TEST_WRITER"
	envSchema = "MNEME_PG_TEST_SCHEMA"
)

func newEngine(t testing.TB, schema string) *mneme.Engine {
	t.Helper()
	em, err := hash.New(64)
	if err != nil {
		t.Fatal(err)
	}
	return mneme.NewEngine(pgtest.OpenIn(t, schema), mneme.WithEmbedder(em))
}

// writeKeys remembers n records, each under one of keys keys, and returns
// the ids the store acknowledged.
func writeKeys(ctx context.Context, eng *mneme.Engine, writer, n, keys int) ([]string, error) {
	var ids []string
	for i := range n {
		r := &mneme.Record{Text: fmt.Sprintf("writer %d wrote value %d", writer, i), Key: fmt.Sprintf("key-%d", (i*7+writer)%keys)}
		res, err := eng.Remember(ctx, []*mneme.Record{r}, mneme.WriteOptions{})
		if err != nil {
			return ids, err
		}
		ids = append(ids, res.ID)
	}
	return ids, nil
}

// checkKeys fails t unless every acknowledged id is stored and each key
// has exactly one active record.
func checkKeys(t *testing.T, eng *mneme.Engine, acked []string, keys int) {
	t.Helper()
	ctx := context.Background()
	for _, id := range acked {
		if _, err := eng.Get(ctx, id, mneme.Secret); err != nil {
			t.Fatalf("acknowledged write %s lost: %v", id, err)
		}
	}
	for k := range keys {
		key := fmt.Sprintf("key-%d", k)
		recs, _, err := eng.List(ctx, mneme.Filter{Key: key}, 1000, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 1 {
			t.Fatalf("key %s has %d active records, want exactly 1", key, len(recs))
		}
	}
	st, err := eng.Stats(ctx)
	if err != nil || st.Total != len(acked) || st.Superseded != len(acked)-keys {
		t.Fatalf("stats = %+v, %v; want %d records, %d superseded", st, err, len(acked), len(acked)-keys)
	}
}

// TestWritersRaceOnKeys: goroutines with a connection pool each race on
// the same keys.
func TestWritersRaceOnKeys(t *testing.T) {
	schema := pgtest.Schema(t)
	const writers, perWriter, keys = 8, 50, 20
	var mu sync.Mutex
	var acked []string
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		eng := newEngine(t, schema)
		defer eng.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids, err := writeKeys(context.Background(), eng, w, perWriter, keys)
			mu.Lock()
			acked = append(acked, ids...)
			mu.Unlock()
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	eng := newEngine(t, schema)
	defer eng.Close()
	checkKeys(t, eng, acked, keys)
	checkLexStats(t, schema)
}

// checkLexStats compares the counts triggers keep with the tables: the
// records, those that may have a vector, the BM25 length, the vectors, and
// each term's document frequency and tf and dl bounds.
func checkLexStats(t *testing.T, schema string) {
	t.Helper()
	s := pgtest.OpenIn(t, schema)
	defer s.Close()
	ctx := context.Background()
	var n1, n2, p1, p2, v1 int64
	var t1, t2 float64
	err := s.Pool().QueryRow(ctx, `SELECT (SELECT sum(n) FROM lex_stats), (SELECT sum(total) FROM lex_stats), (SELECT sum(plain) FROM lex_stats),
		(SELECT sum(vecs) FROM lex_stats), (SELECT count(*) FROM records), (SELECT coalesce(sum(tf), 0) FROM postings),
		(SELECT count(*) FROM records WHERE sensitivity != 'secret')`).Scan(&n1, &t1, &p1, &v1, &n2, &t2, &p2)
	if err != nil || n1 != n2 || t1 != t2 || p1 != p2 {
		t.Fatalf("lex_stats: %d records, %d not secret, length %g; the tables: %d, %d, %g (%v)", n1, p1, t1, n2, p2, t2, err)
	}
	if info, ok, err := s.HomeEmbedder(ctx); err != nil || ok {
		var v2 int64
		if err == nil {
			err = s.Pool().QueryRow(ctx, "SELECT count(*) FROM "+postgres.VectorTable(info)).Scan(&v2)
		}
		if err != nil || v1 != v2 {
			t.Fatalf("lex_stats: %d vectors; the table %d (%v)", v1, v2, err)
		}
	}
	var bad int
	err = s.Pool().QueryRow(ctx, `SELECT count(*) FROM
		(SELECT term, sum(df) AS df, max(maxtf) AS maxtf, min(mindl) AS mindl FROM lex_df GROUP BY term) d FULL JOIN
		(SELECT term, count(*) AS df, max(tf) AS maxtf, min(dl) AS mindl FROM postings GROUP BY term) p USING (term)
		WHERE coalesce(d.df, 0) != coalesce(p.df, 0) OR d.maxtf < p.maxtf OR d.mindl > p.mindl`).Scan(&bad)
	if err != nil || bad != 0 {
		t.Fatalf("lex_df disagrees with the postings on %d terms (%v)", bad, err)
	}
}

// TestWriterProcesses: ten writer processes race on 100 keys; no
// acknowledged write is lost and each key keeps exactly one active record.
func TestWriterProcesses(t *testing.T) {
	if os.Getenv(envChild) != "" {
		return // a child runs childWriter from TestMain
	}
	schema := pgtest.Schema(t)
	eng := newEngine(t, schema) // creates the schema before the children race
	defer eng.Close()
	const procs, perProc, keys = 10, 60, 100
	var wg sync.WaitGroup
	outs := make([][]byte, procs)
	errs := make([]error, procs)
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), envChild+"="+strconv.Itoa(p), envSchema+"="+schema, "MNEME_PG_TEST_N="+strconv.Itoa(perProc), "MNEME_PG_TEST_KEYS="+strconv.Itoa(keys))
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[p], errs[p] = cmd.Output()
		}()
	}
	wg.Wait()
	var acked []string
	for p := range procs {
		var ids []string
		if err := json.Unmarshal(outs[p], &ids); err != nil || errs[p] != nil {
			t.Fatalf("writer %d: %v, %v: %s", p, errs[p], err, outs[p])
		}
		acked = append(acked, ids...)
	}
	if len(acked) != procs*perProc {
		t.Fatalf("%d writes acknowledged, want %d", len(acked), procs*perProc)
	}
	checkKeys(t, eng, acked, keys)
	checkLexStats(t, schema)
}

// TestMain runs a child writer when asked to, else the tests.
func TestMain(m *testing.M) {
	if w := os.Getenv(envChild); w != "" {
		os.Exit(childWriter(w))
	}
	os.Exit(skips.Run(m))
}

func childWriter(w string) int {
	writer, _ := strconv.Atoi(w)
	n, _ := strconv.Atoi(os.Getenv("MNEME_PG_TEST_N"))
	keys, _ := strconv.Atoi(os.Getenv("MNEME_PG_TEST_KEYS"))
	em, _ := hash.New(64)
	s, err := postgres.Open(context.Background(), os.Getenv(pgtest.EnvDSN), postgres.Options{Schema: os.Getenv(envSchema)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	eng := mneme.NewEngine(s, mneme.WithEmbedder(em))
	defer eng.Close()
	ids, err := writeKeys(context.Background(), eng, writer, n, keys)
	out, _ := json.Marshal(ids)
	os.Stdout.Write(out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestSeesOtherWriters: an engine finds what another engine (another
// process, in practice) wrote, without reopening.
func TestSeesOtherWriters(t *testing.T) {
	schema := pgtest.Schema(t)
	a, b := newEngine(t, schema), newEngine(t, schema)
	defer a.Close()
	defer b.Close()
	ctx := context.Background()
	if res, err := a.Recall(ctx, mneme.Query{Text: "kubernetes upgrade", K: 5}); err != nil || len(res.Hits) != 0 {
		t.Fatalf("empty store: %v, %v", res, err)
	}
	if _, err := b.Remember(ctx, []*mneme.Record{{Text: "the kubernetes upgrade is on Thursday"}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := a.Recall(ctx, mneme.Query{Text: "kubernetes upgrade", K: 5})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("after another writer: %v, %v", res, err)
	}
}

// TestWriteThroughput: four concurrent writers with the hash embedder;
// the budget is 500 records/s in total.
func TestWriteThroughput(t *testing.T) {
	if testing.Short() {
		skips.Skip(t, "run without -short", "a measurement")
	}
	schema := pgtest.Schema(t)
	const writers, batches, size = 4, 10, 50
	engines := make([]*mneme.Engine, writers)
	for i := range engines {
		engines[i] = newEngine(t, schema)
		defer engines[i].Close()
	}
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				recs := make([]*mneme.Record, size)
				for i := range recs {
					recs[i] = &mneme.Record{Text: fmt.Sprintf("writer %d batch %d note %d about deploys and caches", w, b, i), SessionID: fmt.Sprintf("s%d", w)}
				}
				if _, err := engines[w].Remember(context.Background(), recs, mneme.WriteOptions{}); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	rate := float64(writers*batches*size) / time.Since(start).Seconds()
	t.Logf("4 writers, hash embedder: %.0f records/s", rate)
	if os.Getenv("MNEME_PG_BUDGETS") != "" && rate < 500 {
		t.Fatalf("%.0f records/s, budget 500", rate)
	}
}
