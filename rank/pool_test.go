package rank

import (
	"testing"
	"time"
)

// TestPool: each lane returns max(4k, 50) candidates, at most the store's
// most; a question that names a time returns at least TimePool, since
// DateBoost lifts the records of that time wherever the lanes rank them.
// A profile without the date boost, or with a smaller TimePool, keeps the
// usual pool.
func TestPool(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	def := Default()
	noDate, small := Default(), Default()
	noDate.DateBoost, small.TimePool = 0, 20
	for _, tc := range []struct {
		name  string
		p     Profile
		query string
		k     int
		want  int
	}{
		{"plain question", def, "what pet does Nate have", 10, 50},
		{"plain, large k", def, "what pet does Nate have", 25, 100},
		{"a day named", def, "what did Nate do on 25 May, 2022?", 10, 300},
		{"an ISO date", def, "what happened on 2026-11-18", 25, 300},
		{"a relative time", def, "what happened last Tuesday", 10, 300},
		{"a month", def, "what did we decide in May", 10, 300},
		{"asks when, names none", def, "when did Nate adopt a turtle?", 10, 50},
		{"k above the time pool", def, "what happened on 2026-11-18", 101, 404},
		{"capped by the store", def, "what happened on 2026-11-18", 10, 200},
		{"no date boost", noDate, "what happened on 2026-11-18", 10, 50},
		{"time pool below the usual", small, "what happened on 2026-11-18", 10, 50},
	} {
		most := 1000
		if tc.name == "capped by the store" {
			most = 200
		}
		if got := tc.p.Pool(tc.query, now, tc.k, most); got != tc.want {
			t.Errorf("%s: Pool(%q, k %d) = %d, want %d", tc.name, tc.query, tc.k, got, tc.want)
		}
		if got, want := UsualPool(tc.k, most), min(most, max(4*tc.k, 50)); got != want {
			t.Errorf("%s: UsualPool(%d) = %d, want %d whatever the question", tc.name, tc.k, got, want)
		}
	}
}

// BenchmarkPool is the per-query cost of choosing the pool: reading the
// question for a time it names (a recall at 100,000 records takes ~11 ms).
func BenchmarkPool(b *testing.B) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	p := Default()
	for _, q := range []string{"how do we warm up the cache before deploys", "what did Nate do on 25 May, 2022?"} {
		b.Run(q[:10], func(b *testing.B) {
			for b.Loop() {
				p.Pool(q, now, 10, 1000)
			}
		})
	}
}
