package mneme

import (
	"cmp"
	"math"
	"slices"
)

// candidate is a record found by one lane or both, with what each lane and
// each later stage said about it.
type candidate struct {
	rec              *Record
	lexRank, vecRank int     // 1-based; 0: the lane did not find it
	bm25             float64 // raw
	lexScore         float64 // 0..1
	vecScore         float64 // cosine similarity
	matched          []string
	fused            float64 // after fusion
	score            float64 // after every stage: what ranks the hits

	speaker float64 // SpeakerBoost, when the query names the speaker
	recency *float64
	rerank  *RerankExplain
	mmrSim  *float64
	terms   map[string]bool // for diversity, computed on demand
}

// fuse scores the candidates 0..1 from their lane scores, each normalised
// to 0..1: BM25 relative to the best candidate (0 without a query term),
// and the cosine similarity (negative counts as 0). When one lane ran
// (lexical or vector mode, or a degraded hybrid) its score is the fused
// score.
func fuse(found []Candidate, method Fusion, alpha float64, lexical, vector bool) []*candidate {
	out := make([]*candidate, len(found))
	_, top := minMax(len(found), func(i int) float64 { return found[i].BM25 })
	for i, f := range found {
		c := &candidate{rec: f.Record, lexRank: f.LexicalRank, vecRank: f.VectorRank, bm25: f.BM25,
			matched: f.MatchedTerms, vecScore: f.Similarity}
		if top > 0 {
			c.lexScore = f.BM25 / top
		}
		switch {
		case !vector:
			c.fused = c.lexScore
		case !lexical:
			c.fused = max(0, c.vecScore)
		case method == RRF:
			c.fused = (rrf(c.lexRank) + rrf(c.vecRank)) / (2 * rrf(1))
		default: // cosine is already absolute; BM25 is only comparable within a query
			c.fused = alpha*c.lexScore + (1-alpha)*max(0, c.vecScore)
		}
		c.score = c.fused
		out[i] = c
	}
	return out
}

func rrf(rank int) float64 {
	if rank == 0 {
		return 0
	}
	return 1 / float64(rrfK+rank)
}

// minMax returns the range of at(0..n-1), skipping NaNs.
func minMax(n int, at func(int) float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := range n {
		if x := at(i); !math.IsNaN(x) {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	return lo, hi
}

// scale maps x from [lo, hi] to [0, 1]; a lane whose scores are all equal
// gives each of its records 1.
func scale(x, lo, hi float64) float64 {
	if hi <= lo {
		return 1
	}
	return (x - lo) / (hi - lo)
}

// rankByScore sorts best first; ties go to the newer record, then the id,
// so equal inputs always give the same order.
func rankByScore(cands []*candidate) []*candidate {
	slices.SortStableFunc(cands, func(a, b *candidate) int {
		return cmp.Or(cmp.Compare(b.score, a.score), b.rec.EventTime().Compare(a.rec.EventTime()), cmp.Compare(a.rec.ID, b.rec.ID))
	})
	return cands
}

func normalize(v []float32) {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= inv
	}
}
