package rank

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestProfileJSON: a profile read from JSON starts from the defaults; a
// field given replaces its default (0 too); unknown fields and values out
// of range are errors that name the field.
func TestProfileJSON(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want func(p *Profile)
		err  string
	}{
		{in: `{}`, want: func(*Profile) {}},
		{in: `{"alpha": 0.4}`, want: func(p *Profile) { p.Alpha = 0.4 }},
		{in: `{"session_boost": 0}`, want: func(p *Profile) { p.SessionBoost = 0 }},
		{in: `{"fusion": "rrf", "rrf_k": 30}`, want: func(p *Profile) { p.Fusion, p.RRFK = RRF, 30 }},
		{in: `{"alpah": 0.4}`, err: `unknown field "alpah"`},
		{in: `{"alpha": 1.5}`, err: "alpha 1.5 is out of range"},
		{in: `{"fusion": "max"}`, err: `fusion "max" is not one of weighted, rrf`},
		{in: `{"feedback_words": -1}`, err: "feedback_words -1 is out of range"},
		{in: `{"window_pool": 25, "window_after_days": 14}`, want: func(p *Profile) { p.WindowPool, p.WindowAfterDays = 25, 14 }},
		{in: `{"window_after_days": 4000}`, err: "window_after_days 4000 is out of range: use 0 to 3660"},
		{in: `{"time_pool": 300}`, err: "time_pool is retired: the search restricted to the time a question names (window_pool) took its place"},
	} {
		var got Profile
		err := json.Unmarshal([]byte(tc.in), &got)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one saying %q", tc.in, err, tc.err)
			}
			continue
		}
		want := Default()
		tc.want(&want)
		if err != nil || got != want {
			t.Errorf("%s: %v (%v), want %v", tc.in, got, err, want)
		}
	}
}

// TestProfileRoundTrip: a profile written and read again is the same,
// zero fields included (a written profile must not fall back to defaults).
func TestProfileRoundTrip(t *testing.T) {
	p := Default()
	p.SessionBoost, p.DateBoost = 0, 0.5
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var q Profile
	if err := json.Unmarshal(b, &q); err != nil || q != p {
		t.Fatalf("%s read back as %v (%v)", b, q, err)
	}
}

// TestProfileSet: bench sweeps set a field by its JSON name, parsed as
// the field's type and checked.
func TestProfileSet(t *testing.T) {
	p := Default()
	if err := p.Set("date_boost", "0.3"); err != nil || p.DateBoost != 0.3 {
		t.Fatalf("date_boost: %v, %v", p.DateBoost, err)
	}
	if err := p.Set("feedback_hits", "5"); err != nil || p.FeedbackHits != 5 {
		t.Fatalf("feedback_hits: %v, %v", p.FeedbackHits, err)
	}
	for _, tc := range []struct{ name, value, err string }{
		{"no_such", "1", "no ranking profile field"},
		{"alpha", "x", "takes a number"},
		{"feedback_hits", "1.5", "takes a whole number"},
		{"alpha", "2", "out of range"},
		{"time_pool", "300", "time_pool is retired"},
	} {
		q := Default()
		if err := q.Set(tc.name, tc.value); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s=%s: %v, want an error saying %q", tc.name, tc.value, err, tc.err)
		}
	}
}
