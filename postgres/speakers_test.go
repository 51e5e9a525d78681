package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/postgres"
)

// TestSpeakersSeek: the speakers a question names are found by seeks in
// records_speaker under every filter a recall passes (a project or none;
// under a session's, in the session's index), never by a scan of the
// records.
func TestSpeakersSeek(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	for _, f := range []mneme.Filter{{Clearance: mneme.Internal}, {Project: "p", Clearance: mneme.Internal},
		{Project: "p", Clearance: mneme.Secret, Types: []mneme.Type{mneme.Episodic}, SessionID: "s1"}} {
		plan, err := postgres.SpeakersPlan(context.Background(), s, []string{"Ann", "Bo", "Cy"}, f)
		if err != nil {
			t.Fatal(err)
		}
		seek := strings.Contains(plan, "Index Scan using records_speaker") &&
			(strings.Contains(plan, "Index Cond: (lower(speaker) = lower(v.n))") || strings.Contains(plan, "Index Cond: ((lower(speaker) = lower(v.n))"))
		if f.SessionID != "" { // a session's few records are as good a seek
			seek = seek || strings.Contains(plan, "Index Cond: (session_id = ")
		}
		if !seek || strings.Contains(plan, "Seq Scan") {
			t.Fatalf("filter %+v: the probe does not seek per name:\n%s", f, plan)
		}
		t.Logf("filter %+v:\n%s", f, plan)
	}
}
