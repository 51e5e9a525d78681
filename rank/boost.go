package rank

import (
	"math"
	"slices"
	"time"

	"github.com/mneme-ai/mneme/internal/textnorm"
)

// Boosts adds the boosts of the candidates' sessions, of the speaker and
// the time the query names, and lowers short conversation turns, in that
// order. terms are the query's folded terms; now is when it is asked (for
// "yesterday").
func (p *Profile) Boosts(query string, terms []string, now time.Time, cands []*Candidate) {
	p.SessionMatch(query, cands)
	p.SpeakerMatch(terms, cands)
	p.DateMatch(query, now, cands)
	p.WhenMatch(query, cands)
	p.RecentMatch(query, cands)
	p.PreferMatch(query, cands)
	p.ShortTurns(cands)
	p.UpdateMatch(query, cands)
}

// RecentMatch raises, for a question that asks for the latest ("what did
// we decide recently", "the latest address"), each candidate by
// RecentBoost times its place in time among the candidates (1 for the
// newest): of two statements of a fact, the newer is the one that holds.
func (p *Profile) RecentMatch(query string, cands []*Candidate) {
	if p.RecentBoost == 0 || !AsksRecency(query) {
		return
	}
	oldest, newest := minMax(len(cands), func(i int) float64 { return float64(cands[i].Doc.Time.UnixNano()) })
	for _, c := range cands {
		c.Recent = Round(p.RecentBoost * scale(float64(c.Doc.Time.UnixNano()), oldest, newest))
		c.Score += c.Recent
	}
}

// WhenMatch raises, for a question that asks when, the candidates whose
// text tells a time: the turn that answers "when did Maria adopt a dog?"
// says "last week" or "in May", and its other words match the question no
// better than the turns about the dog that do not.
func (p *Profile) WhenMatch(query string, cands []*Candidate) {
	if p.WhenBoost == 0 || !AsksWhen(query) {
		return
	}
	raiseIf(cands, p.WhenBoost, TellsTime, func(c *Candidate) *float64 { return &c.When })
}

// raiseIf adds boost to each candidate whose title and text pred holds,
// noting it in the field at names (for explain).
func raiseIf(cands []*Candidate, boost float64, pred func(string) bool, at func(*Candidate) *float64) {
	for _, c := range cands {
		if pred(c.Doc.Title + " " + c.Doc.Text) {
			*at(c) = boost
			c.Score += boost
		}
	}
}

// SessionMatch raises each candidate with a session by SessionBoost times
// the best fused score of another candidate of the same session;
// SeveralSessionBoost instead for a question that asks for several things
// (AsksSeveral), whose answer is spread over many sessions.
func (p *Profile) SessionMatch(query string, cands []*Candidate) {
	boost := p.SessionBoost
	if AsksSeveral(query) {
		boost = p.SeveralSessionBoost
	}
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
			c.Session = Round(boost * other.Fused)
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

// DateMatch raises the candidates of the time the query names (see
// Named): those whose event time falls in it, widened by DateBeforeHours
// and DateAfterDays, and those whose text names a time that, said when
// they were, overlaps it ("yesterday" in a turn of 8 May is 7 May). A
// record of another time gets nothing.
func (p *Profile) DateMatch(query string, now time.Time, cands []*Candidate) {
	span, ok := Named(query, now)
	if !ok {
		return
	}
	wide := p.widen(span)
	for _, c := range cands {
		if wide.Contains(c.Doc.Time) || p.mentions(c, span) {
			c.Date = p.DateBoost
			c.Score += p.DateBoost
		}
	}
}

// mentionBytes bounds the text read for a time it names: the start of a
// record (a turn, a note's opening) is where it says when.
const mentionBytes = 2000

// mentions reports whether c's text names a time, resolved against its
// event time, that overlaps span.
func (p *Profile) mentions(c *Candidate, span Span) bool {
	if !p.DateMentions {
		return false
	}
	text := c.Doc.Text
	if len(text) > mentionBytes {
		text = text[:mentionBytes]
	}
	said, ok := Named(text, c.Doc.Time)
	return ok && said.Overlaps(span)
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
