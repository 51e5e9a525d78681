package mneme

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"sync"
)

// Hypothesis is a passage that might answer a query (HyDE: hypothetical
// document embeddings). Recall embeds it beside the query, so the vector
// lane also looks for answers, not only for restatements of the question.
//
// A hypothesis is bound to the query it was written for (Query): one
// supplied with a recall must name that recall's query, so a hypothesis
// cannot be replayed against another question and steer its answer.
type Hypothesis struct {
	Text             string `json:"hypothesis"`
	Query            string `json:"query"`
	GeneratorID      string `json:"generator_id"`
	GeneratorVersion string `json:"generator_version"`
}

// Check rejects a hypothesis that cannot be used or attributed.
func (h *Hypothesis) Check() error {
	switch {
	case strings.TrimSpace(h.Text) == "":
		return Invalid("hyde.hypothesis is blank: send a passage that might answer the query, or leave hyde out")
	case strings.TrimSpace(h.Query) == "":
		return Invalid("hyde.query is blank: name the query the hypothesis was written for (the request's query)")
	case strings.TrimSpace(h.GeneratorID) == "":
		return Invalid("hyde.generator_id is blank: name what wrote the hypothesis (a model, a person, a tool)")
	}
	return ValidateText(h.Text)
}

// checkFor refuses a hypothesis written for another query than query;
// the two may differ only in white space.
func (h *Hypothesis) checkFor(query string) error {
	if sameQuery(h.Query, query) {
		return nil
	}
	return Invalid("hyde.query %q is not the request's query %q: a hypothesis is bound to the query it was written for; write one for this query, or send hyde true to have one generated",
		Clip(h.Query), Clip(query))
}

func sameQuery(a, b string) bool {
	return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}

// SHA256 is the hex sha256 of the hypothesis text: what a context package
// names it by.
func (h *Hypothesis) SHA256() string {
	sum := sha256.Sum256([]byte(h.Text))
	return hex.EncodeToString(sum[:])
}

// HyDEProvenance is what a context package says of the hypothesis its
// recall embedded: who wrote it, which text (by hash), and whether the
// caller supplied it.
type HyDEProvenance struct {
	GeneratorID      string `json:"generator_id"`
	GeneratorVersion string `json:"generator_version"`
	HypothesisSHA256 string `json:"hypothesis_sha256"`
	Supplied         bool   `json:"supplied"`
}

// Provenance is h's provenance; nil for no hypothesis.
func (h *Hypothesis) Provenance(supplied bool) *HyDEProvenance {
	if h == nil {
		return nil
	}
	return &HyDEProvenance{GeneratorID: h.GeneratorID, GeneratorVersion: h.GeneratorVersion, HypothesisSHA256: h.SHA256(), Supplied: supplied}
}

// HypothesisGenerator writes hypotheses, for instance with a language model.
type HypothesisGenerator interface {
	// Generator names the generator and its version, as its hypotheses do.
	Generator() (id, version string)
	// Hypothesize returns a short passage that might answer query, naming
	// itself as the generator.
	Hypothesize(ctx context.Context, query string) (Hypothesis, error)
}

// The deterministic generator: pseudo-relevance feedback. Its hypothesis is
// the text of the best lexical hits, the passages most likely to resemble
// an answer; embedded beside the query it pulls the vector lane toward
// records that read like those answers.
const (
	PRFGeneratorID      = "mneme/prf"
	PRFGeneratorVersion = "1"
	prfDocs             = 3
	prfWords            = 120
)

// hypothesis returns the query's hypothesis: the one supplied, else the
// generator's (cached by generator, version and query), else the
// deterministic one. nil when there is nothing to build one from.
func (e *Engine) hypothesis(ctx context.Context, q *Query, terms []string) (*Hypothesis, error) {
	if q.Hypothesis != nil {
		return q.Hypothesis, nil
	}
	if e.hyde != nil {
		h, err := e.hypotheses.get(ctx, e.hyde, q.Text)
		return &h, err
	}
	found, err := e.store.Candidates(ctx, CandidateQuery{Terms: terms, Filter: q.Filter, K: prfDocs})
	if err != nil {
		return nil, err
	}
	top := found.List
	slices.SortFunc(top, func(a, b Candidate) int { return a.LexicalRank - b.LexicalRank })
	var words []string
	for _, c := range top {
		words = append(words, strings.Fields(c.Record.Text)...)
	}
	if len(words) == 0 {
		return nil, nil
	}
	return &Hypothesis{Text: strings.Join(words[:min(prfWords, len(words))], " "), Query: q.Text,
		GeneratorID: PRFGeneratorID, GeneratorVersion: PRFGeneratorVersion}, nil
}

// hypothesisCache keeps generated hypotheses, so a repeated query does not
// call the model again. The key names the generator's id and version: a
// different model or prompt never reuses another's answer.
type hypothesisCache struct {
	mu    sync.Mutex
	byKey map[string]Hypothesis
}

const hypothesisCacheSize = 1024

func (c *hypothesisCache) get(ctx context.Context, g HypothesisGenerator, query string) (Hypothesis, error) {
	id, version := g.Generator()
	key := id + "\x00" + version + "\x00" + query
	c.mu.Lock()
	h, ok := c.byKey[key]
	c.mu.Unlock()
	if ok {
		return h, nil
	}
	h, err := g.Hypothesize(ctx, query)
	if err != nil {
		return h, err
	}
	h.Query = query // a generator writes for the query it was given
	if err := h.Check(); err != nil {
		return h, Errorf(EUNAVAILABLE, "the hypothesis generator returned an unusable hypothesis: %s", ErrorMessage(err))
	}
	c.mu.Lock()
	if c.byKey == nil || len(c.byKey) >= hypothesisCacheSize {
		c.byKey = map[string]Hypothesis{} // simple and bounded: start over when full
	}
	c.byKey[key] = h
	c.mu.Unlock()
	return h, nil
}

// Generator returns the language model the Engine was given for HyDE
// (WithHypothesisGenerator), or nil. Capabilities above the Engine find
// what else it can do by type assertion (consolidation asks it to write
// summaries).
func (e *Engine) Generator() HypothesisGenerator { return e.hyde }
