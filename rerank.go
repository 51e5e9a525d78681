package mneme

import (
	"context"
	"math"
	"strings"

	"github.com/mneme-ai/mneme/internal/textnorm"
)

// RerankExplain shows the reranker's features and their sum: each feature
// is 0..1 and adds its weight times its value to the fused score.
type RerankExplain struct {
	Phrase   float64 `json:"phrase"`    // share of the query's word pairs found verbatim
	Coverage float64 `json:"coverage"`  // share of the query's terms the record contains
	Recency  float64 `json:"recency"`   // 1 for the newest candidate, 0 for the oldest
	TypeFit  float64 `json:"type_fit"`  // 1 when the record has the type the query asks for
	AskedFor Type    `json:"asked_for"` // "" when the query does not suggest a type
	Boost    float64 `json:"boost"`
}

// Reranker weights: coverage and phrases refine word matching; recency and
// type break near-ties. Their sum (0.5) keeps a strong fused lead intact.
const (
	wPhrase   = 0.15
	wCoverage = 0.2
	wRecency  = 0.05
	wType     = 0.1
)

// shape applies recency weighting and the reranker to the fused scores.
func (e *Engine) shape(ctx context.Context, st CacheStatus, q *Query, cands []*candidate) {
	if q.HalfLife > 0 {
		now := e.now()
		for _, c := range cands {
			age := max(0, now.Sub(c.rec.EventTime()).Hours())
			f := round(math.Exp2(-age / q.HalfLife.Hours()))
			c.recency = &f
			c.score *= f
		}
	}
	if q.Rerank {
		e.rerankCached(ctx, st, q, cands)
	}
}

// rerank adds deterministic evidence the lanes do not weigh: whether the
// query's word pairs occur as phrases, how many of its terms the record
// covers, how recent it is among the candidates, and whether its type is
// the one the query asks for.
func rerank(query string, cands []*candidate) {
	words := textnorm.Words(query)
	terms := textnorm.Terms(query)
	asked := askedType(words)
	var pairs []string
	for i := 0; i+1 < len(words); i++ {
		pairs = append(pairs, words[i]+" "+words[i+1])
	}
	oldest, newest := minMax(len(cands), func(i int) float64 { return float64(cands[i].rec.EventTime().UnixNano()) })
	for _, c := range cands {
		text := " " + strings.Join(textnorm.Words(c.rec.Title+" "+c.rec.Text), " ") + " "
		x := &RerankExplain{AskedFor: asked}
		if len(pairs) > 0 {
			n := 0
			for _, p := range pairs {
				if strings.Contains(text, " "+p+" ") {
					n++
				}
			}
			x.Phrase = float64(n) / float64(len(pairs))
		}
		if len(terms) > 0 {
			have := c.termSet()
			n := 0
			for _, t := range terms {
				if have[t] {
					n++
				}
			}
			n = max(n, len(c.matched)) // the lexical lane matches stems too
			x.Coverage = float64(n) / float64(len(terms))
		}
		x.Recency = scale(float64(c.rec.EventTime().UnixNano()), oldest, newest)
		if asked != "" && c.rec.Type == asked {
			x.TypeFit = 1
		}
		x.Boost = round(wPhrase*x.Phrase + wCoverage*x.Coverage + wRecency*x.Recency + wType*x.TypeFit)
		x.Phrase, x.Coverage, x.Recency = round(x.Phrase), round(x.Coverage), round(x.Recency)
		c.rerank = x
		c.score += x.Boost
	}
}

// askedType guesses the memory type a question wants from its opening
// words: how-tos for "how do/to", events for "when/what happened/did",
// facts for "what is/which/who".
func askedType(words []string) Type {
	if len(words) == 0 {
		return ""
	}
	two := words[0]
	if len(words) > 1 {
		two += " " + words[1]
	}
	switch {
	case strings.HasPrefix(two, "how to"), strings.HasPrefix(two, "how do"), strings.HasPrefix(two, "how can"),
		strings.HasPrefix(two, "how should"), words[0] == "steps":
		return Procedural
	case words[0] == "when", strings.HasPrefix(two, "what happened"), words[0] == "did", strings.HasPrefix(two, "last time"):
		return Episodic
	case strings.HasPrefix(two, "what is"), strings.HasPrefix(two, "what are"), words[0] == "which", words[0] == "who",
		strings.HasPrefix(two, "what does"):
		return Semantic
	}
	return ""
}

// termSet is the record's folded terms, for coverage and diversity.
func (c *candidate) termSet() map[string]bool {
	if c.terms == nil {
		c.terms = map[string]bool{}
		for _, t := range textnorm.Terms(c.rec.Title + " " + c.rec.Text) {
			c.terms[t] = true
		}
	}
	return c.terms
}

// mmr picks k candidates greedily by maximal marginal relevance:
// λ·score − (1−λ)·(the most similar already chosen), similarity being the
// Jaccard overlap of their terms, so it works in every mode.
func mmr(cands []*candidate, lambda float64, k int) []*candidate {
	chosen := make([]*candidate, 0, k)
	left := append([]*candidate(nil), cands...)
	for len(chosen) < k && len(left) > 0 {
		best, bestVal, bestSim := 0, math.Inf(-1), 0.0
		for i, c := range left {
			sim := 0.0
			for _, o := range chosen {
				sim = max(sim, jaccard(c.termSet(), o.termSet()))
			}
			if v := lambda*c.score - (1-lambda)*sim; v > bestVal {
				best, bestVal, bestSim = i, v, sim
			}
		}
		c := left[best]
		s := round(bestSim)
		c.mmrSim = &s
		chosen = append(chosen, c)
		left = append(left[:best], left[best+1:]...)
	}
	return chosen
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	n := 0
	for t := range a {
		if b[t] {
			n++
		}
	}
	return float64(n) / float64(len(a)+len(b)-n)
}
