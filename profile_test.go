package mneme_test

import (
	"context"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/rank"
	"github.com/mneme-ai/mneme/sqlite"
)

// TestRecallProfile: the Engine ranks by its profile (WithProfile); a
// query may name another (WithProfiles), and alpha comes from the profile
// unless the query gives one; a name no profile has is a clear error.
func TestRecallProfile(t *testing.T) {
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	quiet := rank.Default()
	quiet.SpeakerBoost, quiet.Alpha = 0, 0.6
	loud := rank.Default()
	loud.SpeakerBoost = 0.3
	eng := reopen(s, mneme.WithProfile(quiet), mneme.WithProfiles(map[string]rank.Profile{"loud": loud}))
	if _, err := eng.Remember(context.Background(), []*mneme.Record{{Text: "Great! I moved to Lisbon.", Speaker: "Maria", SessionID: "s"}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name         string
		q            mneme.Query
		boost, alpha float64
	}{
		{"the engine's profile", mneme.Query{Text: "where did Maria move"}, 0, 0.6},
		{"a named profile", mneme.Query{Text: "where did Maria move", Profile: "loud"}, 0.3, 0.35},
		{"the query's alpha", mneme.Query{Text: "where did Maria move", Profile: "loud", Alpha: 0.2}, 0.3, 0.2},
	} {
		res := recall(t, eng, tc.q)
		if len(res.Hits) != 1 || res.Hits[0].Explain.SpeakerBoost != tc.boost {
			t.Errorf("%s: %+v, want speaker boost %v", tc.name, res.Hits, tc.boost)
			continue
		}
		x := res.Hits[0].Explain
		if want := tc.alpha*x.LexicalScore + (1-tc.alpha)*x.VectorScore; abs(x.FusedScore-want) > 1e-5 {
			t.Errorf("%s: fused %v, want %v (alpha %v)", tc.name, x.FusedScore, want, tc.alpha)
		}
	}
	_, err = eng.Recall(context.Background(), mneme.Query{Text: "Maria", K: 5, Profile: "docs"})
	if mneme.ErrorCode(err) != mneme.EINVALID || mneme.ErrorMessage(err) != `ranking profile "docs" is not configured: use one of loud, or leave it out` {
		t.Fatalf("unknown profile: %v", err)
	}
}

func abs(x float64) float64 { return max(x, -x) }
