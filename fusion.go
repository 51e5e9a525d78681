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
	lexRank, vecRank int      // 1-based; 0: the lane did not find it
	bm25             float64  // raw
	lexScore         float64  // 0..1
	vecScore         float64  // cosine similarity (under weighted fusion, estimated when noVector)
	noVector         bool     // the vector lane ran but cannot see the record
	matched          []string // query terms
	feedback         []string // words added by feedback
	fused            float64  // after fusion
	score            float64  // after every stage: what ranks the hits

	speaker float64 // SpeakerBoost, when the query names the speaker
	session float64 // SessionBoost times the best fused score of another turn of its session
	date    float64 // DateBoost, when it happened in the time the query names
	short   float64 // taken away: it is a short turn (ShortTurnPenalty)
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
//
// In hybrid, a candidate the vector lane cannot see (no vector from the
// home's embedder: not embedded yet, or secret) has no cosine, and 0 in
// its place would cap it at alpha under weighted fusion, below weaker
// records that have one. Weighted fusion uses an estimate instead: the
// cosine that the query's embedded lexical candidates show at its lexical
// score (see cosineFit), so it ranks as a record with its words and the
// meaning usual for them would. RRF, which has no scale to estimate on,
// ranks it by the lexical lane alone, scaled as if that lane were the
// only one; so does weighted fusion when no embedded candidate was found
// by words. Each measured best of the schemes tried on half-embedded
// LoCoMo and NFCorpus (docs/performance.md, "A partly embedded home"); the order of
// such candidates among themselves is always their lexical order.
func fuse(found []Candidate, method Fusion, alpha float64, lexical, vector bool) []*candidate {
	out := make([]*candidate, len(found))
	_, top := minMax(len(found), func(i int) float64 { return found[i].BM25 })
	var fit cosineFit
	if lexical && vector && method == Weighted && slices.ContainsFunc(found, func(f Candidate) bool { return !f.HasVector }) {
		fit = fitCosine(found, top)
	}
	vecRanks := vectorRanks(found)
	for i, f := range found {
		c := &candidate{rec: f.Record, lexRank: f.LexicalRank, vecRank: vecRanks[i], bm25: f.BM25,
			matched: f.MatchedTerms, vecScore: f.Similarity, noVector: vector && !f.HasVector}
		if top > 0 {
			c.lexScore = f.BM25 / top
		}
		switch {
		case !vector:
			c.fused = c.lexScore
		case !lexical:
			c.fused = max(0, c.vecScore)
		case c.noVector && (method == RRF || !fit.ok): // the lexical lane alone
			c.fused = c.lexScore
			if method == RRF {
				c.fused = rrf(c.lexRank) / rrf(1)
			}
		case method == RRF: // a rank is no evidence by itself: the nearest of unrelated records is still first
			vecRank := c.vecRank
			if c.vecScore < MatchFloor {
				vecRank = 0
			}
			c.fused = (rrf(c.lexRank) + rrf(vecRank)) / (2 * rrf(1))
		default: // cosine is already absolute; BM25 is only comparable within a query
			if c.noVector {
				c.vecScore = fit.at(c.lexScore)
			}
			c.fused = alpha*c.lexScore + (1-alpha)*max(0, c.vecScore)
		}
		c.score = c.fused
		out[i] = c
	}
	return out
}

// vectorRanks are the candidates' ranks in the vector lane by their exact
// similarity: a candidate the lexical lane found whose similarity beats a
// hit of the vector lane was missed by its approximate index, and ranks
// among its hits (else explain would label it bm25, vector_rank 0, beside
// a vector_score above theirs). One below every hit keeps rank 0.
func vectorRanks(found []Candidate) []int {
	ranks := make([]int, len(found))
	floor, lane := math.Inf(1), false
	for _, f := range found {
		if f.VectorRank > 0 {
			floor, lane = min(floor, f.Similarity), true
		}
	}
	if !lane {
		return ranks
	}
	var in []int
	for i, f := range found {
		if f.VectorRank > 0 || f.HasVector && f.Similarity > floor {
			in = append(in, i)
		}
	}
	slices.SortStableFunc(in, func(a, b int) int {
		if c := cmp.Compare(found[b].Similarity, found[a].Similarity); c != 0 {
			return c
		}
		return cmp.Compare(found[a].VectorRank, found[b].VectorRank)
	})
	for r, i := range in {
		ranks[i] = r + 1
	}
	return ranks
}

// MatchFloor is the cosine similarity from which a record's meaning alone
// is evidence that it answers the query. Below it, a record none of the
// query's terms found is held back (unless the query includes unmatched
// hits), and under RRF its vector rank counts for nothing. Calibrated on
// the dev sets (docs/performance.md, "Nothing is no answer").
const MatchFloor = 0.2

// evidence reports whether c has a reason to be a hit: a query term in its
// words (its text, title, tags, neighbouring turns, or its speaker's
// name), a cosine similarity at least MatchFloor, or an event time in the
// time the query names.
func (c *candidate) evidence() bool {
	return c.bm25 > 0 || len(c.matched) > 0 || c.speaker > 0 || c.date > 0 || (!c.noVector && c.vecScore >= MatchFloor)
}

// cosineFit estimates a candidate's cosine from its lexical score: the
// least-squares line through the (lexical score, cosine) of the candidates
// that have a vector and that the lexical lane ranked (the population a
// record without a vector, found by words alone, belongs to). The slope is
// kept ≥ 0 (more of the query's words never predicts less of its meaning,
// and the estimate keeps lexical order), and is 0 (the mean) with fewer
// than three points. ok is false without any point.
type cosineFit struct {
	a, b float64
	ok   bool
}

func fitCosine(found []Candidate, top float64) cosineFit {
	var n, sx, sy, sxx, sxy float64
	for _, f := range found {
		if f.HasVector && f.LexicalRank > 0 && top > 0 {
			x, y := f.BM25/top, max(0, f.Similarity)
			n, sx, sy, sxx, sxy = n+1, sx+x, sy+y, sxx+x*x, sxy+x*y
		}
	}
	if n == 0 {
		return cosineFit{}
	}
	mx, my := sx/n, sy/n
	b := 0.0
	if v := sxx/n - mx*mx; n >= 3 && v > 1e-12 {
		b = max(0, (sxy/n-mx*my)/v)
	}
	return cosineFit{a: my - b*mx, b: b, ok: true}
}

// at is the estimated cosine at lexical score x, within 0..1.
func (f cosineFit) at(x float64) float64 { return min(1, max(0, f.a+f.b*x)) }

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
