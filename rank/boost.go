package rank

import (
	"math"
	"slices"
	"time"

	"github.com/mneme-ai/mneme/internal/textnorm"
)

// Boosts adds the boosts of the candidates' sessions, of the speaker and
// the time the query names, and lowers short conversation turns, in that
// order. terms are the query's folded terms.
func (p *Profile) Boosts(query string, terms []string, cands []*Candidate) {
	p.SessionMatch(cands)
	p.SpeakerMatch(terms, cands)
	p.DateMatch(query, cands)
	p.ShortTurns(cands)
}

// SessionMatch raises each candidate with a session by SessionBoost times
// the best fused score of another candidate of the same session.
func (p *Profile) SessionMatch(cands []*Candidate) {
	best := map[string][2]*Candidate{} // per session, the two best by fused score
	for _, c := range cands {
		s := c.Doc.Session
		if s == "" {
			continue
		}
		b := best[s]
		switch {
		case b[0] == nil || c.Fused > b[0].Fused:
			b[0], b[1] = c, b[0]
		case b[1] == nil || c.Fused > b[1].Fused:
			b[1] = c
		}
		best[s] = b
	}
	for _, c := range cands {
		b, ok := best[c.Doc.Session]
		if !ok {
			continue
		}
		other := b[0]
		if other == c {
			other = b[1]
		}
		if other != nil && other.Fused > 0 {
			c.Session = Round(p.SessionBoost * other.Fused)
			c.Score += c.Session
		}
	}
}

// SpeakerMatch raises the candidates whose speaker's name (any word of it,
// stopwords aside) is one of the query's terms.
func (p *Profile) SpeakerMatch(terms []string, cands []*Candidate) {
	asked := make(map[string]bool, len(terms))
	for _, t := range terms {
		asked[t] = true
	}
	named := map[string]bool{} // per speaker, computed once
	for _, c := range cands {
		sp := c.Doc.Speaker
		if sp == "" {
			continue
		}
		n, ok := named[sp]
		if !ok {
			n = slices.ContainsFunc(textnorm.Terms(sp), func(w string) bool { return asked[w] })
			named[sp] = n
		}
		if n {
			c.Speaker = p.SpeakerBoost
			c.Score += p.SpeakerBoost
		}
	}
}

// DateMatch raises the candidates whose event time falls in the time the
// query names, widened by DateBeforeHours and DateAfterDays.
func (p *Profile) DateMatch(query string, cands []*Candidate) {
	from, to, ok := NamedTime(query)
	if !ok {
		return
	}
	from = from.Add(-time.Duration(p.DateBeforeHours * float64(time.Hour)))
	to = to.Add(time.Duration(p.DateAfterDays * 24 * float64(time.Hour)))
	for _, c := range cands {
		if t := c.Doc.Time; !t.Before(from) && t.Before(to) {
			c.Date = p.DateBoost
			c.Score += p.DateBoost
		}
	}
}

// ShortTurns lowers the candidates that are short conversation turns (a
// record with a session) by ShortTurnPenalty for each halving of its
// length below FullTurnWords, at most twice; a score does not fall below 0.
func (p *Profile) ShortTurns(cands []*Candidate) {
	full := p.FullTurnWords
	for _, c := range cands {
		if c.Doc.Session == "" {
			continue
		}
		n := textnorm.CountWords(c.Doc.Title, full)
		n += textnorm.CountWords(c.Doc.Text, full-n)
		if n < full {
			c.Short = Round(p.ShortTurnPenalty * min(2, math.Log2(float64(full)/float64(max(1, n)))))
			c.Score = max(0, c.Score-c.Short)
		}
	}
}

// Recency multiplies each score by 2^(−age/halfLife), age counted from now
// to the candidate's event time.
func Recency(now time.Time, halfLife time.Duration, cands []*Candidate) {
	for _, c := range cands {
		age := max(0, now.Sub(c.Doc.Time).Hours())
		f := Round(math.Exp2(-age / halfLife.Hours()))
		c.Recency = &f
		c.Score *= f
	}
}
