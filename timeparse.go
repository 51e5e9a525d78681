package mneme

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// ParseTime reads an RFC 3339 time, a date (2024-05-08, midnight UTC) or a
// duration back from now ("7d", "36h"). field names the input in errors.
func ParseTime(field, s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if d, err := ParseDuration(s); err == nil && d > 0 {
		return now.Add(-d).UTC(), nil
	}
	return time.Time{}, Invalid("%s %q is not a time: use RFC 3339 (2024-05-08T14:30:00Z), a date (2024-05-08) or an age (7d, 36h)", field, Clip(s))
}

// ParseDuration reads a Go duration with the extra units d (days) and w
// (weeks), like "72h", "30d", "1w2d".
func ParseDuration(s string) (time.Duration, error) {
	var total time.Duration
	rest := strings.TrimSpace(s)
	for rest != "" {
		i := strings.IndexAny(rest, "dw")
		if i < 0 {
			d, err := time.ParseDuration(rest)
			if err != nil {
				return 0, Invalid("duration %q is not valid", Clip(s))
			}
			if d > 0 && total > math.MaxInt64-d {
				return 0, Invalid("duration %q is too long: at most about 292 years", Clip(s))
			}
			return total + d, nil
		}
		n, err := strconv.ParseFloat(rest[:i], 64)
		if err != nil || n < 0 {
			return 0, Invalid("duration %q is not valid", Clip(s))
		}
		unit := 24 * time.Hour
		if rest[i] == 'w' {
			unit *= 7
		}
		// Checked in floating point: a part or a sum past the largest
		// duration would wrap around to a small or negative one.
		if part := n * float64(unit); part >= math.MaxInt64-float64(total) {
			return 0, Invalid("duration %q is too long: at most about 292 years", Clip(s))
		}
		total += time.Duration(n * float64(unit))
		rest = rest[i+1:]
	}
	if s == "" {
		return 0, Invalid("duration is empty")
	}
	return total, nil
}

// ParseTTL reads a positive time-to-live.
func ParseTTL(s string) (time.Duration, error) {
	d, err := ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, Invalid("ttl %q is not a positive duration: use forms like 90m, 72h, 30d or 2w", Clip(s))
	}
	return d, nil
}
