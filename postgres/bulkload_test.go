package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/internal/textnorm"
	"github.com/mneme-ai/mneme/postgres"
)

// TestBulkLoad: records written in a bulk load, which builds the search
// indexes once at its end, are found and scored as records written one
// batch at a time; an interrupted bulk load is reported by the health
// check until one finishes.
func TestBulkLoad(t *testing.T) {
	ctx := context.Background()
	em, err := hash.New(16)
	if err != nil {
		t.Fatal(err)
	}
	plainSchema, bulkSchema := pgtest.Schema(t), pgtest.Schema(t)
	plain, bulk := pgtest.OpenIn(t, plainSchema), pgtest.OpenIn(t, bulkSchema)
	defer plain.Close()
	defer bulk.Close()
	first, second := turns(0, 150), turns(150, 300)
	write := func(s mneme.Store, recs []*mneme.Record) {
		t.Helper()
		if _, err := mneme.NewEngine(s, mneme.WithEmbedder(em)).Remember(ctx, recs, mneme.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	write(plain, first)
	write(plain, second)
	write(bulk, turns(0, 150))
	if err := bulk.BulkLoad(ctx, func() error { write(bulk, turns(150, 300)); return nil }); err != nil {
		t.Fatal(err)
	}
	checkLexStats(t, bulkSchema)
	wantIndexes(t, bulk, true, "")
	q := benchdata.New(2, 200)
	for range 20 {
		cq := mneme.CandidateQuery{Terms: textnorm.Terms(q.Query()), K: 10}
		sameRanking(t, beyondCut(t, plain, cq), lexicalRanking(t, bulk, cq), cq.K)
	}

	cancelled, cancel := context.WithCancel(ctx)
	err = bulk.BulkLoad(cancelled, func() error { cancel(); return cancelled.Err() })
	if err == nil {
		t.Fatal("an interrupted bulk load succeeded")
	}
	wantIndexes(t, bulk, false, "migrate-store")
	if err := bulk.BulkLoad(ctx, func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	wantIndexes(t, bulk, true, "")
	checkLexStats(t, bulkSchema)
}

// turns returns records i to j: conversation turns, ten to a session, and
// every third a note outside any session, with words from a small
// vocabulary.
func turns(i, j int) []*mneme.Record {
	c := benchdata.New(uint64(i+1), 200)
	var out []*mneme.Record
	for n := i; n < j; n++ {
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Minute)
		r := &mneme.Record{Text: fmt.Sprintf("%s (%d)", c.Text(12), n), OccurredAt: &at}
		if n%3 != 0 {
			r.SessionID = fmt.Sprintf("s%d", n/10)
		}
		out = append(out, r)
	}
	return out
}

// wantIndexes checks the store's indexes health check.
func wantIndexes(t *testing.T, s *postgres.Store, ok bool, says string) {
	t.Helper()
	checks, err := s.Health(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		if c.Name == "indexes" && (c.OK != ok || !strings.Contains(c.Detail+" "+c.Fix, says)) {
			t.Fatalf("indexes check: ok %v, %q, fix %q; want ok %v saying %q", c.OK, c.Detail, c.Fix, ok, says)
		}
	}
}
