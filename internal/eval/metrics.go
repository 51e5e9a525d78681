// Package eval loads external retrieval benchmarks (LoCoMo, BEIR) and
// scores ranked results with their official metrics.
package eval

import (
	"math"
	"slices"
	"sort"
	"time"
)

// RecallAt is LoCoMo's recall: the share of evidence ids among the first k
// retrieved ids; a question without evidence counts as 1.
func RecallAt(retrieved []string, evidence []string, k int) float64 {
	if len(evidence) == 0 {
		return 1
	}
	top := map[string]bool{}
	for _, id := range retrieved[:min(k, len(retrieved))] {
		top[id] = true
	}
	hit := 0
	for _, e := range evidence {
		if top[e] {
			hit++
		}
	}
	return float64(hit) / float64(len(evidence))
}

// NDCGAt is trec_eval's ndcg_cut.k with graded gains: DCG of the first k
// retrieved documents over the DCG of the ideal ordering of all judged ones.
func NDCGAt(retrieved []string, grades map[string]int, k int) float64 {
	dcg := 0.0
	for i, id := range retrieved[:min(k, len(retrieved))] {
		dcg += float64(grades[id]) / math.Log2(float64(i+2))
	}
	var ideal []int
	for _, g := range grades {
		if g > 0 {
			ideal = append(ideal, g)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ideal)))
	idcg := 0.0
	for i, g := range ideal[:min(k, len(ideal))] {
		idcg += float64(g) / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// RecallRelevantAt is BEIR's recall@k: relevant (grade > 0) documents among
// the first k, over all relevant ones.
func RecallRelevantAt(retrieved []string, grades map[string]int, k int) float64 {
	rel := 0
	for _, g := range grades {
		if g > 0 {
			rel++
		}
	}
	if rel == 0 {
		return 0
	}
	hit := 0
	for _, id := range retrieved[:min(k, len(retrieved))] {
		if grades[id] > 0 {
			hit++
		}
	}
	return float64(hit) / float64(rel)
}

// Percentiles returns the median and 99th percentile of lat in
// milliseconds, sorting lat.
func Percentiles(lat []time.Duration) (p50, p99 float64) {
	if len(lat) == 0 {
		return 0, 0
	}
	slices.Sort(lat)
	at := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	return at(0.5), at(0.99)
}

// Median is the middle value of xs (the upper of the two middles when
// their number is even), 0 when xs is empty; xs is not changed.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}

// AUC is the area under the ROC curve of scores that should be high (pos)
// against scores that should be low (neg): the chance that a positive
// drawn at random scores above a negative drawn at random, ties counting
// half. NaN when either is empty.
func AUC(pos, neg []float64) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return math.NaN()
	}
	n := slices.Sorted(slices.Values(neg))
	var sum float64
	for _, p := range pos {
		below, _ := slices.BinarySearch(n, p)
		upto := below
		for upto < len(n) && n[upto] == p {
			upto++
		}
		sum += float64(below) + float64(upto-below)/2
	}
	return sum / float64(len(pos)*len(neg))
}
