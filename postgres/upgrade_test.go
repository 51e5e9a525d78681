package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/internal/textnorm"
	"github.com/mneme-ai/mneme/postgres"
)

// TestOlderSchemaNeedsMigrate: a database at an older schema version is
// refused until `mneme migrate` (Options.Migrate) brings it up to date,
// and its records stay searchable with the counts search relies on: here
// a home written by schema version 1 (records, postings, two of three
// records with a vector).
func TestOlderSchemaNeedsMigrate(t *testing.T) {
	schema := pgtest.Schema(t)
	ctx := context.Background()
	info := mneme.EmbedderInfo{Provider: "hash", Model: "test", Version: "1", Dim: 4}
	writeVersion1(t, schema, info, []string{"the cache layer is redis", "deploys go through the pipeline", "redis cache eviction storm"})
	_, err := postgres.Open(ctx, pgtest.DSN(t), postgres.Options{Schema: schema})
	wantMessage(t, err, mneme.EUNAVAILABLE, "", "version 1", "mneme migrate")
	s, err := postgres.Open(ctx, pgtest.DSN(t), postgres.Options{Schema: schema, Migrate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if have, want, err := s.SchemaVersions(ctx); err != nil || have != want {
		t.Fatalf("after migrate: version %d of %d, %v", have, want, err)
	}
	checkLexStats(t, schema)
	found, err := s.Candidates(ctx, mneme.CandidateQuery{Terms: textnorm.Terms("redis cache"), Vector: []float32{1, 0, 0, 0}, K: 5,
		Filter: mneme.Filter{Now: testTime}})
	if err != nil || len(found.List) != 3 || found.Unembedded != 1 {
		t.Fatalf("after migrate: %d candidates, %d unembedded, %v; want 3 and 1", len(found.List), found.Unembedded, err)
	}
	for _, c := range found.List {
		if (c.BM25 > 0) != (c.Record.Text != "deploys go through the pipeline") {
			t.Fatalf("candidate %q scores %g", c.Record.Text, c.BM25)
		}
	}
}

var testTime = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// writeVersion1 creates schema as migration 0001 did and writes texts as
// records with their postings, the first two with a vector from info.
func writeVersion1(t *testing.T, schema string, info mneme.EmbedderInfo, texts []string) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	init, err := os.ReadFile("migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	name := pgx.Identifier{schema}.Sanitize()
	embedder, _ := json.Marshal(info)
	stmts := []string{"CREATE SCHEMA " + name, "SET search_path TO " + name + ", public", string(init),
		"CREATE TABLE schema_version (version integer NOT NULL)", "INSERT INTO schema_version VALUES (1)",
		fmt.Sprintf("INSERT INTO meta VALUES ('embedder', '%s')", embedder),
		fmt.Sprintf("CREATE TABLE %s (rid bigint PRIMARY KEY REFERENCES records (rid) ON DELETE CASCADE, vec vector(%d) NOT NULL)",
			postgres.VectorTable(info), info.Dim)}
	for _, q := range stmts {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for i, text := range texts {
		tf, length := bm25.Weights(bm25.Doc{Text: text})
		var rid int64
		at := testTime.UnixNano() + int64(i)
		err := c.QueryRow(ctx, `INSERT INTO records (id, project, type, text, created_at, updated_at, event_at, status, sensitivity, content_hash, doc_len)
			VALUES ($1, 'default', 'semantic', $2, $3, $3, $3, 'active', 'internal', $4, $5) RETURNING rid`,
			mneme.NewID(testTime), text, at, mneme.TextHash(text), length).Scan(&rid)
		for term, f := range tf {
			if err == nil {
				_, err = c.Exec(ctx, "INSERT INTO postings (term, rid, tf) VALUES ($1, $2, $3)", term, rid, f)
			}
		}
		if err == nil && i < 2 {
			_, err = c.Exec(ctx, "INSERT INTO "+postgres.VectorTable(info)+" VALUES ($1, $2)", rid, pgvector.NewVector([]float32{1, float32(i), 0, 0}))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}
