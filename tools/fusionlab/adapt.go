package main

import (
	"math"
	"slices"
)

// qfeat are per-query features of the candidate pool.
type qfeat struct {
	nTerms                     int
	lexGap, vecGap             float64 // top1 - top2 of each lane, on its fused scale
	lexMean10, vecMean10       float64 // mean of each lane's top 10 (lexScore, cosine)
	vecTop                     float64 // best cosine
	agree10                    float64 // share of the lexical top 10 in the vector top 10
	lexStd, vecStd             float64 // over the pool
	coverTop                   float64 // share of query terms the best lexical candidate matches
	lexTop10Mean, vecTop10Mean float64
}

func features(q *Q) qfeat {
	f := qfeat{nTerms: len(q.Terms)}
	lex := lexNorm(q)
	var ls, vs []float64
	lexTop, vecTop := map[int]bool{}, map[int]bool{}
	for i, c := range q.Cands {
		ls = append(ls, lex[i])
		vs = append(vs, max(0, c.Sim))
		if c.LexRank > 0 && c.LexRank <= 10 {
			lexTop[i] = true
		}
		if c.VecRank > 0 && c.VecRank <= 10 {
			vecTop[i] = true
		}
		if c.LexRank == 1 && len(q.Terms) > 0 {
			f.coverTop = float64(c.Matched) / float64(len(q.Terms))
		}
	}
	n := 0
	for i := range lexTop {
		if vecTop[i] {
			n++
		}
	}
	if len(lexTop) > 0 {
		f.agree10 = float64(n) / float64(len(lexTop))
	}
	sl := slices.Clone(ls)
	sv := slices.Clone(vs)
	slices.Sort(sl)
	slices.Reverse(sl)
	slices.Sort(sv)
	slices.Reverse(sv)
	if len(sl) > 1 {
		f.lexGap, f.vecGap = sl[0]-sl[1], sv[0]-sv[1]
	}
	if len(sv) > 0 {
		f.vecTop = sv[0]
	}
	f.lexMean10, f.vecMean10 = mean(sl[:min(10, len(sl))]), mean(sv[:min(10, len(sv))])
	f.lexStd, f.vecStd = std(ls), std(vs)
	return f
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func std(xs []float64) float64 {
	m := mean(xs)
	s := 0.0
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	if len(xs) == 0 {
		return 0
	}
	return math.Sqrt(s / float64(len(xs)))
}

// adaptive is weighted fusion with alpha chosen per query.
func adaptive(alpha func(q *Q, f qfeat) float64, speaker float64) scorer {
	return func(q *Q) []float64 {
		return weighted(alpha(q, features(q)), speaker)(q)
	}
}

// zscore fuses the lanes' z-scores over the pool.
func zscore(alpha float64) scorer {
	return func(q *Q) []float64 {
		lex := lexNorm(q)
		vs := make([]float64, len(q.Cands))
		for i, c := range q.Cands {
			vs[i] = max(0, c.Sim)
		}
		ml, sl, mv, sv := mean(lex), std(lex), mean(vs), std(vs)
		out := make([]float64, len(q.Cands))
		for i, c := range q.Cands {
			zl, zv := 0.0, 0.0
			if sl > 0 {
				zl = (lex[i] - ml) / sl
			}
			if sv > 0 {
				zv = (vs[i] - mv) / sv
			}
			out[i] = alpha*zl + (1-alpha)*zv
			if c.Speaker {
				out[i] += 0.1 * 4 // on a z scale
			}
			out[i] += 100
		}
		return out
	}
}
