package main

import "fmt"

// catMeans averages a per-question figure by LoCoMo category and over all
// of categories 1-4 (category 5, adversarial, stays out of "all").
type catMeans struct{ sum, n map[string]float64 }

func (c *catMeans) add(cat int, r float64) {
	if c.sum == nil {
		c.sum, c.n = map[string]float64{}, map[string]float64{}
	}
	for _, g := range []string{fmt.Sprint(cat), "all"} {
		if cat == 5 && g == "all" {
			continue
		}
		c.sum[g] += r
		c.n[g]++
	}
}

func (c *catMeans) means() map[string]float64 {
	out := map[string]float64{}
	for g, s := range c.sum {
		out[g] = s / c.n[g]
	}
	return out
}
