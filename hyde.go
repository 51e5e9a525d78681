package mneme

import (
	"context"
	"strings"
)

// Hypothesis is a passage that might answer a query (HyDE: hypothetical
// document embeddings). Recall embeds it beside the query, so the vector
// lane also looks for answers, not only for restatements of the question.
type Hypothesis struct {
	Text             string `json:"hypothesis"`
	GeneratorID      string `json:"generator_id"`
	GeneratorVersion string `json:"generator_version"`
}

// Check rejects a hypothesis that cannot be used or attributed.
func (h *Hypothesis) Check() error {
	switch {
	case strings.TrimSpace(h.Text) == "":
		return Invalid("hyde.hypothesis is blank: send a passage that might answer the query, or leave hyde out")
	case strings.TrimSpace(h.GeneratorID) == "":
		return Invalid("hyde.generator_id is blank: name what wrote the hypothesis (a model, a person, a tool)")
	}
	return ValidateText(h.Text)
}

// HypothesisGenerator writes hypotheses, for instance with a language model.
type HypothesisGenerator interface {
	// Hypothesize returns a short passage that might answer query, naming
	// itself as the generator.
	Hypothesize(ctx context.Context, query string) (Hypothesis, error)
}
