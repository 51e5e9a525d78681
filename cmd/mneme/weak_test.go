package main_test

import (
	"strings"
	"testing"
)

// TestRecallWeakUnderFilter: over three incident records, `recall "what
// went wrong recently" --type episodic` answers with the incidents, newest
// first, marked weak with the match floor, not "no memories match"; in
// JSON too. Without the filter they stay held back.
func TestRecallWeakUnderFilter(t *testing.T) {
	home := t.TempDir()
	ok(t, home, "remember", "--type", "episodic", "--at", "2026-10-02", "The nightly invoice job double-charged 14 customers")
	ok(t, home, "remember", "--type", "episodic", "--at", "2026-11-18", "Checkout latency spiked to four seconds after the cache flush")
	ok(t, home, "remember", "--type", "episodic", "--at", "2026-11-01", "A certificate expired on the mail relay")
	ok(t, home, "remember", "Invoices are issued in euros")
	out := ok(t, home, "recall", "what went wrong recently", "--type", "episodic", "--explain")
	if strings.Contains(out, "no memories match") || !strings.Contains(out, "(weak: the filter left 3 records") ||
		!strings.Contains(out, "1. [") || !strings.Contains(out, "weak: below the match floor 0.2") {
		t.Fatalf("recall under --type episodic:\n%s", out)
	}
	if first := strings.SplitN(out, "1. [", 2)[1]; !strings.Contains(strings.SplitN(first, "\n", 2)[0], "Checkout latency") {
		t.Fatalf("newest incident not first:\n%s", out)
	}
	type weakJSON struct {
		Hits []struct{ Weak bool }
		Weak string
	}
	r := decode[weakJSON](t, ok(t, home, "recall", "what went wrong recently", "--type", "episodic", "--json"))
	if len(r.Hits) != 3 || !r.Hits[0].Weak || r.Weak == "" {
		t.Fatalf("json: %+v", r)
	}
	if out := ok(t, home, "recall", "what went wrong recently"); !strings.Contains(out, "no memories match") {
		t.Fatalf("without a filter:\n%s", out)
	}
}
