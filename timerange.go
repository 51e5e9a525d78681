package mneme

import (
	"math"
	"time"
)

// Stores keep times as nanoseconds since 1970 in 64 bits, so a time before
// MinTime or after MaxTime (about 1677 to 2262) would come back as another
// time: records may not hold one, and filters clamp to the range.
var (
	MinTime = time.Unix(0, math.MinInt64).UTC()
	MaxTime = time.Unix(0, math.MaxInt64).UTC()
)

// checkTimes refuses a record time outside MinTime..MaxTime (zero times
// are unset: the store fills them in).
func checkTimes(r *Record) error {
	for _, f := range []struct {
		name string
		t    *time.Time
	}{{"occurred_at", r.OccurredAt}, {"expires_at", r.ExpiresAt}, {"created_at", &r.CreatedAt}, {"updated_at", &r.UpdatedAt}} {
		if f.t == nil || f.t.IsZero() || (!f.t.Before(MinTime) && !f.t.After(MaxTime)) {
			continue
		}
		hint := "give a time between those"
		if f.name == "expires_at" {
			hint = "use a shorter ttl, or none"
		}
		return Invalid("%s %s is outside the times mneme can store (%s to %s): %s", f.name,
			f.t.Format(time.RFC3339), MinTime.Format(time.DateOnly), MaxTime.Format(time.DateOnly), hint)
	}
	return nil
}

// clampTime brings a filter bound into MinTime..MaxTime: no record lies
// outside, so the filter selects the same records.
func clampTime(t *time.Time) *time.Time {
	switch {
	case t == nil:
		return nil
	case t.Before(MinTime):
		c := MinTime
		return &c
	case t.After(MaxTime):
		c := MaxTime
		return &c
	}
	return t
}
