package consolidate_test

import (
	"context"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/consolidate"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/sqlite"
)

// clocked is an engine whose clock the test moves.
func clocked(t *testing.T) (*mneme.Engine, *time.Time) {
	t.Helper()
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	em, _ := hash.New(64)
	now := t0.Add(30 * 24 * time.Hour)
	return mneme.NewEngine(s, mneme.WithEmbedder(em), mneme.WithClock(func() time.Time { return now })), &now
}

// activeSummaries lists the active summaries of shop.
func activeSummaries(t *testing.T, eng *mneme.Engine) []*mneme.Record {
	t.Helper()
	recs, _, err := eng.List(context.Background(), mneme.Filter{Project: "shop", Kinds: []string{"summary"}}, 100, "")
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func derived(r *mneme.Record) int {
	n := 0
	for _, l := range r.Links {
		if l.Type == mneme.LinkDerivedFrom {
			n++
		}
	}
	return n
}

// TestRollingWindowIdempotent: `--since 60d --until now` run again seconds
// later over the same sources gives back the stored summary (created
// false), and only one summary of them is active.
func TestRollingWindowIdempotent(t *testing.T) {
	eng, now := clocked(t)
	seed(t, eng, episodes...)
	ctx := context.Background()
	req := consolidate.Request{Project: "shop", Since: "60d", Until: "now"}
	first, err := consolidate.Summarize(ctx, eng, req)
	if err != nil || !first.Created {
		t.Fatalf("first: %+v, %v", first, err)
	}
	for range 3 {
		*now = now.Add(1500 * time.Millisecond)
		again, err := consolidate.Summarize(ctx, eng, req)
		if err != nil || again.Created || again.RecordID != first.RecordID {
			t.Fatalf("again: %+v, %v (first %s)", again, err, first.RecordID)
		}
	}
	if got := activeSummaries(t, eng); len(got) != 1 {
		t.Fatalf("%d active summaries of the same sources", len(got))
	}
	// A new episode in the window: a new summary that supersedes the old.
	at := t0.Add(10 * time.Hour)
	rec := &mneme.Record{Project: "shop", Type: mneme.Episodic, Kind: "turn", Text: "Bob: The billing export now runs hourly.", OccurredAt: &at}
	if _, err := eng.Remember(ctx, []*mneme.Record{rec}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	*now = now.Add(time.Second)
	next, err := consolidate.Summarize(ctx, eng, req)
	if err != nil || !next.Created || next.Supersedes != first.RecordID || len(activeSummaries(t, eng)) != 1 {
		t.Fatalf("after a new episode: %+v, %v; %d active", next, err, len(activeSummaries(t, eng)))
	}
}

// TestCappedWindowLinks: re-summarising a capped window whose sources
// changed never leaves more derived_from links than the limit, and says
// created only when it wrote.
func TestCappedWindowLinks(t *testing.T) {
	eng, _ := clocked(t)
	seed(t, eng, episodes[0], episodes[1], "Ann: Thanks!", "Bob: Sure.", episodes[3])
	ctx := context.Background()
	req := window()
	req.Limit = 4
	first, err := consolidate.Summarize(ctx, eng, req)
	if err != nil || !first.Created || !first.Truncated {
		t.Fatalf("first: %+v, %v", first, err)
	}
	// An older, empty turn enters the window: the oldest 4 are others,
	// the quoted turns (and so the text) the same.
	at := t0.Add(-time.Minute)
	rec := &mneme.Record{Project: "shop", Type: mneme.Episodic, Kind: "turn", Text: "Bob: Ok.", Speaker: "Bob", OccurredAt: &at}
	if _, err := eng.Remember(ctx, []*mneme.Record{rec}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	next, err := consolidate.Summarize(ctx, eng, req)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range activeSummaries(t, eng) {
		if derived(r) > 4 {
			t.Errorf("summary %s has %d derived_from links, limit 4", r.ID, derived(r))
		}
	}
	got, err := eng.Get(ctx, next.RecordID, mneme.Internal)
	if err != nil || derived(got) != len(next.SourceIDs) {
		t.Fatalf("summary %s: %d links for %d sources, %v", next.RecordID, derived(got), len(next.SourceIDs), err)
	}
	again, err := consolidate.Summarize(ctx, eng, req)
	if err != nil || again.Created || again.RecordID != next.RecordID {
		t.Fatalf("again: %+v, %v", again, err)
	}
}
