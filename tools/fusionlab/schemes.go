package main

import "fmt"

var schemes = map[string]scorer{}
var order []string

func add(name string, s scorer) { schemes[name] = s; order = append(order, name) }

func lexNorm(q *Q) []float64 {
	top := 0.0
	for _, c := range q.Cands {
		top = max(top, c.BM25)
	}
	out := make([]float64, len(q.Cands))
	for i, c := range q.Cands {
		if top > 0 {
			out[i] = c.BM25 / top
		}
	}
	return out
}

func weighted(alpha, speaker float64) scorer {
	return func(q *Q) []float64 {
		lex := lexNorm(q)
		out := make([]float64, len(q.Cands))
		for i, c := range q.Cands {
			out[i] = alpha*lex[i] + (1-alpha)*max(0, c.Sim)
			if c.Speaker {
				out[i] += speaker
			}
		}
		return out
	}
}

func init() {
	for _, a := range []float64{0.2, 0.3, 0.4, 0.5, 0.6} {
		add(fmt.Sprintf("weighted a=%.1f", a), weighted(a, 0.1))
	}
}

func rrfScheme(floor float64) scorer {
	return func(q *Q) []float64 {
		out := make([]float64, len(q.Cands))
		r := func(k int) float64 {
			if k == 0 {
				return 0
			}
			return 1 / float64(60+k)
		}
		for i, c := range q.Cands {
			vr := c.VecRank
			if c.Sim < floor {
				vr = 0
			}
			out[i] = (r(c.LexRank) + r(vr)) / (2 * r(1))
			if c.Speaker {
				out[i] += 0.1
			}
		}
		return out
	}
}

func init() {
	add("rrf", rrfScheme(-1))
	add("rrf floor 0.2", rrfScheme(0.2))
	add("rrf floor 0.2 held", floored(rrfScheme(0.2), 0.2, false))
}
