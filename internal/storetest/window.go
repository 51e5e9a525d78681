package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// testWindowSearch: a question that names a day finds that day's records
// though 200 records of other days match it better (the window search,
// through the store's time filter), under the query's filter and
// visibility alike: a secret record of that day only with clearance (it
// has no vector, so it is found by its one query word), a superseded one
// never, nothing outside the query's own type or time bounds. A filter
// that leaves few records has the lanes find them without the window.
func testWindowSearch(t *testing.T, f *fixture) {
	withEmbedder(t, f, 64)
	on := func(d, h int) *time.Time { return ptr(time.Date(2026, 4, d, h, 0, 0, 0, time.UTC)) }
	var recs []*mneme.Record
	for i := range 200 {
		d := 1 + i%28
		if d == 10 {
			d = 11
		}
		recs = append(recs, &mneme.Record{Type: mneme.Episodic, Text: fmt.Sprintf("invoice run %d of the billing job went through", i), OccurredAt: on(d, 9)})
	}
	export := &mneme.Record{Type: mneme.Episodic, Text: "the nightly export broke at midnight", OccurredAt: on(10, 23)}
	format := &mneme.Record{Type: mneme.Semantic, Text: "exports are written as csv", OccurredAt: on(10, 12)}
	secret := &mneme.Record{Type: mneme.Episodic, Text: "the invoice launch moves to june", Sensitivity: mneme.Secret, OccurredAt: on(10, 15)}
	old := &mneme.Record{Type: mneme.Episodic, Key: "oncall", Text: "alice is on call", OccurredAt: on(10, 8)}
	recs = append(recs, export, format, secret, old)
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	f.remember(mneme.Record{Type: mneme.Episodic, Key: "oncall", Text: "bob is on call", OccurredAt: on(20, 8)})
	const q = "what happened to the invoice run on 10 April 2026?"
	for _, tc := range []struct {
		name   string
		filter mneme.Filter
		want   []string // the hits of 10 April
		window int      // how many the window search alone found
	}{
		{"no filter", mneme.Filter{}, []string{export.ID, format.ID}, 2},
		{"with clearance", mneme.Filter{Clearance: mneme.Secret}, []string{export.ID, format.ID, secret.ID}, 3},
		{"semantic only", mneme.Filter{Types: []mneme.Type{mneme.Semantic}}, []string{format.ID}, 0},
		{"since noon", mneme.Filter{Since: on(10, 12)}, []string{export.ID, format.ID}, 2},
		{"until the 5th", mneme.Filter{Until: on(5, 0)}, nil, 0},
	} {
		res, err := f.eng.Recall(f.ctx, mneme.Query{Text: q, K: 10, Explain: true, Report: true, Filter: tc.filter})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []string
		window := 0
		for _, h := range res.Hits {
			if h.Explain.DateBoost > 0 {
				got = append(got, h.ID)
			}
			if h.Explain.Retrieval == "window" {
				window++
				if h.Explain.DateBoost == 0 || h.Explain.LexicalRank != 0 || h.Explain.VectorRank != 0 {
					t.Errorf("%s: %q: explain %+v, want the date boost and no lane rank", tc.name, h.Record.Text, h.Explain)
				}
			}
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(got, want) {
			t.Errorf("%s: hits of 10 April %q, want %q", tc.name, got, want)
		}
		if n := res.Report.Candidates.Window; n != tc.window || window != tc.window {
			t.Errorf("%s: %d hits and %d candidates (report) of the window search alone, want %d", tc.name, window, n, tc.window)
		}
	}
}
