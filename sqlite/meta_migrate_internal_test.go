package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// homeAt makes a home in dir at schema version v (migrations 1..v) and
// writes recs there as that version's writer did: each record's inserts,
// and so its triggers, and nothing deferred to the transaction's end.
func homeAt(t *testing.T, dir string, v int, recs []*mneme.Record) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	names, _ := fs.Glob(migrations, "migrations/*.sql")
	sort.Strings(names)
	for _, name := range names[:v] {
		body, _ := migrations.ReadFile(name)
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	w := newWriter(context.Background(), tx, now)
	w.deferred = true // flushed, never finished: the triggers alone write meta rows
	for _, r := range recs {
		if err := mneme.Prepare(r); err != nil {
			t.Fatal(err)
		}
		mneme.ResolveRemember(nil, r, now)
		if err := w.insert(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.flush(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestMetaRowsMigrated: a home written at schema version 11, whose meta
// rows a trigger wrote per record, opens at version 12 (the writer writes
// them once per transaction): the old records still pass their meta
// filters, new ones pass theirs, and every record has one row per key.
func TestMetaRowsMigrated(t *testing.T) {
	dir := t.TempDir()
	old := []*mneme.Record{
		{Text: "written at version 11", Meta: []byte(`{"tenant":"acme","n":3,"ok":true}`)},
		{Text: "also at version 11, no meta"},
	}
	homeAt(t, dir, 11, old)
	s, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	eng := mneme.NewEngine(s)
	defer eng.Close()
	var triggers int
	if err := s.db.QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'record_meta_insert'").Scan(&triggers); err != nil || triggers != 0 {
		t.Fatalf("record_meta_insert triggers after the upgrade: %d (%v), want none", triggers, err)
	}
	fresh := []*mneme.Record{{Text: "written at version 12", Meta: []byte(`{"tenant":"acme","n":4}`)}, {Text: "another at 12", Meta: []byte(`{"tenant":"globex"}`)}}
	if _, err := eng.Remember(context.Background(), fresh, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		key, value string
		want       []string
	}{
		{"tenant", "acme", []string{fresh[0].ID, old[0].ID}},
		{"n", "3", []string{old[0].ID}},
		{"ok", "true", []string{old[0].ID}},
		{"n", "4.0", []string{fresh[0].ID}},
		{"tenant", "globex", []string{fresh[1].ID}},
	}
	for _, c := range cases {
		recs, _, err := eng.List(context.Background(), mneme.Filter{Meta: []mneme.MetaMatch{{Key: c.key, Value: c.value}}}, 10, "")
		var got []string
		for _, r := range recs {
			got = append(got, r.ID)
		}
		if err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("meta %s=%s lists %v (%v), want %v", c.key, c.value, got, err, c.want)
		}
	}
	var rows, keys int
	if err := s.db.QueryRow(`SELECT count(*), (SELECT count(*) FROM records r, json_each(r.meta) WHERE r.meta IS NOT NULL)
		FROM record_meta`).Scan(&rows, &keys); err != nil || rows != keys || rows != 6 {
		t.Fatalf("record_meta holds %d rows for %d meta keys (%v), want 6 for 6", rows, keys, err)
	}
}
