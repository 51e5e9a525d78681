package storetest

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// testFilteredTopK: the filter is inside the search, so a project whose
// records all score below another project's still gets its own top k.
func testFilteredTopK(t *testing.T, f *fixture) {
	var recs []*mneme.Record
	for i := range 30 {
		recs = append(recs, &mneme.Record{Project: "loud", Text: fmt.Sprintf("deploy deploy deploy pipeline %d", i)})
	}
	for i := range 5 {
		recs = append(recs, &mneme.Record{Project: "quiet", Text: fmt.Sprintf("a long note that mentions deploy once among many other words number %d", i)})
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	hits := f.recall(mneme.Query{Text: "deploy", K: 3, Filter: mneme.Filter{Project: "quiet"}})
	if len(hits) != 3 {
		t.Fatalf("filtered top-3 = %d hits, want 3", len(hits))
	}
	for _, h := range hits {
		if h.Record.Project != "quiet" {
			t.Fatalf("hit from project %s", h.Record.Project)
		}
	}
	all := f.recall(mneme.Query{Text: "deploy", K: 10})
	for i := 1; i < len(all); i++ {
		if all[i].Score > all[i-1].Score {
			t.Fatalf("hits not in score order: %v", all)
		}
	}
	if all[0].Score != 1 || all[0].Record.Project != "loud" {
		t.Fatalf("top hit = %+v, want the loud project at score 1", all[0])
	}
}

func testSearchFilters(t *testing.T, f *fixture) {
	day := func(d int) *time.Time { return ptr(time.Date(2026, 3, d, 0, 0, 0, 0, time.UTC)) }
	recs := []*mneme.Record{
		{Text: "incident one: cache outage", Type: mneme.Episodic, Kind: "incident", Tags: []string{"cache", "prod"}, OccurredAt: day(1)},
		{Text: "incident two: cache eviction storm", Type: mneme.Episodic, Kind: "incident", Tags: []string{"cache"}, OccurredAt: day(10)},
		{Text: "how to flush the cache", Type: mneme.Procedural, Kind: "howto", Tags: []string{"cache", "ops"}, OccurredAt: day(20), Status: mneme.Validated},
		{Text: "the cache is redis 7", Type: mneme.Semantic, Tags: []string{"prod", "ops"}, OccurredAt: day(25), Status: mneme.Published},
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		filter mneme.Filter
		want   []int
	}{
		{"none", mneme.Filter{}, []int{0, 1, 2, 3}},
		{"type", mneme.Filter{Types: []mneme.Type{mneme.Episodic}}, []int{0, 1}},
		{"two types", mneme.Filter{Types: []mneme.Type{mneme.Procedural, mneme.Semantic}}, []int{2, 3}},
		{"kind", mneme.Filter{Kinds: []string{"howto"}}, []int{2}},
		{"any tag", mneme.Filter{Tags: []string{"prod", "ops"}}, []int{0, 2, 3}},
		{"all tags", mneme.Filter{Tags: []string{"prod", "ops"}, AllTags: true}, []int{3}},
		{"since", mneme.Filter{Since: day(10)}, []int{1, 2, 3}},
		{"until", mneme.Filter{Until: day(10)}, []int{0, 1}},
		{"range", mneme.Filter{Since: day(2), Until: day(24)}, []int{1, 2}},
		{"project miss", mneme.Filter{Project: "nope"}, nil},
		{"status", mneme.Filter{Statuses: []mneme.Status{mneme.Validated}}, []int{2}},
		{"reusable", mneme.Filter{Statuses: []mneme.Status{mneme.Published, mneme.Validated}}, []int{2, 3}},
		{"status and type", mneme.Filter{Statuses: []mneme.Status{mneme.Active}, Types: []mneme.Type{mneme.Episodic}}, []int{0, 1}},
		{"status miss", mneme.Filter{Statuses: []mneme.Status{mneme.Draft}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ids(f.recall(mneme.Query{Text: "cache", Filter: c.filter}))
			var want []string
			for _, i := range c.want {
				want = append(want, recs[i].ID)
			}
			sort.Strings(got)
			sort.Strings(want)
			if len(got) != len(want) || (len(got) > 0 && !reflect.DeepEqual(got, want)) {
				t.Fatalf("got %v, want %v", got, want)
			}
			for _, id := range got {
				if !c.filter.Match(f.get(id)) && c.filter.Project == "" {
					t.Fatalf("hit %s does not pass the reference filter", id)
				}
			}
		})
	}
}

// testSessionRunFilters checks that session and run select records in
// List and in each of recall's lanes, and that the two intersect.
func testSessionRunFilters(t *testing.T, f *fixture) {
	em := withEmbedder(t, f, 16)
	recs := []*mneme.Record{
		{Text: "flaky test retried with a longer timeout", Type: mneme.Episodic, SessionID: "s1", RunID: "r1"},
		{Text: "flaky test quarantined", Type: mneme.Episodic, SessionID: "s1", RunID: "r2"},
		{Text: "flaky test fixed by seeding the clock", Type: mneme.Episodic, SessionID: "s2", RunID: "r1"},
		{Text: "flaky test noted", Type: mneme.Episodic},
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	vec, err := em.Embed(f.ctx, []string{"flaky test"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		filter mneme.Filter
		want   []int
	}{
		{"none", mneme.Filter{}, []int{0, 1, 2, 3}},
		{"session", mneme.Filter{SessionID: "s1"}, []int{0, 1}},
		{"run", mneme.Filter{RunID: "r1"}, []int{0, 2}},
		{"session and run", mneme.Filter{SessionID: "s1", RunID: "r1"}, []int{0}},
		{"session miss", mneme.Filter{SessionID: "s9"}, nil},
		{"run of another session", mneme.Filter{SessionID: "s2", RunID: "r2"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var want []string
			for _, i := range c.want {
				want = append(want, recs[i].ID)
			}
			fl := f.filter(c.filter)
			listed, _, err := f.eng.List(f.ctx, fl, 100, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range listed {
				if !fl.Match(r) {
					t.Fatalf("listed %s does not pass the reference filter", r.ID)
				}
			}
			sameIDs(t, "list", listed, want)
			sameInLanes(t, f, fl, "flaky", vec[0], want)
		})
	}
}

// sameIDs fails unless recs are the records with ids want, in any order.
// sameInLanes checks that each lane's top 10 for term and vec under fl
// is exactly want (fewer records pass fl than that).
func sameInLanes(t *testing.T, f *fixture, fl mneme.Filter, term string, vec []float32, want []string) {
	t.Helper()
	for lane, q := range map[string]mneme.CandidateQuery{
		"lexical": {Terms: []string{term}, K: 10, Filter: fl},
		"vector":  {Vector: vec, K: 10, Filter: fl},
	} {
		got, err := f.eng.Store().Candidates(f.ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var found []*mneme.Record
		for _, c := range got.List {
			found = append(found, c.Record)
		}
		sameIDs(t, lane, found, want)
	}
}

func sameIDs(t *testing.T, what string, recs []*mneme.Record, want []string) {
	t.Helper()
	got := make([]string, 0, len(recs))
	for _, r := range recs {
		got = append(got, r.ID)
	}
	sort.Strings(got)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
}

func testMatchedTerms(t *testing.T, f *fixture) {
	f.remember(mneme.Record{Title: "Releases", Text: "Releasing is automated by the pipeline", Tags: []string{"ci"}})
	hits := f.recall(mneme.Query{Text: "the release pipeline", Explain: true})
	if len(hits) != 1 || hits[0].Explain == nil {
		t.Fatalf("hits = %+v", hits)
	}
	e := hits[0].Explain
	sort.Strings(e.MatchedTerms)
	if !reflect.DeepEqual(e.MatchedTerms, []string{"pipeline", "release"}) || e.BM25 <= 0 || e.Retrieval != "bm25" {
		t.Fatalf("explain = %+v", e)
	}
}
