package postgres_test

import (
	"context"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/postgres"
)

// TestRecordLinksBackfill: links written before migration 0011 (schema
// version 10, no record_links) are found by IncomingLinks after `mneme
// migrate`, as links written after are.
func TestRecordLinksBackfill(t *testing.T) {
	schema := pgtest.Schema(t)
	ctx := context.Background()
	s := pgtest.OpenIn(t, schema)
	eng := mneme.NewEngine(s)
	src := &mneme.Record{Text: "the source notes"}
	if _, err := eng.Remember(ctx, []*mneme.Record{src}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	sum := &mneme.Record{Text: "a summary of the notes", Links: []mneme.Link{{Type: mneme.LinkDerivedFrom, Target: src.ID}}}
	if _, err := eng.Remember(ctx, []*mneme.Record{sum}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DROP TABLE record_links", "DROP FUNCTION record_links_sync() CASCADE", "UPDATE schema_version SET version = 10"} {
		if _, err := s.Pool().Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s, err := postgres.Open(ctx, pgtest.DSN(t), postgres.Options{Schema: schema, Migrate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	found, err := s.IncomingLinks(ctx, []string{src.ID}, mneme.Filter{Clearance: mneme.Internal, Now: testTime}, 5)
	if err != nil || len(found) != 1 || found[0].Record.ID != sum.ID || found[0].Rel != mneme.LinkDerivedFrom {
		t.Fatalf("after the upgrade, incoming links %+v, %v; want %s by derived_from", found, err, sum.ID)
	}
}
