// Package bm25ref is textbook BM25, the reference the stores' lexical
// lanes are held to: every query term, each weighted by how often the
// query has it, scored in double precision over every document that holds
// it, with the documents weighed as bm25.Weights weighs them. It is slow
// and obvious on purpose; tests use it.
package bm25ref

import (
	"fmt"
	"math"
	"slices"

	"github.com/mneme-ai/mneme/index/bm25"
)

// Index holds the documents' weighted term frequencies.
type Index struct {
	post  map[string][]posting
	lens  map[int64]float64
	avg   float64
	count float64
}

type posting struct {
	key int64
	tf  float64
}

// Hit is a document and its score.
type Hit struct {
	Key   int64
	Score float64
}

// New indexes docs (keys distinct).
func New(docs []bm25.Doc) *Index {
	r := &Index{post: map[string][]posting{}, lens: map[int64]float64{}}
	total := 0.0
	for _, d := range docs {
		tf, n := bm25.Weights(d)
		r.lens[d.Key] = float64(n)
		total += float64(n)
		for t, f := range tf {
			r.post[t] = append(r.post[t], posting{d.Key, float64(f)})
		}
	}
	r.count = float64(len(docs))
	r.avg = total / max(r.count, 1)
	return r
}

// Scores returns the score of every document holding a query word.
func (r *Index) Scores(words []string) map[int64]float64 {
	k1, b := bm25.Params()
	qtf := map[string]float64{}
	for _, w := range words {
		qtf[bm25.Stem(w)]++
	}
	out := map[int64]float64{}
	for t, n := range qtf {
		ps := r.post[t]
		df := float64(len(ps))
		idf := math.Log(1 + (r.count-df+0.5)/(df+0.5))
		for _, p := range ps {
			out[p.key] += n * idf * p.tf * (k1 + 1) / (p.tf + k1*(1-b+b*r.lens[p.key]/r.avg))
		}
	}
	return out
}

// Top returns the k best documents for words, best first (ties: higher key
// first).
func (r *Index) Top(words []string, k int) []Hit {
	var hits []Hit
	for key, s := range r.Scores(words) {
		hits = append(hits, Hit{key, s})
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		if a.Key > b.Key {
			return -1
		}
		return 1
	})
	return hits[:min(k, len(hits))]
}

// Tolerance is how near two scores are to tie: the stores add in single
// precision.
const Tolerance = 1e-5

// Check says how got, a lane's top k for words, differs from the
// reference's top k, or nil if it does not: the same length, and each
// place held by a document of the reference's score there, so that the
// order of documents whose scores tie (within Tolerance) does not matter.
func (r *Index) Check(words []string, got []int64, k int) error {
	scores := r.Scores(words)
	want := r.Top(words, k)
	if len(got) != len(want) {
		return fmt.Errorf("%d hits, want %d", len(got), len(want))
	}
	for i, key := range got {
		s, w := scores[key], want[i].Score
		if math.Abs(s-w) > Tolerance*math.Max(s, w) {
			return fmt.Errorf("place %d holds %d scoring %.6f; reference: %d scoring %.6f", i+1, key, s, want[i].Key, w)
		}
	}
	return nil
}
