package ground

import (
	"context"
	"slices"

	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// Which spans are compared by meaning. A package of up to allSpans spans
// is embedded whole; of a larger one, each sentence's spansPerSentence
// best spans by term overlap (ties in package order), taken rank by rank
// across the sentences (every sentence's best before any's second) up to
// maxSpans. A span not embedded has semantic similarity 0. Embedding is
// the cost of a check with a model (~7 ms of CPU a text on the built-in
// model, whatever its length up to a few sentences); a 2,000-token
// package has about 60 spans. With 2 spans a sentence and at most 16, a
// check in BenchmarkGroundModel cost 25 ms of CPU; with 1 and 12, 16 ms.
const (
	allSpans         = 8
	spansPerSentence = 1
	maxSpans         = 12
)

// vectors holds the answer's sentence vectors (the spans keep theirs).
type vectors struct{ sents [][]float32 }

func (v *vectors) sentence(i int) []float32 {
	if v == nil || i >= len(v.sents) {
		return nil
	}
	return v.sents[i]
}

// embed embeds the answer's sentences numbered in open and the spans that
// matter to them (see allSpans) in one call, each distinct text once;
// none without an embedder or an open sentence.
func embed(ctx context.Context, em Embedder, answer string, all []contextpack.Range, open []int, spans []*span) (*vectors, error) {
	if em == nil || len(open) == 0 {
		return nil, nil
	}
	sents := make([]contextpack.Range, len(open))
	for i, o := range open {
		sents[i] = all[o]
	}
	chosen := choose(answer, sents, spans)
	var texts []string
	index := map[string]int{}
	at := func(t string) int {
		i, ok := index[t]
		if !ok {
			i = len(texts)
			index[t] = i
			texts = append(texts, t)
		}
		return i
	}
	sentAt := make([]int, len(sents))
	for i, s := range sents {
		sentAt[i] = at(answer[s.Start:s.End])
	}
	spanAt := make([]int, len(chosen))
	for i, sp := range chosen {
		spanAt[i] = at(sp.text)
	}
	vecs, err := em.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	for i, sp := range chosen {
		sp.vec = vecs[spanAt[i]]
	}
	out := &vectors{sents: make([][]float32, len(all))}
	for i, o := range open {
		out.sents[o] = vecs[sentAt[i]]
	}
	return out, nil
}

// choose picks the spans to embed.
func choose(answer string, sents []contextpack.Range, spans []*span) []*span {
	if len(spans) <= allSpans {
		return spans
	}
	ranked := make([][]*span, len(sents)) // per sentence, its best spans
	for i, s := range sents {
		type scored struct {
			sp *span
			n  int
		}
		var stems []string
		for _, t := range textnorm.Terms(answer[s.Start:s.End]) {
			stems = append(stems, bm25.Stem(t))
		}
		var overlap []scored
		for _, sp := range spans {
			n := 0
			for _, st := range stems {
				if sp.stems[st] {
					n++
				}
			}
			if n > 0 {
				overlap = append(overlap, scored{sp, n})
			}
		}
		slices.SortStableFunc(overlap, func(a, b scored) int { return b.n - a.n })
		for _, o := range overlap[:min(spansPerSentence, len(overlap))] {
			ranked[i] = append(ranked[i], o.sp)
		}
	}
	var out []*span
	seen := map[*span]bool{}
	for r := range spansPerSentence {
		for _, best := range ranked {
			if r < len(best) && !seen[best[r]] && len(out) < maxSpans {
				seen[best[r]] = true
				out = append(out, best[r])
			}
		}
	}
	return out
}
