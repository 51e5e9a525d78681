package rank

import (
	"cmp"
	"math"
	"slices"

	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// FeedbackTerms returns up to FeedbackWords words of the best FeedbackHits
// candidates with evidence and a text of FeedbackMinWords, each word
// weighted by its share of each such hit's text times the hit's score, and
// by its rarity among the best FeedbackPool candidates (the words they all
// have say nothing about the best). Words of the query (by stem) are left
// out.
func (p *Profile) FeedbackTerms(cands []*Candidate, terms []string) []string {
	best := slices.Clone(cands)
	slices.SortStableFunc(best, func(a, b *Candidate) int { return cmp.Compare(b.Score, a.Score) })
	best = best[:min(p.FeedbackPool, len(best))]
	have := map[string]bool{}
	for _, t := range terms {
		have[bm25.Stem(t)] = true
	}
	var lending []map[string]float64 // per lending hit, its words' shares of its text
	var scores []float64
	for _, c := range best[:min(p.FeedbackHits, len(best))] {
		if c.Score <= 0 || !p.Evidence(c) || textnorm.CountWords(c.Doc.Text, p.FeedbackMinWords) < p.FeedbackMinWords {
			continue
		}
		words := textnorm.Words(c.Doc.Title + " " + c.Doc.Text)
		share := map[string]float64{}
		for _, w := range words {
			if len(w) >= 3 && !textnorm.IsStopword(w) && !have[bm25.Stem(w)] {
				share[w] += 1 / float64(len(words))
			}
		}
		lending, scores = append(lending, share), append(scores, c.Score)
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
		for _, w := range textnorm.Words(c.Doc.Title + " " + c.Doc.Text) {
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
	return out[:min(p.FeedbackWords, len(out))]
}

// FeedbackQuery is the second search's terms: the query's, each counted
// FeedbackWeight times, then the added words.
func (p *Profile) FeedbackQuery(terms, extra []string) []string {
	out := make([]string, 0, len(terms)*p.FeedbackWeight+len(extra))
	for range p.FeedbackWeight {
		out = append(out, terms...)
	}
	return append(out, extra...)
}

// SplitMatched splits matched terms into the query's and the added words.
func SplitMatched(matched, extra []string) (query, added []string) {
	for _, t := range matched {
		if slices.Contains(extra, t) {
			added = append(added, t)
		} else {
			query = append(query, t)
		}
	}
	return query, added
}
