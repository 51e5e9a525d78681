package sqlite

import (
	"context"
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
