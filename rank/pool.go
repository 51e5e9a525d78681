package rank

import "time"

// Pool is how many candidates each lane returns for a query of k hits
// that fusion and reshaping choose among: max(4k, 50), and at least
// TimePool for a question that names a time (see Named), at most max.
// DateBoost lifts every record of the time named, wherever the lanes rank
// it: a question like "what did Nate do on 25 May, 2022?" shares few words
// and little meaning with the turn that answers it, which the lanes rank
// below their first 100 (LoCoMo dev). Other questions pay nothing.
func (p *Profile) Pool(query string, now time.Time, k, most int) int {
	n := UsualPool(k, most)
	if p.TimePool > n && p.DateBoost > 0 {
		if _, ok := Named(query, now); ok {
			n = p.TimePool
		}
	}
	return min(most, n)
}

// UsualPool is the pool of a question that names no time: max(4k, 50),
// at most max. A filter that leaves fewer records than it has left few,
// whatever the question.
func UsualPool(k, most int) int { return min(most, max(4*k, 50)) }
