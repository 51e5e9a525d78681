package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/postgres"
)

// TestSpanCount: a search under time bounds counts the span on the event
// index first (countSQL). A span clearly over the limit of records scored
// one by one is walked without its records being counted, when the time
// is all the filter narrows; with more conditions (tags), or a span few
// enough, the choice is the full count's.
func TestSpanCount(t *testing.T) {
	defer postgres.SetSearchLimits(20, 0.5, 8192, 512)()
	ctx := context.Background()
	s := pgtest.Open(t)
	eng := mneme.NewEngine(s)
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var recs []*mneme.Record
	for i := range 200 { // one an hour; one in five tagged
		at := start.Add(time.Duration(i) * time.Hour)
		r := &mneme.Record{Text: fmt.Sprintf("note %d about the span", i), OccurredAt: &at}
		if i%5 == 0 {
			r.Tags = []string{"rare"}
		}
		recs = append(recs, r)
	}
	if _, err := eng.Import(ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	hours := func(from, to int) (*time.Time, *time.Time) {
		a, b := start.Add(time.Duration(from)*time.Hour), start.Add(time.Duration(to)*time.Hour-time.Nanosecond)
		return &a, &b
	}
	for _, tc := range []struct {
		name     string
		from, to int // hours of the span
		tags     []string
		passing  int
		exact    bool
	}{
		{"few", 0, 12, nil, 12, true},
		{"at the limit", 0, 20, nil, 20, true},
		{"over, counted", 0, 25, nil, 21, false},                // not clearly over: the full count, up to 21
		{"clearly over", 0, 150, nil, 31, false},                // the span on the index, up to 31
		{"over, with tags", 0, 100, []string{"rare"}, 20, true}, // the span is no guide: counted
		{"over with tags, counted", 0, 150, []string{"rare"}, 21, false},
	} {
		f := mneme.Filter{Tags: tc.tags, Now: start.Add(24 * 365 * time.Hour)}
		f.Since, f.Until = hours(tc.from, tc.to)
		passing, exact, err := postgres.Plan(ctx, s, f)
		if err != nil {
			t.Fatal(err)
		}
		if passing != tc.passing || exact != tc.exact {
			t.Errorf("%s: passing %d, exact %v; want %d, %v", tc.name, passing, exact, tc.passing, tc.exact)
		}
	}
}
