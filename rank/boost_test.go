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
