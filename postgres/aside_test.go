package postgres_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/internal/textnorm"
	"github.com/mneme-ai/mneme/postgres"
)

// asideStore opens a store of at most conns connections holding n
// records of the benchmark corpus with hash vectors, and the embedder.
func asideStore(t *testing.T, conns int32, n int) (*postgres.Store, mneme.Embedder) {
	t.Helper()
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.DSN(t), postgres.Options{Schema: pgtest.Schema(t), DSNEnv: pgtest.EnvDSN, MaxConns: conns})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	em, err := hash.New(64)
	if err != nil {
		t.Fatal(err)
	}
	c := benchdata.New(1, 300)
	var recs []*mneme.Record
	for i := range n {
		r := c.Record(i)
		r.ID = ""
		recs = append(recs, r)
	}
	if _, err := mneme.NewEngine(s, mneme.WithEmbedder(em)).Remember(ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return s, em
}

// hybridQuery is a candidate query of both lanes for text.
func hybridQuery(t *testing.T, em mneme.Embedder, text string, f mneme.Filter) mneme.CandidateQuery {
	t.Helper()
	v, err := em.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatal(err)
	}
	f.Now = time.Now()
	return mneme.CandidateQuery{Terms: textnorm.QueryTerms(text), Vector: v[0], K: 20, Filter: f}
}

// summary lists the candidates found, each with what both lanes say.
func summary(t *testing.T, s *postgres.Store, q mneme.CandidateQuery) []string {
	t.Helper()
	found, err := s.Candidates(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range found.List {
		out = append(out, fmt.Sprintf("%s lex %d %.9g vec %d %.9g %v", c.Record.ID, c.LexicalRank, c.BM25, c.VectorRank, c.Similarity, c.MatchedTerms))
	}
	slices.Sort(out)
	return out
}

// TestVectorLaneAside: a hybrid search that runs its vector lane on a
// second connection finds exactly what it finds with both lanes on one,
// with and without filters; and a pool of one connection (no second to
// take) still searches.
func TestVectorLaneAside(t *testing.T) {
	for _, conns := range []int32{1, 4} {
		s, em := asideStore(t, conns, 800)
		q := benchdata.New(2, 300)
		filters := []mneme.Filter{{}, {Project: "p0"}, {Meta: benchdata.MetaTenth}, {Tags: []string{"t3"}}}
		for i := range 24 {
			cq := hybridQuery(t, em, q.Query(), filters[i%len(filters)])
			restore := postgres.SetAsideLanes(false)
			want := summary(t, s, cq)
			restore()
			if got := summary(t, s, cq); !slices.Equal(got, want) || len(want) == 0 {
				t.Fatalf("conns %d, %q %+v: aside found\n%v\none after the other\n%v", conns, cq.Terms, cq.Filter, got, want)
			}
		}
	}
}

// TestVectorLaneAsideSnapshot: the vector lane on the second connection
// reads the search's snapshot: a record committed after the search began
// is found by neither lane, though it is the query's nearest.
func TestVectorLaneAsideSnapshot(t *testing.T) {
	ctx := context.Background()
	s, em := asideStore(t, 4, 200)
	text := "a record written while the search runs"
	eng := mneme.NewEngine(s, mneme.WithEmbedder(em))
	var once sync.Once
	defer postgres.SetAsideHook(func() {
		once.Do(func() {
			if _, err := eng.Remember(ctx, []*mneme.Record{{Text: text}}, mneme.WriteOptions{}); err != nil {
				t.Error(err)
			}
		})
	})()
	cq := hybridQuery(t, em, text, mneme.Filter{})
	found, err := s.Candidates(ctx, cq)
	if err != nil {
		t.Fatal(err)
	}
	var ranks []int
	for _, c := range found.List {
		if c.Record == nil || c.Record.Text == text {
			t.Fatalf("the search found a record written after it began: %+v", c)
		}
		if c.VectorRank > 0 {
			ranks = append(ranks, c.VectorRank)
		}
	}
	// A lane that saw the new record ranked it first, and the other
	// snapshot had no such record to return: rank 1 would be missing.
	slices.Sort(ranks)
	if len(ranks) != cq.K || ranks[0] != 1 || ranks[len(ranks)-1] != cq.K {
		t.Fatalf("vector ranks %v, want 1 to %d", ranks, cq.K)
	}
	again, err := s.Candidates(ctx, cq)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.List) == 0 || !slices.ContainsFunc(again.List, func(c mneme.Candidate) bool { return c.Record.Text == text && c.VectorRank == 1 }) {
		t.Fatal("the next search does not find the new record first in its vector lane")
	}
}

// TestVectorLaneAsideBusyPool: many hybrid searches at once on a pool of
// two connections all finish (none holds one connection waiting for
// another that every other search holds).
func TestVectorLaneAsideBusyPool(t *testing.T) {
	s, em := asideStore(t, 2, 300)
	q := benchdata.New(2, 300)
	var queries []mneme.CandidateQuery
	for range 16 {
		queries = append(queries, hybridQuery(t, em, q.Query(), mneme.Filter{}))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for _, cq := range queries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				if _, err := s.Candidates(ctx, cq); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
