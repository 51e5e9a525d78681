package mneme_test

import (
	"context"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/sqlite"
)

// TestTimesOutsideTheStore: the store keeps nanoseconds since 1970 in 64
// bits. A record time outside that range is refused (it used to come back
// as another time: 1500 read as 1915, and a 287-year TTL expired the record
// at once); a filter bound outside it is clamped and selects as it says; a
// duration too long for 64 bits is refused rather than wrapped around.
func TestTimesOutsideTheStore(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	eng := mneme.NewEngine(s)
	defer eng.Close()
	now := time.Now()
	for _, req := range []mneme.RememberRequest{
		{Text: "a battle long ago", OccurredAt: "1500-01-01"},
		{Text: "a far future", OccurredAt: "2300-01-01T00:00:00Z"},
		{Text: "a year-zero note", OccurredAt: "0000-01-01T00:00:00+01:00"},
		{Text: "kept for 287 years", TTL: "15000w"},
		{Text: "kept for a wrapped while", TTL: "100000d100000d100000d"},
	} {
		if _, err := eng.RememberRequests(ctx, []mneme.RememberRequest{req}); mneme.ErrorCode(err) != mneme.EINVALID {
			t.Errorf("%+v: %v, want EINVALID", req, err)
		}
	}
	old := time.Date(1700, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := eng.Remember(ctx, []*mneme.Record{{Text: "the oldest storable memory", OccurredAt: &old}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if st, _ := eng.Stats(ctx); st.Total != 1 {
		t.Fatalf("%d records, want 1", st.Total)
	}
	for _, r := range []mneme.RecallRequest{
		{Query: "oldest memory", Since: "1000-01-01", Until: "3000-01-01"},
		{Query: "oldest memory", Since: "1600-01-01", Until: "1800-01-01"},
	} {
		q, err := r.ToQuery(now, mneme.Internal)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := eng.Recall(ctx, q); err != nil || len(res.Hits) != 1 {
			t.Errorf("since %s until %s: %v, %v", r.Since, r.Until, res, err)
		}
	}
	q, _ := (&mneme.RecallRequest{Query: "oldest memory", Since: "2300-01-01"}).ToQuery(now, mneme.Internal)
	if res, err := eng.Recall(ctx, q); err != nil || len(res.Hits) != 0 {
		t.Errorf("since 2300: %v, %v", res, err)
	}
	if res, err := eng.Forget(ctx, mneme.ForgetRequest{ForgetFilter: mneme.ForgetFilter{Before: "1000-01-01"}}); err != nil || res.Forgotten != 0 {
		t.Errorf("forget before 1000: %+v, %v", res, err)
	}
}
