package rank

import (
	"testing"
	"time"
)

func TestNamedTime(t *testing.T) {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		query    string
		from, to time.Time // zero: no date named
	}{
		{"What did Maria do on 7 July, 2023?", day(2023, 7, 7), day(2023, 7, 8)},
		{"what happened on July 7th 2023", day(2023, 7, 7), day(2023, 7, 8)},
		{"the deploy of 2023-07-07", day(2023, 7, 7), day(2023, 7, 8)},
		{"Where did Joanna travel to in July 2022?", day(2022, 7, 1), day(2022, 8, 1)},
		{"december, 2023 plans", day(2023, 12, 1), day(2024, 1, 1)},
		{"How many times has Melanie gone to the beach in 2023?", day(2023, 1, 1), day(2024, 1, 1)},
		{"what happened on 31 June 2023", day(2023, 6, 1), day(2023, 7, 1)}, // no such day: the month
		{"which outdoor spot did Joanna visit in May?", time.Time{}, time.Time{}},
		{"we may ship 25 builds", time.Time{}, time.Time{}},
		{"port 8080 and 3000 requests", time.Time{}, time.Time{}},
	} {
		from, to, ok := NamedTime(tc.query)
		if ok != !tc.from.IsZero() || !from.Equal(tc.from) || !to.Equal(tc.to) {
			t.Errorf("%q: %v to %v (%v), want %v to %v", tc.query, from, to, ok, tc.from, tc.to)
		}
	}
}
