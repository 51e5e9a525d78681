package mneme

import (
	"time"

	"github.com/mneme-ai/mneme/rank"
)

// Option configures an Engine at construction.
type Option func(*Engine)

// WithClock replaces the Engine's clock (tests, replays). Every time the
// Engine stamps or computes (TTLs, ages, expiry) comes from it.
func WithClock(now func() time.Time) Option { return func(e *Engine) { e.now = now } }

// WithEmbedder makes the Engine embed what it stores with em (nil: none).
func WithEmbedder(em Embedder) Option { return func(e *Engine) { e.embedder = em } }

// WithEmbedderError records why the Engine has no embedder (a model that
// failed to load): hybrid recall then falls back to words and reports this
// as the reason, and writes store their records pending embedding with it
// as the reason (or fail with it, when they require embedding).
func WithEmbedderError(err error) Option {
	return func(e *Engine) { e.embedder, e.embedderErr = nil, err }
}

// WithEmbedWait sets how long a write waits for one call to the embedder
// (see DefaultEmbedWait).
func WithEmbedWait(d time.Duration) Option { return func(e *Engine) { e.embedWait = d } }

// WithHypothesisGenerator makes HyDE recalls ask g (a language model) for
// hypotheses; without it they use the deterministic generator.
func WithHypothesisGenerator(g HypothesisGenerator) Option { return func(e *Engine) { e.hyde = g } }

// WithProfile makes p the Engine's ranking profile: the tunables of fusion,
// boosts, rerank and feedback (package rank) a query uses unless it names
// another (Query.Profile).
func WithProfile(p rank.Profile) Option { return func(e *Engine) { e.profile = p } }

// WithProfiles gives the Engine named ranking profiles a query may choose
// by name (Query.Profile), like one for documents and one for
// conversations.
func WithProfiles(named map[string]rank.Profile) Option {
	return func(e *Engine) { e.profiles = named }
}

// WithObserver adds o to the Engine's observers.
func WithObserver(o Observer) Option { return func(e *Engine) { e.observers = append(e.observers, o) } }

// Observer hears how the Engine's work goes: recall stage timings for
// metrics, and progress of long work for progress bars and background
// jobs. Either function may be nil.
type Observer struct {
	// Stage is how long a recall stage took: embed, search, rank, expand.
	Stage func(stage string, d time.Duration)
	// Progress counts a task's units done of total (total 0: not known):
	// "embed" (texts embedded, cache hits not counted), "ingest" (files
	// written), "reindex" (records embedded).
	Progress func(task string, done, total int)
	// Cache is a lookup in the result cache: its kind and whether it hit.
	Cache func(kind string, hit bool)
}

// Observe adds o to the Engine's observers; servers call it once as they
// start, before serving.
func (e *Engine) Observe(o Observer) { e.observers = append(e.observers, o) }

func (e *Engine) stage(name string, d time.Duration) {
	for _, o := range e.observers {
		if o.Stage != nil {
			o.Stage(name, d)
		}
	}
}

func (e *Engine) progress(task string, done, total int) {
	for _, o := range e.observers {
		if o.Progress != nil {
			o.Progress(task, done, total)
		}
	}
}
