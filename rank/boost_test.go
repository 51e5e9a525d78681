package rank

import (
	"strings"
	"testing"
	"time"
)

// BenchmarkShortTurns: the short-turn penalty over a hybrid recall's pool
// at k 10 (up to 50 candidates from each lane), turns of 10 to 140 words.
func BenchmarkShortTurns(b *testing.B) {
	cands := make([]*Candidate, 100)
	for i := range cands {
		text := "Maria: " + strings.Repeat("we walked along the river again ", (10+i*13%130)/6)
		cands[i] = &Candidate{Doc: &Doc{Text: text, Session: "s"}, Fused: 0.5}
	}
	p := Default()
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cands {
			c.Score = c.Fused
		}
		p.ShortTurns(cands)
	}
}

// BenchmarkDateMatch: a question naming a day over a hybrid recall's pool
// at k 10 (100 candidates of 10 to 140 words, some telling a time).
func BenchmarkDateMatch(b *testing.B) {
	cands := make([]*Candidate, 100)
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	for i := range cands {
		text := "Maria: " + strings.Repeat("we walked along the river again ", (10+i*13%130)/6)
		if i%5 == 0 {
			text += " yesterday"
		}
		cands[i] = &Candidate{Doc: &Doc{Text: text, Session: "s", Time: now.AddDate(0, 0, -i)}, Fused: 0.5}
	}
	p := Default()
	b.ReportAllocs()
	for b.Loop() {
		p.DateMatch("what happened on 2026-11-18", now, cands)
		p.WhenMatch("when did Maria walk along the river?", cands)
	}
}

// BenchmarkBoosts: every boost over a hybrid recall's pool at k 10 (100
// candidates of 10 to 140 words), for questions that trigger each of the
// boosts added in issue 28, under the defaults and under the profile from
// before them, in one run (the ratio is the added cost per recall).
func BenchmarkBoosts(b *testing.B) {
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	before := Default()
	before.DateMentions, before.DateBeforeHours, before.DateAfterDays = false, 24, 14
	before.WhenBoost, before.RecentBoost, before.PreferBoost, before.UpdateBoost = 0, 0, 0, 0
	for _, p := range []struct {
		name string
		p    Profile
	}{{"profile=before", before}, {"profile=default", Default()}} {
		for _, query := range []string{"what happened on 2026-11-18", "when did Maria walk along the river?", "where do I walk these days?", "can you recommend a walk for me?"} {
			b.Run(p.name+"/"+query, func(b *testing.B) {
				cands := make([]*Candidate, 100)
				for i := range cands {
					text := "Maria: " + strings.Repeat("we walked along the river again ", (10+i*13%130)/6)
					if i%5 == 0 {
						text += " yesterday, I prefer the park"
					}
					cands[i] = &Candidate{Doc: &Doc{Text: text, Session: "s", Time: now.AddDate(0, 0, -i)}, Fused: float64(i%10) / 10, BM25: 1}
				}
				terms := []string{"maria", "walk", "river"}
				b.ReportAllocs()
				for b.Loop() {
					for _, c := range cands {
						c.Score, c.terms = c.Fused, nil
					}
					p.p.Boosts(query, terms, now, cands)
				}
			})
		}
	}
}
