package postgres_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/postgres"
)

// TestVectorIndexHalfPrecision: the home's HNSW index is over the vectors
// in half precision, and the vector lane's order is the expression it
// indexes (else the walk would be a full scan, silently), while the lane
// scores hits with the full vectors.
func TestVectorIndexHalfPrecision(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	ctx := context.Background()
	info := mneme.EmbedderInfo{Provider: "hash", Model: "half", Version: "1", Dim: 8}
	if err := s.SetHomeEmbedder(ctx, info); err != nil {
		t.Fatal(err)
	}
	wantHalfIndex(t, s.Pool(), info)
	// With sequential scans off, an ORDER BY the index serves is an index scan.
	tx, err := s.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	var plan strings.Builder
	q := []float32{1, 0, 0, 0, 0, 0, 0, 0}
	rows, err := tx.Query(ctx, "SET LOCAL enable_seqscan = off")
	if err == nil {
		rows.Close()
		rows, err = tx.Query(ctx, "EXPLAIN SELECT v.rid, 1 - (v.vec <=> $1) FROM "+postgres.VectorTable(info)+" v ORDER BY "+postgres.WalkOrder(info, "$1")+" LIMIT 5", pgvector.NewVector(q))
	}
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(line + "\n")
	}
	if !strings.Contains(plan.String(), "_hnsw") {
		t.Fatalf("the vector lane's order is not served by the HNSW index:\n%s", plan.String())
	}
}

// TestMigrateRebuildsVectorIndex: migration 0012 replaces a full-precision
// HNSW index of an existing home (as earlier versions built it) by the
// half-precision one, and its vectors stay searchable.
func TestMigrateRebuildsVectorIndex(t *testing.T) {
	schema := pgtest.Schema(t)
	ctx := context.Background()
	info := mneme.EmbedderInfo{Provider: "hash", Model: "test", Version: "1", Dim: 4}
	writeVersion1(t, schema, info, []string{"the cache layer is redis", "deploys go through the pipeline", "redis cache eviction storm"})
	c, err := pgx.Connect(ctx, pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	table := postgres.VectorTable(info)
	old := pgx.Identifier{strings.Trim(table, `"`) + "_hnsw"}.Sanitize()
	if _, err := c.Exec(ctx, "SET search_path TO "+pgx.Identifier{schema}.Sanitize()+", public; CREATE INDEX "+old+" ON "+table+" USING hnsw (vec vector_cosine_ops)"); err != nil {
		t.Fatal(err)
	}
	s, err := postgres.Open(ctx, pgtest.DSN(t), postgres.Options{Schema: schema, Migrate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	wantHalfIndex(t, s.Pool(), info)
	found, err := s.Candidates(ctx, mneme.CandidateQuery{Vector: []float32{0.6, 0.8, 0, 0}, K: 5, Filter: mneme.Filter{Now: testTime}})
	if err != nil || len(found.List) != 2 {
		t.Fatalf("after migrate: %d candidates, %v; want the 2 with vectors", len(found.List), err)
	}
	for _, c := range found.List { // scored in full precision: 1.4/√2 and 0.6
		want := map[string]int{"deploys go through the pipeline": 1, "the cache layer is redis": 2}[c.Record.Text]
		if c.VectorRank != want || want == 1 && math.Abs(c.Similarity-1.4/math.Sqrt2) > 1e-6 {
			t.Fatalf("candidate %q: rank %d, similarity %v; want rank %d", c.Record.Text, c.VectorRank, c.Similarity, want)
		}
	}
}

// wantHalfIndex fails unless the only HNSW index of info's table is over
// its vectors in half precision.
func wantHalfIndex(t *testing.T, pool interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, info mneme.EmbedderInfo) {
	t.Helper()
	rows, err := pool.Query(context.Background(), "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 AND indexdef LIKE '%USING hnsw%'",
		strings.Trim(postgres.VectorTable(info), `"`))
	if err != nil {
		t.Fatal(err)
	}
	defs, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 1 || !strings.Contains(defs[0], fmt.Sprintf("halfvec(%d)", info.Dim)) || !strings.Contains(defs[0], "halfvec_cosine_ops") {
		t.Fatalf("HNSW indexes %q; want one, over vec::halfvec(%d) with halfvec_cosine_ops", defs, info.Dim)
	}
}
