package main

import (
	"fmt"
	"math"
)

// objective is the mean over the training groups of each group's mean
// metric minus its reference (the best fixed alpha's), so no dataset
// dominates by size.
func objective(qs []Q, sc scorer, train []string, ref map[string]float64) float64 {
	r := evaluate(qs, sc)
	s, worst := 0.0, math.Inf(1)
	for _, g := range train {
		d := r[g] - ref[g]
		s += d
		worst = min(worst, d)
	}
	return s/float64(len(train)) + 0.5*min(0, worst) // penalise a loss anywhere
}

// ascend is coordinate ascent on p from its start, steps halving.
func ascend(qs []Q, build func(p []float64) scorer, p []float64, step []float64, train []string, ref map[string]float64, rounds int) []float64 {
	best := objective(qs, build(p), train, ref)
	for r := 0; r < rounds; r++ {
		improved := false
		for i := range p {
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
		fmt.Printf("round %d: %.4f %v\n", r, best, fmtp(p))
		if !improved {
			for i := range step {
				step[i] /= 2
			}
		}
	}
	return p
}

func fmtp(p []float64) string {
	s := ""
	for _, x := range p {
		s += fmt.Sprintf(" %.3f", x)
	}
	return s
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
