package main

import (
	"fmt"
	"math"
	"sort"
)

// norms are ways to put each lane on 0..1 before weighting.
type norm struct {
	name string
	lex  func(q *Q) []float64
	vec  func(q *Q) []float64
}

func cosines(q *Q) []float64 {
	out := make([]float64, len(q.Cands))
	for i, c := range q.Cands {
		out[i] = max(0, c.Sim)
	}
	return out
}

func minmax(xs []float64) []float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		if hi > lo {
			out[i] = (x - lo) / (hi - lo)
		}
	}
	return out
}

func pow(f func(q *Q) []float64, p float64) func(q *Q) []float64 {
	return func(q *Q) []float64 {
		xs := f(q)
		for i := range xs {
			xs[i] = math.Pow(xs[i], p)
		}
		return xs
	}
}

func rankNorm(lane int) func(q *Q) []float64 {
	return func(q *Q) []float64 {
		out := make([]float64, len(q.Cands))
		for i, c := range q.Cands {
			r := c.LexRank
			if lane == 1 {
				r = c.VecRank
			}
			if r > 0 {
				out[i] = 61 / float64(60+r)
			}
		}
		return out
	}
}

// vecRel: cosine relative to the best: cos/top.
func vecRel(q *Q) []float64 {
	xs := cosines(q)
	top := 0.0
	for _, x := range xs {
		top = max(top, x)
	}
	for i := range xs {
		if top > 0 {
			xs[i] /= top
		}
	}
	return xs
}

func normScorer(n norm, alpha, speaker float64) scorer {
	return func(q *Q) []float64 {
		l, v := n.lex(q), n.vec(q)
		out := make([]float64, len(l))
		for i, c := range q.Cands {
			out[i] = alpha*l[i] + (1-alpha)*v[i]
			if c.Speaker {
				out[i] += speaker
			}
		}
		return out
	}
}

var norms = []norm{
	{"bm25/top, cos", lexNorm, cosines},
	{"minmax, cos", func(q *Q) []float64 { return minmax(lexNorm(q)) }, cosines},
	{"bm25/top, minmax cos", lexNorm, func(q *Q) []float64 { return minmax(cosines(q)) }},
	{"minmax, minmax", func(q *Q) []float64 { return minmax(lexNorm(q)) }, func(q *Q) []float64 { return minmax(cosines(q)) }},
	{"bm25/top, cos/top", lexNorm, vecRel},
	{"sqrt bm25/top, cos", pow(lexNorm, 0.5), cosines},
	{"(bm25/top)^2, cos", pow(lexNorm, 2), cosines},
	{"bm25/top, cos^2", lexNorm, pow(cosines, 2)},
	{"rank, rank", rankNorm(0), rankNorm(1)},
	{"bm25/top, rank", lexNorm, rankNorm(1)},
}

func sweepNorms(qs []Q) {
	train := []string{"L14", "Ntrain", "Ndev"}
	for _, n := range norms {
		best := map[string]float64{}
		bestA := map[string]float64{}
		var rows []string
		res := map[float64]map[string]float64{}
		for a := 0.1; a < 0.91; a += 0.05 {
			r := evaluate(qs, normScorer(n, a, 0.1*scaleOf(n)))
			res[a] = r
			for _, g := range train {
				if r[g] > best[g] {
					best[g], bestA[g] = r[g], a
				}
			}
		}
		// the alpha with the least worst regret
		minmaxReg, mA := 1.0, 0.0
		for a, r := range res {
			w := 0.0
			for _, g := range train {
				w = max(w, best[g]-r[g])
			}
			if w < minmaxReg {
				minmaxReg, mA = w, a
			}
		}
		rows = append(rows, fmt.Sprintf("%-24s best:", n.name))
		for _, g := range train {
			rows = append(rows, fmt.Sprintf(" %s %.4f@%.2f", g, best[g], bestA[g]))
		}
		rows = append(rows, fmt.Sprintf(" | common a=%.2f worst regret %.4f:", mA, minmaxReg))
		keys := []string{}
		for g := range res[mA] {
			keys = append(keys, g)
		}
		sort.Strings(keys)
		for _, g := range []string{"L14", "L5", "Ntrain", "Ndev", "Ntest"} {
			rows = append(rows, fmt.Sprintf(" %s %.4f", g, res[mA][g]))
		}
		s := ""
		for _, r := range rows {
			s += r
		}
		fmt.Println(s)
	}
}

func scaleOf(n norm) float64 { return 1 }
