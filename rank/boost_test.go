package rank

import (
	"strings"
	"testing"
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
