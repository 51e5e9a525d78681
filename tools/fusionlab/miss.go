package main

import "fmt"

// missStats: where the evidence a scorer misses in its top 10 is.
func missStats(qs []Q, sc scorer) {
	type agg struct{ ev, top10, pool, lexIn, vecIn, noPool, sameSess float64 }
	by := map[int]*agg{}
	for i := range qs {
		q := &qs[i]
		if q.Dataset != "locomo" {
			continue
		}
		a := by[q.Cat]
		if a == nil {
			a = &agg{}
			by[q.Cat] = a
		}
		s := sc(q)
		top := map[string]bool{}
		sess := map[string]bool{}
		for _, ci := range ranked(q, s, 10) {
			for _, id := range q.Cands[ci].IDs {
				top[id] = true
			}
			sess[q.Cands[ci].Session] = true
		}
		where := map[string]int{}
		for ci, c := range q.Cands {
			for _, id := range c.IDs {
				where[id] = ci + 1
			}
		}
		for _, e := range q.Evidence {
			a.ev++
			switch ci := where[e]; {
			case top[e]:
				a.top10++
			case ci > 0:
				a.pool++
				c := q.Cands[ci-1]
				if c.LexRank > 0 {
					a.lexIn++
				}
				if c.VecRank > 0 {
					a.vecIn++
				}
				if sess[c.Session] {
					a.sameSess++
				}
			default:
				a.noPool++
			}
		}
	}
	for cat := 1; cat <= 5; cat++ {
		if a := by[cat]; a != nil {
			fmt.Printf("cat %d: evidence %.0f, in top10 %.0f, in pool not top10 %.0f (lex lane %.0f, vec lane %.0f, session of a top-10 hit %.0f), not in pool %.0f\n",
				cat, a.ev, a.top10, a.pool, a.lexIn, a.vecIn, a.sameSess, a.noPool)
		}
	}
}
