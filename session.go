package mneme

// SessionBoost weighs the evidence of a record's session: a record gains
// this share of the best fused score among the other candidates of its
// session (same session_id). A conversation dwells on a topic for several
// turns, so the turn that answers a question often sits beside the turn
// that matches it best, and says less of the question's words itself.
// Chosen with `mneme bench` (docs/performance.md, "Choosing the fusion").
const SessionBoost = 0.3

// sessionMatch raises each candidate with a session by SessionBoost times
// the best fused score of another candidate of the same session.
func sessionMatch(cands []*candidate) {
	best := map[string][2]*candidate{} // per session, the two best by fused score
	for _, c := range cands {
		s := c.rec.SessionID
		if s == "" {
			continue
		}
		b := best[s]
		switch {
		case b[0] == nil || c.fused > b[0].fused:
			b[0], b[1] = c, b[0]
		case b[1] == nil || c.fused > b[1].fused:
			b[1] = c
		}
		best[s] = b
	}
	for _, c := range cands {
		b, ok := best[c.rec.SessionID]
		if !ok {
			continue
		}
		other := b[0]
		if other == c {
			other = b[1]
		}
		if other != nil && other.fused > 0 {
			c.session = round(SessionBoost * other.fused)
			c.score += c.session
		}
	}
}
