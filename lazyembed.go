package mneme

import (
	"context"
	"errors"
	"sync"
)

// WithLazyEmbedder makes the Engine embed with the embedder load returns,
// loaded on first use: a process whose recall is answered from the cache
// never loads a model. info is what the embedder will say it is (the
// home's recorded embedder); one that loads as something else fails.
func WithLazyEmbedder(info EmbedderInfo, load func() (Embedder, error)) Option {
	return func(e *Engine) { e.embedder, e.embedderErr = &lazyEmbedder{info: info, load: load}, nil }
}

type lazyEmbedder struct {
	info EmbedderInfo
	load func() (Embedder, error)
	once sync.Once
	em   Embedder
	err  error
}

// loadError is a lazy embedder's failure to load: like an embedder that
// could not load at start, it is not a failure of the provider to record.
type loadError struct{ error }

func (l *lazyEmbedder) Info() EmbedderInfo { return l.info }

func (l *lazyEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	l.once.Do(func() {
		l.em, l.err = l.load()
		if l.err == nil && l.em.Info() != l.info {
			l.err = Errorf(EUNAVAILABLE, "the embedder loaded as %s version %s, not %s version %s: run `mneme reindex`",
				l.em.Info().ID(), l.em.Info().Version, l.info.ID(), l.info.Version)
		}
		if l.err != nil {
			l.err = loadError{l.err}
		}
	})
	if l.err != nil {
		return nil, l.err
	}
	return l.em.Embed(ctx, texts)
}

func (e loadError) Unwrap() error { return e.error }

func isLoadError(err error) bool {
	var le loadError
	return errors.As(err, &le)
}
