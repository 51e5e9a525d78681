package main

import (
	"fmt"
	"math"
)

// byTerms: alpha falls with the number of query terms, from a1 at one
// term by b per doubling, never below lo.
func byTerms(a1, b, lo float64) scorer {
	return func(q *Q) []float64 {
		n := float64(max(1, len(q.Terms)))
		a := max(lo, a1-b*math.Log2(n))
		return weighted(a, 0.1)(q)
	}
}

func termsGrid(qs []Q) {
	for _, a1 := range []float64{0.45, 0.5, 0.55, 0.6} {
		for _, b := range []float64{0.05, 0.075, 0.1, 0.15} {
			for _, lo := range []float64{0.25, 0.3, 0.35} {
				fmt.Println(line(fmt.Sprintf("a1 %.2f b %.3f lo %.2f", a1, b, lo), evaluate(qs, byTerms(a1, b, lo))))
			}
		}
	}
	for _, a := range []float64{0.3, 0.325, 0.35, 0.375, 0.4} {
		fmt.Println(line(fmt.Sprintf("fixed %.3f", a), evaluate(qs, weighted(a, 0.1))))
	}
}
