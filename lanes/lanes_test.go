package lanes_test

import (
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/lanes"
)

func TestEvaluate(t *testing.T) {
	healthy := []mneme.HealthCheck{{Name: "database", OK: true}, {Name: "database file", OK: true}, {Name: "lexical index", OK: true},
		{Name: "embedder", OK: true}, {Name: "vectors", OK: true}, {Name: "vector index", OK: true}, {Name: "code", OK: true}}
	with := func(name string, ok, absent bool) []mneme.HealthCheck {
		out := append([]mneme.HealthCheck(nil), healthy...)
		for i := range out {
			if out[i].Name == name {
				out[i].OK, out[i].Absent = ok, absent
			}
		}
		return out
	}
	cases := []struct {
		name    string
		checks  []mneme.HealthCheck
		facts   lanes.Facts
		lane    string
		status  lanes.Status
		failed  string
		blocked string
	}{
		{"healthy", healthy, lanes.Facts{Embedder: true}, "recall-hybrid", lanes.Ready, "", ""},
		{"pending vectors", with("vectors", false, false), lanes.Facts{Embedder: true}, "recall-hybrid", lanes.Degraded, "vectors", ""},
		{"stale lexical index", with("lexical index", false, false), lanes.Facts{}, "recall-lexical", lanes.Degraded, "lexical-index", ""},
		{"embedder down", with("embedder", false, false), lanes.Facts{Embedder: true}, "recall-hybrid", lanes.Unavailable, "embedder", "recall-hybrid"},
		{"no embedder", with("embedder", true, true), lanes.Facts{}, "recall-hybrid", lanes.Unavailable, "embedder", ""},
		{"no embedder, context", with("embedder", true, true), lanes.Facts{}, "context", lanes.Degraded, "embedder", ""},
		{"damaged file", with("database file", false, false), lanes.Facts{}, "recall-lexical", lanes.Unavailable, "database-file", "recall-lexical,context,ops"}, // ops writes to the same database
		{"no llm check", healthy, lanes.Facts{}, "summarize-abstractive", lanes.Unavailable, "", ""},
		{"shared store not set up", healthy, lanes.Facts{}, "shared-store", lanes.Unavailable, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ls := lanes.Evaluate(c.checks, c.facts)
			var got lanes.Lane
			for _, l := range ls {
				if l.ID == c.lane {
					got = l
				}
			}
			if got.Status != c.status || strings.Join(got.DegradedCheckIDs, ",") != c.failed {
				t.Fatalf("%s = %+v, want %s failed by %q", c.lane, got, c.status, c.failed)
			}
			for _, id := range got.DegradedCheckIDs {
				if !strings.Contains(","+strings.Join(got.RequiredCheckIDs, ",")+",", ","+id+",") {
					t.Fatalf("degraded check %s is not among the required %v", id, got.RequiredCheckIDs)
				}
			}
			if b := strings.Join(lanes.Blocked(ls), ","); b != c.blocked {
				t.Fatalf("blocked = %q, want %q", b, c.blocked)
			}
		})
	}
}
