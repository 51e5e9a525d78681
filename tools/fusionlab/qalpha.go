package main

import (
	"fmt"
	"math"
	"strings"
)

var qfNames = []string{"a0", "logTerms", "question", "vecTop", "lexMean10", "coverTop", "agree10"}

func isQuestion(text string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	if strings.HasSuffix(t, "?") {
		return true
	}
	for _, w := range []string{"what ", "when ", "who ", "where ", "why ", "how ", "which ", "did ", "does ", "is ", "are ", "do ", "would ", "could ", "can "} {
		if strings.HasPrefix(t, w) {
			return true
		}
	}
	return false
}

// qvec: the per-query feature vector (centred roughly).
func qvec(q *Q) []float64 {
	f := features(q)
	qs := 0.0
	if isQuestion(q.Text) {
		qs = 1
	}
	return []float64{1, math.Log(float64(max(1, f.nTerms))) - 1, qs, f.vecTop - 0.55, f.lexMean10 - 0.6, f.coverTop - 0.7, f.agree10 - 0.3}
}

func qalpha(cache map[*Q][]float64, p []float64, speaker float64) scorer {
	return func(q *Q) []float64 {
		x := cache[q]
		a := 0.0
		for i := range p {
			a += p[i] * x[i]
		}
		return weighted(min(0.95, max(0.05, a)), speaker)(q)
	}
}

func qcache(qs []Q) map[*Q][]float64 {
	m := map[*Q][]float64{}
	for i := range qs {
		m[&qs[i]] = qvec(&qs[i])
	}
	return m
}

func fitQAlpha(qs []Q, mask string, train []string) {
	cache := qcache(qs)
	p := make([]float64, len(qfNames))
	p[0] = 0.4
	step := make([]float64, len(p))
	for _, c := range mask {
		step[c-'0'] = 0.05
	}
	ref := map[string]float64{}
	for a := 0.2; a < 0.61; a += 0.05 {
		r := evaluate(qs, weighted(a, 0.1))
		for g, v := range r {
			ref[g] = max(ref[g], v)
		}
	}
	fmt.Println(line("best fixed per group", ref))
	build := func(p []float64) scorer { return qalpha(cache, p, 0.1) }
	p = ascendMasked(qs, build, p, step, train, ref, 6)
	for i, n := range qfNames {
		fmt.Printf("%s=%.3f ", n, p[i])
	}
	fmt.Println()
	fmt.Println(line("qalpha", evaluate(qs, build(p))))
}
