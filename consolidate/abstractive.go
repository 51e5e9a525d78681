package consolidate

import (
	"context"
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme"
)

// Writer is a language model that can write summaries: llm's Ollama and
// OpenAI-compatible clients are. Summarize finds it on the Engine's
// configured generator (mneme.WithHypothesisGenerator) by type assertion.
type Writer interface {
	// Chat answers user under the system prompt in at most maxTokens.
	Chat(ctx context.Context, system, user string, maxTokens int) (string, error)
	// Health is nil when the model's server answers.
	Health(ctx context.Context) error
	// Model names the provider and the model.
	Model() (provider, model string)
}

// Prompt is the system message of an abstractive summary; %d is the word
// budget. It asks for a faithful digest that keeps what later questions
// ask about (names, dates, numbers, decisions, outcomes) and nothing else.
const Prompt = "You consolidate an AI agent's episodic memories into one long-term memory. " +
	"Summarize the dated events below in at most %d words: plain sentences in time order, each with its date; " +
	"keep names, dates, numbers, places, decisions, preferences and outcomes; " +
	"say only what the events say, and add no advice, no preamble and no heading. Answer with the summary only."

// PromptVersion names Prompt (and how the events are laid out below it);
// change it whenever either changes: it is part of the idempotency key, so
// a new prompt writes a new summary.
const PromptVersion = "summarize-1"

// abstractiveInputWords bounds what the model reads: a larger window is
// first cut down extractively to this many words.
const abstractiveInputWords = 3000

// choose resolves the strategy: abstractive needs a language model that
// answers; auto takes one when it answers and says why it did not.
func choose(ctx context.Context, eng *mneme.Engine, win window, res *Response) (Writer, error) {
	s := win.strategy
	res.Strategy = Extractive
	if s == Extractive {
		return nil, nil
	}
	w, _ := eng.Generator().(Writer)
	var err error
	if w != nil {
		if w, err = pick(w, win.provider, win.model); err != nil {
			return nil, err // a model this deployment does not allow: refused, whatever the strategy
		}
	}
	if w == nil {
		err = mneme.Errorf(mneme.EUNAVAILABLE, "no language model is configured: set llm.provider and llm.model in config.json, or summarize with {{strategy=extractive}}")
	} else if err = w.Health(ctx); err != nil {
		err = &mneme.Error{Code: mneme.EUNAVAILABLE, Err: err, Message: mneme.ErrorMessage(err) + "; or summarize with {{strategy=extractive}}"}
	}
	switch {
	case err == nil:
		res.Strategy, res.PromptVersion = Abstractive, PromptVersion
		res.Provider, res.Model = w.Model()
		return w, nil
	case s == Abstractive:
		return nil, err
	}
	fallBack(res, err)
	return nil, nil
}

// Chooser is a Writer that hands over another model of its provider,
// among those the configuration allows (llm's clients are): a call's
// own choice of model.
type Chooser interface {
	WithModel(model string) (mneme.HypothesisGenerator, error)
}

// pick is the configured model m, or the one provider and model name
// ("" each: m's), which must be among those the configuration allows.
func pick(m Writer, provider, model string) (Writer, error) {
	have, current := m.Model()
	if provider != "" && provider != have {
		return nil, mneme.Invalid("provider %q is not this deployment's language model provider: it allows %s (llm.provider in config.json); leave {{provider}} out", mneme.Clip(provider), have)
	}
	if model == "" || model == current {
		return m, nil
	}
	c, ok := m.(Chooser)
	if !ok {
		return nil, mneme.Invalid("model %q is not allowed: this deployment writes summaries with %s only; leave {{model}} out", mneme.Clip(model), current)
	}
	g, err := c.WithModel(model)
	if err != nil {
		return nil, err
	}
	w, ok := g.(Writer)
	if !ok {
		return nil, mneme.Invalid("model %q cannot write summaries here; leave {{model}} out", mneme.Clip(model))
	}
	return w, nil
}

// fallBack makes res extractive because of the model's failure err.
func fallBack(res *Response, err error) {
	res.Strategy, res.Provider, res.Model, res.PromptVersion = Extractive, "", "", ""
	res.FallbackReason = mneme.ErrorMessage(err)
}

// write writes the summary text: by the model when there is one, else
// extractively. cited are the sources an extractive summary quotes.
func write(ctx context.Context, m Writer, w window, srcs []*mneme.Record) (text string, cited []string, err error) {
	units := sentences(srcs)
	if m == nil {
		text, cited = extract(units, srcs, w.maxWords)
		return text, cited, nil
	}
	events := render(units, srcs, allOf(units))
	if len(strings.Fields(events)) > abstractiveInputWords {
		events, _ = extract(units, srcs, abstractiveInputWords)
	}
	text, err = m.Chat(ctx, fmt.Sprintf(Prompt, w.maxWords), events, 2*w.maxWords+50)
	if err != nil {
		return "", nil, err
	}
	return clipWords(text, w.maxWords), nil, nil
}

// clipWords keeps a model's answer within max words: whole sentences when
// they fit, else the first max words.
func clipWords(text string, max int) string {
	words := strings.Fields(text)
	if len(words) <= max {
		return strings.TrimSpace(text)
	}
	cut := strings.Join(words[:max], " ")
	if i := strings.LastIndexAny(cut, ".!?"); i > len(cut)/2 {
		return cut[:i+1]
	}
	return cut + "…"
}
