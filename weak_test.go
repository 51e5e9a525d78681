package mneme_test

import (
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// TestRecallNarrowFilter: when a filter leaves few records and none has
// evidence, recall returns the best of them marked weak, with the match
// floor in explain, instead of "no memories match"; a question naming
// recency ranks them by time. Without a narrowing filter they stay held
// back.
func TestRecallNarrowFilter(t *testing.T) {
	at := func(days int) *time.Time { t := now.AddDate(0, 0, -days); return &t }
	eng := engine(t,
		mneme.Record{Type: mneme.Episodic, Text: "The nightly invoice job double-charged 14 customers", OccurredAt: at(30)},
		mneme.Record{Type: mneme.Episodic, Text: "Checkout latency spiked to four seconds after the cache flush", OccurredAt: at(3)},
		mneme.Record{Type: mneme.Episodic, Text: "A certificate expired on the mail relay", OccurredAt: at(10)},
		mneme.Record{Type: mneme.Semantic, Text: "Invoices are issued in euros"},
		mneme.Record{Type: mneme.Procedural, Text: "Rotate certificates with the renew script"})
	for _, tc := range []struct {
		name  string
		q     mneme.Query
		weak  bool
		first string // "" : no hit
	}{
		{"a narrow filter, recency asked", mneme.Query{Text: "what went wrong recently", Filter: mneme.Filter{Types: []mneme.Type{mneme.Episodic}}},
			true, "Checkout latency spiked to four seconds after the cache flush"},
		{"no filter: held back", mneme.Query{Text: "what went wrong recently"}, false, ""},
		{"lexical: nothing to rank", mneme.Query{Text: "what went wrong recently", Mode: mneme.Lexical, Filter: mneme.Filter{Types: []mneme.Type{mneme.Episodic}}}, false, ""},
	} {
		res := recall(t, eng, tc.q)
		if tc.first == "" {
			if len(res.Hits) != 0 || res.Weak != "" {
				t.Errorf("%s: %v (weak %q), want no hit", tc.name, texts(res), res.Weak)
			}
			continue
		}
		if len(res.Hits) != 3 || res.Hits[0].Record.Text != tc.first || res.Weak == "" || res.HeldBack != 0 {
			t.Fatalf("%s: %v (weak %q, held back %d), want the 3 incidents, %q first", tc.name, texts(res), res.Weak, res.HeldBack, tc.first)
		}
		for i, h := range res.Hits {
			if !h.Weak || h.Explain.MatchFloor != defaults.MatchFloor {
				t.Errorf("%s: hit %d weak %v, floor %v", tc.name, i, h.Weak, h.Explain.MatchFloor)
			}
			if i > 0 && h.Record.EventTime().After(res.Hits[i-1].Record.EventTime()) {
				t.Errorf("%s: %v not newest first", tc.name, texts(res))
			}
		}
	}
	// A hit with evidence is no weak hit, filter or not.
	res := recall(t, eng, mneme.Query{Text: "certificate", Filter: mneme.Filter{Types: []mneme.Type{mneme.Episodic}}})
	if len(res.Hits) == 0 || res.Hits[0].Weak || res.Weak != "" {
		t.Fatalf("certificate: %v weak %q", texts(res), res.Weak)
	}
}
