package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/sqlite"
)

// TestRecordLinksBackfill: links written before migration 0010 (schema
// version 9, no record_links) are found by IncomingLinks after the
// upgrade, as links written after are.
func TestRecordLinksBackfill(t *testing.T) {
	ctx, dir := context.Background(), t.TempDir()
	s, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	eng := mneme.NewEngine(s)
	src := &mneme.Record{Text: "the source notes"}
	if _, err := eng.Remember(ctx, []*mneme.Record{src}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	sum := &mneme.Record{Text: "a summary of the notes", Links: []mneme.Link{{Type: mneme.LinkDerivedFrom, Target: src.ID}}}
	if _, err := eng.Remember(ctx, []*mneme.Record{sum}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DROP TABLE record_links", "DROP TRIGGER record_links_insert",
		"DROP TRIGGER record_links_update", "DROP TRIGGER record_links_delete", "PRAGMA user_version = 9"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	found, err := s.IncomingLinks(ctx, []string{src.ID}, mneme.Filter{Clearance: mneme.Internal}, 5)
	if err != nil || len(found) != 1 || found[0].Record.ID != sum.ID || found[0].Rel != mneme.LinkDerivedFrom {
		t.Fatalf("after the upgrade, incoming links %+v, %v; want %s by derived_from", found, err, sum.ID)
	}
}
