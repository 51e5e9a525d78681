package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// timelineHome is a store with a session of three records (one a turn,
// one without meta) and one record outside it.
func timelineHome(t *testing.T, dir string) (*Store, *mneme.Engine) {
	t.Helper()
	s, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	eng := mneme.NewEngine(s)
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	var recs []*mneme.Record
	for i, kind := range []string{"session", "turn", "tool_call", "tool_call"} {
		r := &mneme.Record{Type: mneme.Episodic, Kind: kind, Text: "step " + kind + string(rune('a'+i)), SessionID: "s1",
			OccurredAt: &at, Meta: []byte(`{"ops":"` + kind + `"}`)}
		if i == 2 {
			r.Meta = nil
		}
		if i == 3 {
			r.SessionID = "s2"
		}
		recs = append(recs, r)
	}
	if _, err := eng.Remember(context.Background(), recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return s, eng
}

// throughList is f's timeline as the Engine reads it through List.
func throughList(t *testing.T, eng *mneme.Engine, f mneme.Filter) []mneme.TimelineRow {
	t.Helper()
	rows, _, err := mneme.NewEngine(struct{ mneme.Store }{eng.Store()}).Timeline(context.Background(), f, []string{"turn"}, 100)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestTimelineCoveringIndex: a session's timeline is read from
// records_session_timeline alone (the packed row is its indexed
// expression), and only a text kind's rows seek the table.
func TestTimelineCoveringIndex(t *testing.T) {
	s, eng := timelineHome(t, t.TempDir())
	defer eng.Close()
	f := mneme.Filter{SessionID: "s1", Kinds: []string{"session", "turn", "tool_call"}, Now: time.Now()}
	inProject := f
	inProject.Project = mneme.DefaultProject // a token of one project, or --project
	for _, c := range []struct {
		f         mneme.Filter
		textKinds []string
		want      string
	}{
		{f, nil, "SEARCH r USING COVERING INDEX records_session_timeline (session_id=?)"},
		{f, []string{"turn"}, "SEARCH r USING INDEX records_session_timeline (session_id=?)"},
		{inProject, []string{"turn"}, "SEARCH r USING INDEX records_session_timeline (session_id=?)"},
	} {
		q, args := timelineQuery(timelineRow, c.f, c.textKinds, 100)
		if plan := queryPlan(t, s, q, args...); len(plan) != 1 || plan[0] != c.want {
			t.Errorf("%+v, text kinds %v: plan\n%s\nwant %s", c.f, c.textKinds, strings.Join(plan, "\n"), c.want)
		}
	}
}

// TestTimelineUnpackFallback: a row the packed form cannot hold (a kind
// with the separator, written before ids were checked) is read column by
// column, the same as through List.
func TestTimelineUnpackFallback(t *testing.T) {
	s, eng := timelineHome(t, t.TempDir())
	defer eng.Close()
	if _, err := s.db.Exec("UPDATE records SET kind = 'tool' || char(31) || 'call' WHERE kind = 'tool_call'"); err != nil {
		t.Fatal(err)
	}
	f := mneme.Filter{SessionID: "s1"}
	got, _, err := eng.Timeline(context.Background(), f, []string{"turn"}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if want := throughList(t, eng, f); len(got) != 3 || !reflect.DeepEqual(got, want) {
		t.Fatalf("timeline %+v\nthrough List %+v", got, want)
	}
}

// TestTimelineIndexBackfilled: a home written before migration 0011 gets
// the timeline index over its records on the next open (in the migration's
// one transaction), and reads them from it.
func TestTimelineIndexBackfilled(t *testing.T) {
	dir := t.TempDir()
	s, eng := timelineHome(t, dir)
	for _, q := range []string{"DROP INDEX records_session_timeline",
		"CREATE INDEX records_session_id ON records (session_id, id) WHERE session_id != ''", "PRAGMA user_version = 10"} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	eng.Close()
	s, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	eng = mneme.NewEngine(s)
	defer eng.Close()
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM records INDEXED BY records_session_timeline WHERE session_id != ''").Scan(&n); err != nil || n != 4 {
		t.Fatalf("records_session_timeline holds %d rows (%v), want 4", n, err)
	}
	f := mneme.Filter{SessionID: "s1"}
	got, _, err := eng.Timeline(context.Background(), f, []string{"turn"}, 100)
	if want := throughList(t, eng, f); err != nil || len(got) != 3 || !reflect.DeepEqual(got, want) {
		t.Fatalf("timeline %+v (%v)\nthrough List %+v", got, err, want)
	}
}

// TestDeferMigration: opened with DeferMigration, a home of more than
// deferAbove records whose schema is behind is not migrated
// (ErrMigrationDeferred, its version as it was); a smaller one is, and a
// new home is created as usual.
func TestDeferMigration(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	names, _ := fs.Glob(migrations, "migrations/*.sql")
	s, eng := timelineHome(t, dir) // 4 records
	behind := func() {
		if _, err := s.db.Exec(fmt.Sprintf("PRAGMA user_version = %d", len(names)-1)); err != nil {
			t.Fatal(err)
		}
	}
	version := func() (v int) {
		if err := s.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	defer func(was int64) { deferAbove = was }(deferAbove)
	deferAbove = 3
	behind()
	if _, err := OpenWith(ctx, dir, Options{DeferMigration: true}); !errors.Is(err, ErrMigrationDeferred) {
		t.Fatalf("a behind schema of 4 records opened with DeferMigration (deferAbove 3): %v", err)
	}
	if v := version(); v != len(names)-1 {
		t.Fatalf("schema version %d after a deferred open; want %d", v, len(names)-1)
	}
	deferAbove = 4
	small, err := OpenWith(ctx, dir, Options{DeferMigration: true})
	if err != nil {
		t.Fatalf("a behind schema of 4 records (deferAbove 4): %v", err)
	}
	small.Close()
	if v := version(); v != len(names) {
		t.Fatalf("schema version %d after opening a small home; want %d", v, len(names))
	}
	eng.Close()
	fresh, err := OpenWith(ctx, t.TempDir(), Options{DeferMigration: true})
	if err != nil {
		t.Fatalf("a new home with DeferMigration: %v", err)
	}
	fresh.Close()
}
