package ground

import (
	"context"

	"github.com/mneme-ai/mneme/contextpack"
)

// vectors holds the answer's sentence vectors (the spans keep theirs).
type vectors struct{ sents [][]float32 }

func (v *vectors) sentence(i int) []float32 {
	if v == nil || i >= len(v.sents) {
		return nil
	}
	return v.sents[i]
}

// embed embeds the answer's sentences and the spans in one call; none
// without an embedder.
func embed(ctx context.Context, em Embedder, answer string, sents []contextpack.Range, spans []*span) (*vectors, error) {
	if em == nil {
		return nil, nil
	}
	texts := make([]string, 0, len(sents)+len(spans))
	for _, s := range sents {
		texts = append(texts, answer[s.Start:s.End])
	}
	for _, sp := range spans {
		texts = append(texts, sp.text)
	}
	vecs, err := em.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	for i, sp := range spans {
		sp.vec = vecs[len(sents)+i]
	}
	return &vectors{sents: vecs[:len(sents)]}, nil
}
