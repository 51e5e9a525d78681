package evidence_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/evidence"
	"github.com/mneme-ai/mneme/sqlite"
)

func engine(t *testing.T) *mneme.Engine {
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	em, _ := hash.New(64)
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	eng := mneme.NewEngine(s, mneme.WithClock(func() time.Time { return now }), mneme.WithEmbedder(em))
	_, err = eng.Remember(context.Background(), []*mneme.Record{
		{Project: "secret-project-name", Text: "The release train leaves every Tuesday at noon from platform nine."},
		{Project: "secret-project-name", Text: "Rollback means reverting the release tag and redeploying the previous build."},
	}, mneme.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

func build(t *testing.T, eng *mneme.Engine, query string, th evidence.Thresholds) *evidence.Export {
	t.Helper()
	req := evidence.Request{Request: contextpack.Request{RecallRequest: mneme.RecallRequest{Query: query, Project: "secret-project-name"}}, Thresholds: th}
	e, err := evidence.Build(context.Background(), eng, req, mneme.Internal)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestContentFree: the export holds no query, no text, no project name.
func TestContentFree(t *testing.T) {
	eng := engine(t)
	e := build(t, eng, "when does the release train leave", evidence.Thresholds{})
	b, _ := json.Marshal(e)
	for _, leak := range []string{"release", "train", "Tuesday", "secret-project-name", "platform"} {
		if strings.Contains(string(b), leak) {
			t.Fatalf("the export holds %q: %s", leak, b)
		}
	}
	if e.Decision != evidence.Use || e.Counts.Kept == 0 || len(e.QuerySHA256) != 64 || e.Items[0].RecordSHA256 == "" {
		t.Fatalf("export = %s", b)
	}
}

func TestDecision(t *testing.T) {
	eng := engine(t)
	cases := []struct {
		name, query string
		th          evidence.Thresholds
		decision    string
		reasons     string
	}{
		{"use", "release train", evidence.Thresholds{}, evidence.Use, ""},
		{"too few", "release train", evidence.Thresholds{MinItems: 5}, evidence.Hold, "too_few_items"},
		{"low score", "release train", evidence.Thresholds{MinScore: 1}, evidence.Hold, "low_score"},
		{"no evidence", "zebra crossing", evidence.Thresholds{}, evidence.Blocked, "no_evidence"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := build(t, eng, c.query, c.th)
			if e.Decision != c.decision || strings.Join(e.DecisionReasons, ",") != c.reasons {
				t.Fatalf("decision %s %v, want %s %s", e.Decision, e.DecisionReasons, c.decision, c.reasons)
			}
		})
	}
}

// TestDegraded: the degraded policy holds, uses or blocks.
func TestDegraded(t *testing.T) {
	pkg := &contextpack.Package{Degraded: true, Groups: []contextpack.Group{{Items: []contextpack.Item{{Score: 0.9, Spans: []contextpack.Span{{SHA256: "ab"}}}}}}}
	for policy, want := range map[string]string{"use": evidence.Use, "hold": evidence.Hold, "blocked": evidence.Blocked} {
		th := evidence.Thresholds{Degraded: policy}
		if err := th.Check(); err != nil {
			t.Fatal(err)
		}
		if e := evidence.Of(pkg, th); e.Decision != want {
			t.Errorf("degraded %s: %s", policy, e.Decision)
		}
	}
}

func TestThresholdsRefused(t *testing.T) {
	for _, th := range []evidence.Thresholds{{MinItems: -1}, {MinItems: 1001}, {MinScore: 1.5}, {MinGroundedness: -0.1}, {Degraded: "maybe"}} {
		if err := th.Check(); mneme.ErrorCode(err) != mneme.EINVALID {
			t.Errorf("%+v: %v", th, err)
		}
	}
}
