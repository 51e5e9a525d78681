package rank

import (
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
	AskedFor string  `json:"asked_for"` // "" when the query does not suggest a type
	Boost    float64 `json:"boost"`
}

// Rerank adds deterministic evidence the lanes do not weigh: whether the
// query's word pairs occur as phrases, how many of its terms the record
// covers, how recent it is among the candidates, and whether its type is
// the one the query asks for.
func (p *Profile) Rerank(query string, cands []*Candidate) {
	words := textnorm.Words(query)
	terms := textnorm.Terms(query)
	asked := AskedType(words)
	var pairs []string
	for i := 0; i+1 < len(words); i++ {
		pairs = append(pairs, words[i]+" "+words[i+1])
	}
	oldest, newest := minMax(len(cands), func(i int) float64 { return float64(cands[i].Doc.Time.UnixNano()) })
	for _, c := range cands {
		text := " " + strings.Join(textnorm.Words(c.Doc.Title+" "+c.Doc.Text), " ") + " "
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
			n = max(n, len(c.Matched)) // the lexical lane matches stems too
			x.Coverage = float64(n) / float64(len(terms))
		}
		x.Recency = scale(float64(c.Doc.Time.UnixNano()), oldest, newest)
		if asked != "" && c.Doc.Type == asked {
			x.TypeFit = 1
		}
		x.Boost = Round(p.RerankPhrase*x.Phrase + p.RerankCoverage*x.Coverage + p.RerankRecency*x.Recency + p.RerankType*x.TypeFit)
		x.Phrase, x.Coverage, x.Recency = Round(x.Phrase), Round(x.Coverage), Round(x.Recency)
		c.Rerank = x
		c.Score += x.Boost
	}
}

// AskedType guesses the memory type a question wants from its opening
// words (folded): how-tos (procedural) for "how do/to", events (episodic)
// for "when/what happened/did", facts (semantic) for "what is/which/who".
func AskedType(words []string) string {
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
		return "procedural"
	case words[0] == "when", strings.HasPrefix(two, "what happened"), words[0] == "did", strings.HasPrefix(two, "last time"):
		return "episodic"
	case strings.HasPrefix(two, "what is"), strings.HasPrefix(two, "what are"), words[0] == "which", words[0] == "who",
		strings.HasPrefix(two, "what does"):
		return "semantic"
	}
	return ""
}

// MMR picks k candidates greedily by maximal marginal relevance:
// λ·score − (1−λ)·(the most similar already chosen), similarity being the
// Jaccard overlap of their terms, so it works in every mode.
func MMR(cands []*Candidate, lambda float64, k int) []*Candidate {
	chosen := make([]*Candidate, 0, k)
	left := append([]*Candidate(nil), cands...)
	for len(chosen) < k && len(left) > 0 {
		best, bestVal, bestSim := 0, math.Inf(-1), 0.0
		for i, c := range left {
			sim := 0.0
			for _, o := range chosen {
				sim = max(sim, jaccard(c.termSet(), o.termSet()))
			}
			if v := lambda*c.Score - (1-lambda)*sim; v > bestVal {
				best, bestVal, bestSim = i, v, sim
			}
		}
		c := left[best]
		s := Round(bestSim)
		c.MMRSim = &s
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
