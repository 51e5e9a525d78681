package storetest

import (
	"reflect"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/skips"
)

// listOnly hides a store's optional roles: the Engine reads it through
// List, the reference a role's answers must equal.
type listOnly struct{ mneme.Store }

// testTimeline: a store's timeline read (mneme.TimelineStore) answers
// exactly what the Engine reads through List: the same rows, columns and
// order, under the same filters and the same visibility (a scope limited
// to a project, no clearance for secrets).
func testTimeline(t *testing.T, f *fixture) {
	if _, ok := f.eng.Store().(mneme.TimelineStore); !ok {
		skips.Skip(t, "a store that implements mneme.TimelineStore", "the store has no timeline read")
	}
	base := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	var recs []*mneme.Record
	for i := range 12 {
		at := base.Add(time.Duration((i*7)%12) * time.Minute) // written out of time order
		r := &mneme.Record{Project: []string{"a", "b"}[i%2], Type: mneme.Episodic, Kind: []string{"tool_call", "turn", "run"}[i%3],
			Text: "step " + string(rune('a'+i)), SessionID: []string{"s1", "s2"}[i%4/2], RunID: []string{"", "r1"}[i%5/4],
			OccurredAt: &at, Meta: []byte(`{"ops":"x","n":` + string(rune('0'+i%10)) + `}`)}
		if i%6 == 5 {
			r.Sensitivity = mneme.Secret
		}
		if i == 3 {
			r.Meta = nil // a row without meta reads as ""
		}
		recs = append(recs, r)
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	since, until := base.Add(2*time.Minute), base.Add(9*time.Minute)
	ref := mneme.NewEngine(listOnly{f.eng.Store()}, f.clock())
	for _, c := range []struct {
		name  string
		scope *mneme.Scope
		f     mneme.Filter
		limit int
	}{
		{"all", nil, mneme.Filter{Clearance: mneme.Secret}, 100},
		{"no clearance", nil, mneme.Filter{}, 100},
		{"session", nil, mneme.Filter{SessionID: "s1", Clearance: mneme.Secret}, 100},
		{"run and kinds", nil, mneme.Filter{RunID: "r1", Kinds: []string{"turn", "run"}, Clearance: mneme.Secret}, 100},
		{"window", nil, mneme.Filter{Since: &since, Until: &until, Clearance: mneme.Secret}, 100},
		{"limit", nil, mneme.Filter{Clearance: mneme.Secret}, 4},
		{"token of project a", &mneme.Scope{Name: "a", Projects: []string{"a"}}, mneme.Filter{Clearance: mneme.Secret}, 100},
		{"session, token of project b", &mneme.Scope{Name: "b", Projects: []string{"b"}}, mneme.Filter{SessionID: "s2"}, 100},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := f.ctx
			if c.scope != nil {
				ctx = mneme.WithScope(ctx, *c.scope)
			}
			got, gotMore, err := f.eng.Timeline(ctx, c.f, []string{"turn"}, c.limit)
			if err != nil {
				t.Fatal(err)
			}
			want, wantMore, err := ref.Timeline(ctx, c.f, []string{"turn"}, c.limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 || gotMore != wantMore || !reflect.DeepEqual(got, want) {
				t.Fatalf("store: %d rows (more %v)\n%+v\nthrough List: %d rows (more %v)\n%+v", len(got), gotMore, got, len(want), wantMore, want)
			}
			for _, r := range got {
				if (r.Kind == "turn") != (r.Text != "") {
					t.Fatalf("row %s of kind %s has text %q", r.ID, r.Kind, r.Text)
				}
			}
		})
	}
}
