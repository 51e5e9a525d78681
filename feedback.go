package mneme

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// Pseudo-relevance feedback (RM3-like): a short hybrid query adds the words
// that its best hits share and it lacks, and searches again. Measured with
// `mneme bench` (README, "Lexical scoring and feedback"): NFCorpus train and
// dev gain 0.01 nDCG@10; on LoCoMo's chat turns feedback lost recall at
// every setting tried, so it needs hits of feedbackMinWords.
const (
	feedbackHits     = 3  // the best first-round hits that lend their words
	feedbackWords    = 10 // words added at most
	feedbackWeight   = 4  // each query term counts this many times against one added word
	feedbackMinWords = 80 // a hit's text shorter than this tells its topic too poorly to lend words
	feedbackPool     = 50 // the best candidates a word's rarity is counted among
	feedbackMaxTerms = 13 // a query of more terms says enough already: it searches once
)

// feedback searches again with the words feedbackTerms returns, if any:
// found becomes what the second search found, and it returns the new
// candidates with their boosts, and the added words.
func (e *Engine) feedback(ctx context.Context, q *Query, cq CandidateQuery, found *Candidates, cands []*candidate, terms []string) ([]*candidate, []string, error) {
	if q.NoFeedback || q.Mode != Hybrid || len(terms) > feedbackMaxTerms {
		return cands, nil, nil
	}
	extra := feedbackTerms(cands, terms)
	if len(extra) == 0 {
		return cands, nil, nil
	}
	asked := cq.Terms // with the query's own frequencies
	cq.Terms = make([]string, 0, len(asked)*feedbackWeight+len(extra))
	for range feedbackWeight {
		cq.Terms = append(cq.Terms, asked...)
	}
	cq.Terms = append(cq.Terms, extra...)
	again, err := e.store.Candidates(ctx, cq)
	if err != nil {
		return nil, nil, err
	}
	*found = again
	cands = firstScores(found.List, q, cq.Vector != nil, terms)
	for _, c := range cands {
		c.matched, c.feedback = splitMatched(c.matched, extra)
	}
	return cands, extra, nil
}

// feedbackTerms returns up to feedbackWords words of the best
// feedbackHits candidates with evidence and a text of feedbackMinWords,
// each word weighted by its share of each such hit's text times the hit's
// score, and by its rarity among the best feedbackPool candidates (the
// words they all have say nothing about the best). Words of the query (by
// stem) are left out.
func feedbackTerms(cands []*candidate, terms []string) []string {
	best := slices.Clone(cands)
	slices.SortStableFunc(best, func(a, b *candidate) int { return cmp.Compare(b.score, a.score) })
	best = best[:min(feedbackPool, len(best))]
	have := map[string]bool{}
	for _, t := range terms {
		have[bm25.Stem(t)] = true
	}
	var lending []map[string]float64 // per lending hit, its words' shares of its text
	var scores []float64
	for _, c := range best[:min(feedbackHits, len(best))] {
		if c.score <= 0 || !c.evidence() || textnorm.CountWords(c.rec.Text, feedbackMinWords) < feedbackMinWords {
			continue
		}
		words := textnorm.Words(c.rec.Title + " " + c.rec.Text)
		share := map[string]float64{}
		for _, w := range words {
			if len(w) >= 3 && !textnorm.IsStopword(w) && !have[bm25.Stem(w)] {
				share[w] += 1 / float64(len(words))
			}
		}
		lending, scores = append(lending, share), append(scores, c.score)
	}
	if len(lending) == 0 {
		return nil
	}
	type count struct{ df, last int }
	df := map[string]*count{} // of the lending words only
	for _, share := range lending {
		for w := range share {
			df[w] = &count{last: -1}
		}
	}
	for i, c := range best {
		for _, w := range textnorm.Words(c.rec.Title + " " + c.rec.Text) {
			if n := df[w]; n != nil && n.last != i {
				n.df, n.last = n.df+1, i
			}
		}
	}
	weight := map[string]float64{}
	for i, share := range lending {
		for w, p := range share {
			weight[w] += scores[i] * p * math.Log(float64(len(best)+1)/float64(df[w].df))
		}
	}
	out := make([]string, 0, len(weight))
	for w := range weight {
		out = append(out, w)
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Or(cmp.Compare(weight[b], weight[a]), cmp.Compare(a, b)) })
	return out[:min(feedbackWords, len(out))]
}

// splitMatched splits matched terms into the query's and the added words.
func splitMatched(matched, extra []string) (query, added []string) {
	for _, t := range matched {
		if slices.Contains(extra, t) {
			added = append(added, t)
		} else {
			query = append(query, t)
		}
	}
	return query, added
}
