package main

import "fmt"

func lexOnly(q *Q) []float64 {
	out := make([]float64, len(q.Cands))
	for i, c := range q.Cands {
		out[i] = c.BM25
		if c.LexRank == 0 {
			out[i] = -1
		}
		if c.Speaker && c.LexRank > 0 {
			out[i] += 0.1 * c.BM25
		}
	}
	return out
}

func perConv(qs []Q) {
	convs := []string{}
	seen := map[string]bool{}
	for _, q := range qs {
		if q.Dataset == "locomo" && !seen[q.Conv] {
			seen[q.Conv] = true
			convs = append(convs, q.Conv)
		}
	}
	cfgs := []struct {
		name string
		s    scorer
	}{
		{"lexical", lexOnly}, {"vector", vectorOnly}, {"a=0.3", weighted(0.3, 0.1)}, {"a=0.5", weighted(0.5, 0.1)}, {"a=0.5 nospk", weighted(0.5, 0)}, {"a=0.7", weighted(0.7, 0.1)},
	}
	for _, cv := range convs {
		var sub []Q
		for _, q := range qs {
			if q.Conv == cv {
				sub = append(sub, q)
			}
		}
		n := map[int]int{}
		for _, q := range sub {
			n[q.Cat]++
		}
		fmt.Printf("%s n=%v\n", cv, n)
		for _, c := range cfgs {
			fmt.Println("  ", line(c.name, evaluate(sub, c.s)))
		}
	}
}
