package main

import (
	"fmt"
	"sort"
)

// oracle: per group, the best fixed alpha, and the per-query best alpha's
// mean (an upper bound for per-query weighting); and how the best alpha
// relates to features.
func oracle(qs []Q) {
	alphas := []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}
	fixed := map[string][]float64{}
	orc, n := map[string]float64{}, map[string]float64{}
	type pt struct {
		f    qfeat
		best float64
		g    string
	}
	var pts []pt
	for i := range qs {
		q := &qs[i]
		if len(q.Cands) == 0 {
			continue
		}
		g := group(q)
		if fixed[g] == nil {
			fixed[g] = make([]float64, len(alphas))
		}
		bm, ba, lo, hi := -1.0, 0.0, 1.0, -1.0
		var ms []float64
		for j, a := range alphas {
			m := metric(q, weighted(a, 0.1)(q))
			ms = append(ms, m)
			fixed[g][j] += m
			if m > bm {
				bm, ba = m, a
			}
			lo, hi = min(lo, m), max(hi, m)
		}
		orc[g] += bm
		n[g]++
		if hi > lo { // alpha matters for this query: where is the middle of its best range
			s, c := 0.0, 0.0
			for j, a := range alphas {
				if ms[j] == bm {
					s += a
					c++
				}
			}
			pts = append(pts, pt{features(q), s / c, g})
		}
		_ = ba
	}
	gs := make([]string, 0, len(n))
	for g := range n {
		gs = append(gs, g)
	}
	sort.Strings(gs)
	for _, g := range gs {
		fmt.Printf("%-7s n %4.0f oracle %.4f fixed:", g, n[g], orc[g]/n[g])
		for j, a := range alphas {
			fmt.Printf(" %.1f:%.4f", a, fixed[g][j]/n[g])
		}
		fmt.Println()
	}
	// best alpha by feature buckets
	for _, fe := range []struct {
		name string
		get  func(f qfeat) float64
		cuts []float64
	}{
		{"nTerms", func(f qfeat) float64 { return float64(f.nTerms) }, []float64{1.5, 2.5, 3.5, 5.5, 8.5}},
		{"agree10", func(f qfeat) float64 { return f.agree10 }, []float64{0.05, 0.15, 0.25, 0.4, 0.6}},
		{"vecTop", func(f qfeat) float64 { return f.vecTop }, []float64{0.4, 0.5, 0.6, 0.7}},
		{"lexGap", func(f qfeat) float64 { return f.lexGap }, []float64{0.02, 0.05, 0.1, 0.2, 0.3}},
		{"vecGap", func(f qfeat) float64 { return f.vecGap }, []float64{0.01, 0.02, 0.05, 0.1}},
		{"coverTop", func(f qfeat) float64 { return f.coverTop }, []float64{0.4, 0.6, 0.8, 0.99}},
		{"lexMean10", func(f qfeat) float64 { return f.lexMean10 }, []float64{0.3, 0.5, 0.7, 0.85}},
	} {
		for _, ds := range []string{"L", "N"} {
			cnt := make([]float64, len(fe.cuts)+1)
			sum := make([]float64, len(fe.cuts)+1)
			for _, p := range pts {
				if p.g[:1] != ds {
					continue
				}
				b := sort.SearchFloat64s(fe.cuts, fe.get(p.f))
				cnt[b]++
				sum[b] += p.best
			}
			fmt.Printf("%-9s %s:", fe.name, ds)
			for b := range cnt {
				if cnt[b] > 0 {
					fmt.Printf("  [%d] n%.0f a%.2f", b, cnt[b], sum[b]/cnt[b])
				}
			}
			fmt.Println()
		}
	}
}
