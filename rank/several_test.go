package rank

import (
	"testing"
	"time"
)

func TestAsksSeveral(t *testing.T) {
	for q, want := range map[string]bool{
		"What activities does Melanie partake in?":         true,
		"Which books has Tim read?":                        true,
		"What kind of places has John visited?":            false, // "kind" is one thing; "places" is three words on
		"What LGBTQ+ events has Caroline participated in?": true,
		"How many times has Melanie gone to the beach?":    true,
		"How often do we deploy?":                          true,
		"What is Caroline's identity?":                     false,
		"What does Melanie do to destress?":                false,
		"What status did the incident have?":               false,
		"When did Maria adopt a dog?":                      false,
		"Which series does Tim like?":                      false,
		"the names of our services":                        false, // no opening what or which
	} {
		if got := AsksSeveral(q); got != want {
			t.Errorf("AsksSeveral(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestSeveralSessionBoost: a question asking for several things raises a
// turn by SeveralSessionBoost times the best other turn of its session;
// any other question by SessionBoost.
func TestSeveralSessionBoost(t *testing.T) {
	p := Default()
	p.SessionBoost, p.SeveralSessionBoost = 0.3, 0.1
	for q, want := range map[string]float64{
		"What activities does Melanie do?": 0.1 * 0.8,
		"What does Melanie do on Sundays?": 0.3 * 0.8,
	} {
		now := time.Now()
		a := &Candidate{Doc: &Doc{ID: "a", Session: "s1", Time: now}, Fused: 0.8, Score: 0.8}
		b := &Candidate{Doc: &Doc{ID: "b", Session: "s1", Time: now}, Fused: 0.5, Score: 0.5}
		p.SessionMatch(q, []*Candidate{a, b})
		if b.Session != Round(want) {
			t.Errorf("%q: session boost %v, want %v", q, b.Session, Round(want))
		}
	}
}
