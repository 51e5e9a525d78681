package sqlite

import (
	"context"
	"strings"
	"testing"
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
	rows, err := s.db.Query("EXPLAIN QUERY PLAN SELECT " + docColumns + " FROM records r WHERE r.seq = 1")
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
