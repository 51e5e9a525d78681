package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/postgres"
)

// TestMetaFormsBackfill: records written before migration 0010 (no
// meta_forms column; schema version 9) pass meta filters after `mneme
// migrate`, in List and in both recall lanes, as records written after.
func TestMetaFormsBackfill(t *testing.T) {
	schema := pgtest.Schema(t)
	ctx := context.Background()
	s := pgtest.OpenIn(t, schema)
	eng := mneme.NewEngine(s)
	metas := []string{`{"tenant":"acme","v":3}`, `{"tenant":"globex","v":3.0}`, `{"tenant":"acme","v":"4"}`, ``}
	var recs []*mneme.Record
	for i := 0; i < 12_000; i++ { // more than one batch of the backfill
		recs = append(recs, &mneme.Record{Text: fmt.Sprintf("release notes for the billing service, part %d", i), Meta: json.RawMessage(metas[i%len(metas)])})
	}
	if _, err := eng.Import(ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// Back to schema version 9, as it left the records.
	for _, q := range []string{"DROP TABLE record_links", "DROP FUNCTION record_links_sync() CASCADE", // 0011
		"ALTER TABLE records DROP COLUMN meta_forms",
		"CREATE INDEX records_meta ON records USING gin ((meta::jsonb) jsonb_path_ops)",
		"UPDATE schema_version SET version = 9"} {
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
	eng = mneme.NewEngine(s)
	for _, c := range []struct {
		key, value string
		want       int
	}{{"tenant", "acme", 6000}, {"v", "3", 6000}, {"v", "4", 3000}, {"tenant", "initech", 0}} {
		fl := mneme.Filter{Meta: []mneme.MetaMatch{{Key: c.key, Value: c.value}}, Now: testTime}
		n, err := countListed(ctx, s, fl)
		if err != nil || n != c.want {
			t.Errorf("count %s=%s after migrate: %d, %v; want %d", c.key, c.value, n, err, c.want)
		}
		fl.Meta = append(fl.Meta, mneme.MetaMatch{Key: "tenant", Value: "acme"})
		got, err := s.Candidates(ctx, mneme.CandidateQuery{Terms: []string{"billing"}, K: 10, Filter: fl})
		if err != nil {
			t.Fatal(err)
		}
		for _, cand := range got.List {
			if !fl.Match(cand.Record) {
				t.Errorf("%s=%s and tenant=acme: candidate %s has meta %s", c.key, c.value, cand.Record.ID, cand.Record.Meta)
			}
		}
		if want := min(10, c.want/2); c.key == "v" && len(got.List) != want {
			t.Errorf("%s=%s and tenant=acme: %d candidates, want %d", c.key, c.value, len(got.List), want)
		}
	}
	// The statistics say how many records a meta filter passes (so the
	// search need not count them), and say nothing of other filters.
	if _, err := s.Pool().Exec(ctx, "ANALYZE records"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f    mneme.Filter
		want float64
		says bool
	}{
		{mneme.Filter{Meta: []mneme.MetaMatch{{Key: "tenant", Value: "acme"}}}, 6000, true},
		{mneme.Filter{Meta: []mneme.MetaMatch{{Key: "v", Value: "3"}}}, 6000, true}, // 3 and 3.0, as numbers
		{mneme.Filter{Meta: []mneme.MetaMatch{{Key: "tenant", Value: "acme"}, {Key: "v", Value: "4"}}}, 3000, true},
		{mneme.Filter{Meta: []mneme.MetaMatch{{Key: "tenant", Value: "initech"}}}, 0, true},
		{mneme.Filter{Project: "p", Meta: []mneme.MetaMatch{{Key: "tenant", Value: "acme"}}}, 0, false},
		{mneme.Filter{Project: "p"}, 0, false},
	} {
		c.f.Now = testTime
		est, says, err := postgres.MetaEstimate(ctx, s, c.f)
		if err != nil || says != c.says || math.Abs(est-c.want) > 0.1*c.want {
			t.Errorf("estimate for %+v: %.0f, %v, %v; want about %.0f, %v", c.f.Meta, est, says, err, c.want, c.says)
		}
	}
}

// countListed counts the records List returns for f, page by page.
func countListed(ctx context.Context, s *postgres.Store, f mneme.Filter) (int, error) {
	n, cursor := 0, ""
	for {
		page, next, err := s.List(ctx, f, 1000, cursor)
		if err != nil {
			return n, err
		}
		n += len(page)
		if next == "" {
			return n, nil
		}
		cursor = next
	}
}
