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

	recency *float64
	rerank  *RerankExplain
	mmrSim  *float64
	terms   map[string]bool // for diversity, computed on demand
}

// fuse merges the lanes into candidates scored 0..1. With one lane
// present (lexical or vector mode, or a degraded hybrid) its own score is
// the fused score: BM25 relative to the best hit, or the cosine similarity.
func fuse(lex []LexicalHit, vec []VectorHit, method Fusion, alpha float64) []*candidate {
	byID := map[string]*candidate{}
	var out []*candidate
	get := func(r *Record) *candidate {
		c := byID[r.ID]
		if c == nil {
			c = &candidate{rec: r}
			byID[r.ID] = c
			out = append(out, c)
		}
		return c
	}
	lo, hi := minMax(len(lex), func(i int) float64 { return lex[i].BM25 })
	for i, h := range lex {
		c := get(h.Record)
		c.lexRank, c.bm25, c.matched = i+1, h.BM25, h.MatchedTerms
		c.lexScore = h.BM25 / hi
	}
	vlo, vhi := minMax(len(vec), func(i int) float64 { return vec[i].Score })
	for i, h := range vec {
		c := get(h.Record)
		c.vecRank, c.vecScore = i+1, h.Score
	}
	for _, c := range out {
		switch {
		case len(vec) == 0:
			c.fused = c.lexScore
		case len(lex) == 0:
			c.fused = max(0, c.vecScore)
		case method == RRF:
			c.fused = (rrf(c.lexRank) + rrf(c.vecRank)) / (2 * rrf(1))
		default:
			l, v := 0.0, 0.0
			if c.lexRank > 0 {
				l = scale(c.bm25, lo, hi)
			}
			if c.vecRank > 0 {
				v = scale(c.vecScore, vlo, vhi)
			}
			c.fused = alpha*l + (1-alpha)*v
		}
		c.score = c.fused
	}
	return out
}

func rrf(rank int) float64 {
	if rank == 0 {
		return 0
	}
	return 1 / float64(rrfK+rank)
}

func minMax(n int, at func(int) float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := range n {
		lo, hi = min(lo, at(i)), max(hi, at(i))
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
