package sqlite

import (
	"context"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
)

// TestNeighbourTurnsSeek: the text of a turn's neighbours, read for every
// changed record the lexical index catches up on, is found by seeking in
// the session index, not by scanning the turn's whole project (which made
// a cold recall of a 100,000-record home with a few new session records
// take a second).
func TestNeighbourTurnsSeek(t *testing.T) {
	s, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	plan := queryPlan(t, s, "SELECT "+docColumns+" FROM records r WHERE r.seq = 1")
	seeks := 0
	for _, step := range plan {
		if strings.HasPrefix(step, "SEARCH p USING INDEX records_session (project=? AND session_id=? AND event_at") {
			seeks++
		}
	}
	if seeks != 2 {
		t.Fatalf("the neighbour subqueries do not seek in records_session:\n%s", strings.Join(plan, "\n"))
	}
}

// queryPlan is SQLite's plan for q, one step a line.
func queryPlan(t *testing.T, s *Store, q string, args ...any) []string {
	t.Helper()
	rows, err := s.db.Query("EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return plan
}

// TestSupersedeSeeks: a keyed write (a hook's session record, a run)
// finds the records it supersedes by seeking in records_project_key, not
// by scanning every record.
func TestSupersedeSeeks(t *testing.T) {
	s, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	plan := queryPlan(t, s, supersedeQuery, "p", "ops:session:s1", "x")
	if len(plan) != 1 || !strings.HasPrefix(plan[0], "SEARCH r USING INDEX records_project_key (project=? AND key=?)") {
		t.Fatalf("supersede does not seek in records_project_key:\n%s", strings.Join(plan, "\n"))
	}
}

// TestLogBoundsSeek: every recall reads the change log's first and last
// change; each is one seek at an end of the log, not a scan of the log
// (up to tens of thousands of rows: ~1.8 ms of CPU a recall at 100,000
// records).
func TestLogBoundsSeek(t *testing.T) {
	s, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	plan := queryPlan(t, s, logBounds)
	for _, step := range plan {
		if strings.HasPrefix(step, "SCAN changes") {
			t.Fatalf("the change log's bounds scan it:\n%s", strings.Join(plan, "\n"))
		}
	}
}

// TestBySeqSeeks: hydrating a recall's candidates seeks each by its seq.
func TestBySeqSeeks(t *testing.T) {
	s, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	plan := queryPlan(t, s, bySeqQuery, "[1,2,3]")
	if len(plan) == 0 || !strings.HasPrefix(plan[0], "SEARCH r USING INTEGER PRIMARY KEY (rowid=?)") {
		t.Fatalf("hydration does not seek by seq:\n%s", strings.Join(plan, "\n"))
	}
}

// TestNeighboursSeek: a record's neighbours in its session (read for each
// session a write embeds, and by recall's expansion) are found by seeking
// in the session index, not by scanning the record's whole project.
func TestNeighboursSeek(t *testing.T) {
	s, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := &mneme.Record{Project: "p", SessionID: "s1", ID: "01a21e09-05ae-75e1-8bc5-c04d8803263f"}
	for _, side := range [][2]string{{"<", "DESC"}, {">", "ASC"}} {
		q, args := neighboursQuery(r, side[0], side[1])
		plan := queryPlan(t, s, q, append(args, 1)...)
		if !strings.HasPrefix(plan[0], "SEARCH r USING INDEX records_session (project=? AND session_id=?") {
			t.Fatalf("neighbours %s do not seek in records_session:\n%s", side[0], strings.Join(plan, "\n"))
		}
	}
}

// TestSpeakersSeek: the speakers a question names are found by a seek per
// name in records_speaker, under every filter a recall passes (a project
// or none, clearance), never by a scan of the records.
func TestSpeakersSeek(t *testing.T) {
	s, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, f := range []mneme.Filter{{Clearance: mneme.Internal}, {Project: "p", Clearance: mneme.Internal},
		{Project: "p", Clearance: mneme.Secret, Types: []mneme.Type{mneme.Episodic}, SessionID: "s1"}} {
		cond, args := where(f)
		plan := queryPlan(t, s, speakersSQL(3, cond), append([]any{"Ann", "Bo", "Cy"}, args...)...)
		want := "USING INDEX records_speaker (<expr>=?"
		if f.Project != "" && f.SessionID == "" { // with a session, where() keeps project out of the seek
			want += " AND project=?"
		}
		seeks := 0
		for _, step := range plan {
			if strings.HasPrefix(step, "SEARCH r") && strings.Contains(step, want) {
				seeks++
			}
			if strings.HasPrefix(step, "SCAN r") {
				seeks = -100
			}
		}
		if seeks != 1 {
			t.Fatalf("filter %+v: the probe does not seek in records_speaker:\n%s", f, strings.Join(plan, "\n"))
		}
	}
}
