package main

import (
	"fmt"
	"math"
)

var featNames = []string{"lex", "cos", "speaker", "matchFrac", "cosRel", "sessBest", "lexRRF", "vecRRF", "lexAbs", "both"}

// candFeats computes every candidate's features.
func candFeats(q *Q) [][]float64 {
	lex := lexNorm(q)
	vecTop := 0.0
	for _, c := range q.Cands {
		vecTop = max(vecTop, c.Sim)
	}
	base := make([]float64, len(q.Cands))
	sess := map[string][2]float64{} // best two base scores per session
	for i, c := range q.Cands {
		base[i] = 0.5*lex[i] + 0.5*max(0, c.Sim)
		if c.Session != "" {
			b := sess[c.Session]
			if base[i] > b[0] {
				b[0], b[1] = base[i], b[0]
			} else if base[i] > b[1] {
				b[1] = base[i]
			}
			sess[c.Session] = b
		}
	}
	out := make([][]float64, len(q.Cands))
	for i, c := range q.Cands {
		sp := 0.0
		if c.Speaker {
			sp = 1
		}
		sb := 0.0
		if b, ok := sess[c.Session]; ok && c.Session != "" {
			sb = b[0]
			if b[0] == base[i] {
				sb = b[1]
			}
		}
		rr := func(r int) float64 {
			if r == 0 {
				return 0
			}
			return 61 / float64(60+r)
		}
		mf := 0.0
		if len(q.Terms) > 0 {
			mf = float64(c.Matched) / float64(len(q.Terms))
		}
		both := 0.0
		if c.LexRank > 0 && c.LexRank <= 20 && c.VecRank > 0 && c.VecRank <= 20 {
			both = 1
		}
		out[i] = []float64{lex[i], max(0, c.Sim), sp, mf, c.Sim - vecTop, sb, rr(c.LexRank), rr(c.VecRank), math.Log1p(c.BM25), both}
	}
	return out
}

// linear scores candidates by w·features (features cached per query).
func linear(cache map[*Q][][]float64, w []float64) scorer {
	return func(q *Q) []float64 {
		fs := cache[q]
		out := make([]float64, len(fs))
		for i, f := range fs {
			s := 0.0
			for j, x := range f {
				s += w[j] * x
			}
			out[i] = s + 100
		}
		return out
	}
}

func featCache(qs []Q) map[*Q][][]float64 {
	m := map[*Q][][]float64{}
	for i := range qs {
		m[&qs[i]] = candFeats(&qs[i])
	}
	return m
}

// cvLoCoMo: train the linear weights on four conversations, test on the
// fifth, for each fifth.
func cvLoCoMo(qs []Q, mask []bool) {
	convs := []string{}
	seen := map[string]bool{}
	for _, q := range qs {
		if !seen[q.Conv] {
			seen[q.Conv] = true
			convs = append(convs, q.Conv)
		}
	}
	var test []Q
	for _, held := range convs {
		tr, te := leaveOut(qs, held)
		w := fitLinear(tr, mask, []string{"L14", "L5"})
		cache := featCache(te)
		fmt.Println(held, line("base", evaluate(te, weighted(0.5, 0.1))))
		fmt.Println(held, line("learned", evaluate(te, linear(cache, w))))
		test = append(test, te...)
	}
	_ = test
}

func fitLinear(tr []Q, mask []bool, groups []string) []float64 {
	cache := featCache(tr)
	w := make([]float64, len(featNames))
	w[0], w[1], w[2], w[5] = 0.35, 0.65, 0.1, 0.3
	step := make([]float64, len(w))
	for i := range step {
		if mask[i] {
			step[i] = 0.1
		}
	}
	ref := map[string]float64{}
	for a := 0.2; a < 0.61; a += 0.05 {
		for g, v := range evaluate(tr, weighted(a, 0.1)) {
			ref[g] = max(ref[g], v)
		}
	}
	build := func(p []float64) scorer { return linear(cache, p) }
	return ascendMasked(tr, build, w, step, groups, ref, 8)
}

func ascendMasked(qs []Q, build func(p []float64) scorer, p []float64, step []float64, train []string, ref map[string]float64, rounds int) []float64 {
	best := objective(qs, build(p), train, ref)
	for r := 0; r < rounds; r++ {
		improved := false
		for i := range p {
			if step[i] == 0 {
				continue
			}
			for _, dir := range []float64{1, -1} {
				for {
					q := append([]float64(nil), p...)
					q[i] += dir * step[i]
					v := objective(qs, build(q), train, ref)
					if v <= best+1e-6 {
						break
					}
					best, p, improved = v, q, true
				}
			}
		}
		if !improved {
			for i := range step {
				step[i] /= 2
			}
		}
	}
	fmt.Printf("fit %.4f %s\n", best, fmtp(p))
	return p
}
