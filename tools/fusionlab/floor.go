package main

import (
	"fmt"
	"slices"
)

// floorStats: cosine of relevant and other candidates without a matched
// term, and what a floor does to the metric in hybrid and vector mode.
func floorStats(qs []Q) {
	var rel, other []float64
	for _, q := range qs {
		ev := map[string]bool{}
		for _, e := range q.Evidence {
			ev[e] = true
		}
		for e, g := range q.Qrels {
			if g > 0 {
				ev[e] = true
			}
		}
		for _, c := range q.Cands {
			if c.BM25 > 0 || c.Speaker {
				continue
			}
			r := false
			for _, id := range c.IDs {
				r = r || ev[id]
			}
			if r {
				rel = append(rel, c.Sim)
			} else {
				other = append(other, c.Sim)
			}
		}
	}
	slices.Sort(rel)
	slices.Sort(other)
	pct := func(xs []float64, p float64) float64 { return xs[int(p*float64(len(xs)-1))] }
	fmt.Printf("no-term relevant n=%d p1 %.3f p5 %.3f p10 %.3f p50 %.3f; other n=%d p50 %.3f p90 %.3f\n",
		len(rel), pct(rel, 0.01), pct(rel, 0.05), pct(rel, 0.1), pct(rel, 0.5), len(other), pct(other, 0.5), pct(other, 0.9))
}

func floored(s scorer, floor float64, vectorOnly bool) scorer {
	return func(q *Q) []float64 {
		out := s(q)
		for i, c := range q.Cands {
			term := (c.BM25 > 0 || c.Speaker) && !vectorOnly
			if !term && c.Sim < floor {
				out[i] = -1
			}
		}
		return out
	}
}

func vectorOnly(q *Q) []float64 {
	out := make([]float64, len(q.Cands))
	for i, c := range q.Cands {
		out[i] = c.Sim
		if c.VecRank == 0 {
			out[i] = -1
		}
	}
	return out
}
