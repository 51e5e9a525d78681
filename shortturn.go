package mneme

import (
	"math"

	"github.com/mneme-ai/mneme/internal/textnorm"
)

// ShortTurnPenalty is taken from the score of a conversation turn (a
// record with a session) for each halving of its length below
// fullTurnWords, at most twice: a turn of 20 words or fewer loses twice
// this. A turn of a few words ("Wow! Did you see that band?") rarely holds
// what a question asks, yet both lanes match it as well as the longer
// turns that do: its vector carries the turn before it, and BM25 favours
// short texts that share a word. Chosen with `mneme bench` (docs/performance.md, "Short
// turns").
const ShortTurnPenalty = 0.04

// fullTurnWords is the length (words of title and text) from which a turn
// loses nothing.
const fullTurnWords = 80

// shortTurns lowers the candidates that are short conversation turns; a
// score does not fall below 0.
func shortTurns(cands []*candidate) {
	for _, c := range cands {
		if c.rec.SessionID == "" {
			continue
		}
		n := textnorm.CountWords(c.rec.Title, fullTurnWords)
		n += textnorm.CountWords(c.rec.Text, fullTurnWords-n)
		if n < fullTurnWords {
			c.short = round(ShortTurnPenalty * min(2, math.Log2(fullTurnWords/float64(max(1, n)))))
			c.score = max(0, c.score-c.short)
		}
	}
}
