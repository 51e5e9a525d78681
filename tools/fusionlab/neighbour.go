package main

import (
	"fmt"
	"strconv"
	"strings"
)

// turnOf reads the turn number of a LoCoMo dia_id ("D3:5" → 5).
func turnOf(c Cand) int {
	if len(c.IDs) == 0 {
		return -1
	}
	_, n, ok := strings.Cut(c.IDs[0], ":")
	if !ok {
		return -1
	}
	t, _ := strconv.Atoi(n)
	return t
}

// neighbourOn adds gamma times the best base score of a candidate within
// w turns of each candidate in its session (decayed by dist per turn).
func neighbourOn(base scorer, gamma float64, w int, decay float64) scorer {
	return func(q *Q) []float64 {
		s := base(q)
		out := append([]float64(nil), s...)
		for i, c := range q.Cands {
			ti := turnOf(c)
			if c.Session == "" || ti < 0 || s[i] < 0 {
				continue
			}
			best := 0.0
			for j, d := range q.Cands {
				if j == i || d.Session != c.Session || s[j] < 0 {
					continue
				}
				dist := turnOf(d) - ti
				if dist < 0 {
					dist = -dist
				}
				if dist == 0 || dist > w {
					continue
				}
				f := 1.0
				for range dist - 1 {
					f *= decay
				}
				best = max(best, f*s[j])
			}
			out[i] += gamma * best
		}
		return out
	}
}

func neighbourGrid(qs []Q) {
	def := func(a, sess float64) scorer { return dateBoost(sessionOn(weighted(a, 0.1), sess), 0.2, 1, 14) }
	fmt.Println(line("default", evaluate(qs, def(0.35, 0.3))))
	for _, sess := range []float64{0.2, 0.3} {
		for _, g := range []float64{0.05, 0.1, 0.2} {
			for _, w := range []int{1, 2, 4} {
				fmt.Println(line(fmt.Sprintf("s%.1f nb %.2f w%d", sess, g, w), evaluate(qs, neighbourOn(def(0.35, sess), g, w, 0.7))))
			}
		}
	}
}

// sessionDiverse re-ranks greedily: each pick's score loses delta for every
// earlier pick of its session; the result scores are by pick order.
func sessionDiverse(base scorer, delta float64, depth int) scorer {
	return func(q *Q) []float64 {
		s := held(q, base(q))
		order := ranked(q, s, len(q.Cands))
		if len(order) > depth {
			order = order[:depth]
		}
		out := make([]float64, len(s))
		for i := range out {
			out[i] = s[i] - 100 // below every pick
			if s[i] < 0 {
				out[i] = -1
			}
		}
		picked := map[string]int{}
		used := make([]bool, len(s))
		for r := range order {
			bi, bs := -1, 0.0
			for _, i := range order {
				if used[i] {
					continue
				}
				v := s[i] - delta*float64(picked[q.Cands[i].Session])
				if bi < 0 || v > bs {
					bi, bs = i, v
				}
			}
			used[bi] = true
			picked[q.Cands[bi].Session]++
			out[bi] = float64(1000 - r)
		}
		return out
	}
}

func diverseGrid(qs []Q) {
	def := func(a, sess float64) scorer { return dateBoost(sessionOn(weighted(a, 0.1), sess), 0.2, 1, 14) }
	fmt.Println(line("default", evaluate(qs, def(0.35, 0.3))))
	for _, sess := range []float64{0.2, 0.3, 0.4} {
		for _, d := range []float64{0.02, 0.05, 0.1, 0.2} {
			fmt.Println(line(fmt.Sprintf("s%.1f div %.2f", sess, d), evaluate(qs, sessionDiverse(def(0.35, sess), d, 40))))
		}
	}
}
