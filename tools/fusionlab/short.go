package main

import (
	"fmt"
	"math"
)

// shortTurn subtracts gamma per halving of a turn's length below full
// words, at most two halvings (the engine's short-turn penalty).
func shortTurn(base scorer, gamma, full float64) scorer {
	return func(q *Q) []float64 {
		s := base(q)
		for i, c := range q.Cands {
			if c.Session != "" && float64(c.Words) < full {
				s[i] = max(0, s[i]-gamma*min(2, math.Log2(full/max(1, float64(c.Words)))))
			}
		}
		return s
	}
}

// shortSweep: alpha by alpha, with and without the short-turn penalty.
func shortSweep(qs []Q) {
	for a := 0.2; a < 0.56; a += 0.05 {
		def := dateBoost(sessionOn(weighted(a, 0.1), 0.3), 0.2, 1, 14)
		fmt.Println(line(fmt.Sprintf("a %.2f", a), evaluate(qs, def)))
		fmt.Println(line(fmt.Sprintf("a %.2f short", a), evaluate(qs, shortTurn(def, 0.04, 80))))
	}
	def := dateBoost(sessionOn(rrfScheme(0.2), 0.3), 0.2, 1, 14)
	fmt.Println(line("rrf", evaluate(qs, def)))
	fmt.Println(line("rrf short", evaluate(qs, shortTurn(def, 0.04, 80))))
}

// shortLoco: leave one conversation out, choosing the penalty's full
// length and weight on the other four; then the whole grid.
func shortLoco(qs []Q) {
	def := dateBoost(sessionOn(weighted(0.35, 0.1), 0.3), 0.2, 1, 14)
	type cfg struct{ full, g float64 }
	var cfgs []cfg
	for _, full := range []float64{20, 30, 40, 60, 80, 120} {
		for _, g := range []float64{0, 0.01, 0.02, 0.03, 0.04, 0.06, 0.08} {
			cfgs = append(cfgs, cfg{full, g})
		}
	}
	for _, held := range []string{"conv-26", "conv-30", "conv-41", "conv-42", "conv-43"} {
		tr, te := leaveOut(qs, held)
		best, bc := -1.0, cfg{}
		for _, c := range cfgs {
			if v := evaluate(tr, shortTurn(def, c.g, c.full))["L14"]; v > best {
				best, bc = v, c
			}
		}
		fmt.Printf("%s: chosen full %.0f g %.2f\n  %s\n  %s\n", held, bc.full, bc.g,
			line("default", evaluate(te, def)), line("chosen", evaluate(te, shortTurn(def, bc.g, bc.full))))
	}
	for _, c := range cfgs {
		fmt.Println(line(fmt.Sprintf("full %.0f g %.2f", c.full, c.g), evaluate(qs, shortTurn(def, c.g, c.full))))
	}
}
