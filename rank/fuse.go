package rank

import (
	"cmp"
	"math"
	"slices"
)

// Fuse scores the candidates 0..1 from their lane scores, each normalised
// to 0..1: BM25 relative to the best candidate (0 without a query term),
// and the cosine similarity (negative counts as 0). When one lane ran
// (lexical or vector mode, or a degraded hybrid) its score is the fused
// score. method and alpha are the query's (the profile's unless it says).
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
func (p *Profile) Fuse(found []Found, method Fusion, alpha float64, lexical, vector bool) []*Candidate {
	out := make([]*Candidate, len(found))
	_, top := minMax(len(found), func(i int) float64 { return found[i].BM25 })
	var fit cosineFit
	if lexical && vector && method == Weighted && slices.ContainsFunc(found, func(f Found) bool { return !f.HasVector }) {
		fit = fitCosine(found, top)
	}
	vecRanks := vectorRanks(found)
	for i := range found {
		f := &found[i]
		c := &Candidate{Doc: &f.Doc, Index: i, LexRank: f.LexicalRank, VecRank: vecRanks[i], BM25: f.BM25,
			Matched: f.Matched, VecScore: f.Similarity, NoVector: vector && !f.HasVector, Window: f.Window}
		if top > 0 {
			c.LexScore = f.BM25 / top
		}
		switch {
		case !vector:
			c.Fused = c.LexScore
		case !lexical:
			c.Fused = max(0, c.VecScore)
		case c.NoVector && (method == RRF || !fit.ok): // the lexical lane alone
			c.Fused = c.LexScore
			if method == RRF {
				c.Fused = p.rrf(c.LexRank) / p.rrf(1)
			}
		case method == RRF: // a rank is no evidence by itself: the nearest of unrelated records is still first
			vecRank := c.VecRank
			if c.VecScore < p.MatchFloor {
				vecRank = 0
			}
			c.Fused = (p.rrf(c.LexRank) + p.rrf(vecRank)) / (2 * p.rrf(1))
		default: // cosine is already absolute; BM25 is only comparable within a query
			if c.NoVector {
				c.VecScore = fit.at(c.LexScore)
			}
			c.Fused = alpha*c.LexScore + (1-alpha)*max(0, c.VecScore)
		}
		c.Score = c.Fused
		out[i] = c
	}
	return out
}

// vectorRanks are the candidates' ranks in the vector lane by their exact
// similarity: a candidate the lexical lane found whose similarity beats a
// hit of the vector lane was missed by its approximate index, and ranks
// among its hits (else explain would label it bm25, vector_rank 0, beside
// a vector_score above theirs). One below every hit keeps rank 0.
func vectorRanks(found []Found) []int {
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

func fitCosine(found []Found, top float64) cosineFit {
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

func (p *Profile) rrf(rank int) float64 {
	if rank == 0 {
		return 0
	}
	return 1 / float64(p.RRFK+rank)
}
