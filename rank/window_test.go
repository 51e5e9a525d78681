package rank

import (
	"testing"
	"time"
)

// TestUsualPool: each lane returns max(4k, 50) candidates, at most the
// store's most, whatever the question.
func TestUsualPool(t *testing.T) {
	for _, tc := range []struct{ k, most, want int }{
		{10, 1000, 50}, {25, 1000, 100}, {101, 1000, 404}, {10, 30, 30},
	} {
		if got := UsualPool(tc.k, tc.most); got != tc.want {
			t.Errorf("UsualPool(%d, %d) = %d, want %d", tc.k, tc.most, got, tc.want)
		}
	}
}

// TestWindow: a question that names a time has a window search over what
// it names (a day for a day, a month for a month, the day "last Tuesday"
// means), widened as the date boost is and by WindowAfterDays; a question
// naming none, or a profile without the date boost or the window search,
// has none.
func TestWindow(t *testing.T) {
	now := time.Date(2026, 6, 4, 12, 0, 0, 0, time.UTC) // a Thursday
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, time.UTC) }
	def := Default()
	noDate, noWindow, wide := Default(), Default(), Default()
	noDate.DateBoost, noWindow.WindowPool = 0, 0
	wide.DateBeforeHours, wide.DateAfterDays, wide.WindowAfterDays = 12, 1, 7
	for _, tc := range []struct {
		name     string
		p        Profile
		query    string
		from, to time.Time // zero: no window
	}{
		{"a day", def, "what did Nate do on 25 May, 2026?", day(5, 25), day(5, 26)},
		{"a day, month first", def, "what happened on May 25, 2026", day(5, 25), day(5, 26)},
		{"an ISO day", def, "what happened on 2026-05-25", day(5, 25), day(5, 26)},
		{"a day without its year", def, "what broke on 18 May", day(5, 18), day(5, 19)},
		{"a month", def, "what did we decide in May", day(5, 1), day(6, 1)},
		{"a month and year", def, "what shipped in March 2026", day(3, 1), day(4, 1)},
		{"last Tuesday", def, "what happened last Tuesday", day(6, 2), day(6, 3)},
		{"yesterday", def, "what went wrong yesterday", day(6, 3), day(6, 4)},
		{"two weeks ago", def, "what did we ship two weeks ago", day(5, 18), day(5, 25)},
		{"last month", def, "what did we fix last month", day(5, 1), day(6, 1)},
		{"a range", def, "what happened between 3 May and 9 May 2026", day(5, 3), day(5, 10)},
		{"asks when, names none", def, "when did Nate adopt a turtle?", time.Time{}, time.Time{}},
		{"names none", def, "how do we warm up the cache", time.Time{}, time.Time{}},
		{"no date boost", noDate, "what happened on 2026-05-25", time.Time{}, time.Time{}},
		{"no window search", noWindow, "what happened on 2026-05-25", time.Time{}, time.Time{}},
		{"widened", wide, "what happened on 2026-05-25", day(5, 24).Add(12 * time.Hour), day(6, 3)},
	} {
		w, ok := tc.p.Window(tc.query, now)
		if want := !tc.from.IsZero(); ok != want || w.From != tc.from || w.To != tc.to {
			t.Errorf("%s: Window(%q) = %v..%v (%v), want %v..%v (%v)", tc.name, tc.query, w.From, w.To, ok, tc.from, tc.to, want)
		}
	}
}

// BenchmarkWindow is the per-query cost of reading a question for the time
// it names (a recall at 100,000 records takes ~7 ms).
func BenchmarkWindow(b *testing.B) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	p := Default()
	for _, q := range []string{"how do we warm up the cache before deploys", "what did Nate do on 25 May, 2022?"} {
		b.Run(q[:10], func(b *testing.B) {
			for b.Loop() {
				p.Window(q, now)
			}
		})
	}
}
