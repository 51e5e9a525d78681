package mneme

import (
	"context"
	"time"
)

// A recall's query is embedded while its search starts: the lexical lane
// needs no vector, so a store runs it meanwhile and waits for the vector
// where its vector lane begins (CandidateQuery.VectorLater). What reads or
// writes the store (the home's embedder, its health, the cache) happens
// before the embedding starts or after the search: the embedding itself
// touches no store, so a search holding connections while it waits can
// never wait for one of its own.

// pendingVector is a query's vector being embedded.
type pendingVector struct {
	done  chan struct{}
	vec   []float32   // the mean of vecs, unit length; nil after a failure
	vecs  [][]float32 // each text's vector, the cached ones filled in before
	fresh []int       // which of vecs the embedder makes
	keys  []string    // their cache keys
	err   error
	at    time.Time // when it was done
}

// wait returns the query vector once it is made; nil if it could not be:
// the search then runs without its vector lane (finishVector says why).
func (p *pendingVector) wait() []float32 {
	<-p.done
	return p.vec
}

// vectorQuery starts embedding the query (and its hypothesis) for the
// vector lane. In hybrid mode a lane that cannot run degrades the result
// (nil) instead of failing it; in vector mode it is an error.
func (e *Engine) vectorQuery(ctx context.Context, q *Query, res *Result, terms []string) (*pendingVector, error) {
	p, err := e.queryVector(ctx, q, res, terms)
	if err != nil {
		return nil, laneFailure(q, res, err)
	}
	return p, nil
}

// laneFailure is err, if the vector lane's failure fails the recall q, or
// nil once res says the recall is degraded.
func laneFailure(q *Query, res *Result, err error) error {
	if q.Mode == Vector || ErrorCode(err) == EINVALID {
		return err
	}
	res.degrade("vector lane unavailable, recalled by words alone: " + ErrorMessage(err))
	return nil
}

// finishVector waits for p, keeps what the embedder made in the cache, or
// records its failure, and returns the query vector (nil: the lane did not
// run, and res says why). A nil p has no vector.
func (e *Engine) finishVector(ctx context.Context, q *Query, res *Result, p *pendingVector) ([]float32, error) {
	if p == nil {
		return nil, nil
	}
	<-p.done
	if p.err != nil {
		err := p.err
		if !isLoadError(err) { // the model did not load: not the provider's failure to record
			_, _ = e.track(ctx, nil, err) // a failure to record it says less than err
		}
		return nil, laneFailure(q, res, err)
	}
	for _, i := range p.fresh {
		e.CacheKeep(ctx, CacheQueryEmbedding, p.keys[i], p.vecs[i], nil)
	}
	return p.vec, nil
}

// queryVector starts embedding the query with the home's embedder.
func (e *Engine) queryVector(ctx context.Context, q *Query, res *Result, terms []string) (*pendingVector, error) {
	if e.embedder == nil {
		if e.embedderErr != nil {
			return nil, e.embedderUnavailable()
		}
		return nil, Errorf(EUNAVAILABLE, "no embedder is configured: configure one, or use {{mode=lexical}}")
	}
	home, ok, err := e.store.HomeEmbedder(ctx)
	if ok && !sameSet(home, e.embedder.Info()) {
		e.followHome(home) // the home switched embedder since this process opened it
	}
	info := e.embedder.Info()
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, Errorf(EUNAVAILABLE, "no memory has a vector yet: run `mneme sync` to embed the stored memories")
	case !sameSet(home, info):
		return nil, Errorf(EUNAVAILABLE, "the stored vectors come from %s version %s but the configured embedder is %s version %s: run `mneme reindex`",
			home.ID(), home.Version, info.ID(), info.Version)
	}
	text, err := e.vectorText(ctx, q) // a store read: before the embedding starts
	if err != nil {
		return nil, err
	}
	if text != q.Text {
		res.VectorQuery = text
	}
	texts := []string{text}
	if q.HyDE {
		h, err := e.hypothesis(ctx, q, terms)
		switch {
		case ErrorCode(err) == EUNAVAILABLE: // the model is down: go on with the query alone, and say so
			res.degrade("no hypothesis, the generator is unavailable: " + ErrorMessage(err))
		case err != nil:
			return nil, err
		case h != nil:
			res.HyDE = h
			texts = append(texts, h.Text)
		}
	}
	return e.embedQuery(ctx, res.Cache, info, texts)
}

// embedQuery starts embedding a query's texts, those the cache lacks,
// unless the embedder is recorded down: a recall does not wait on it
// either (see EmbedderHealth).
func (e *Engine) embedQuery(ctx context.Context, st CacheStatus, info EmbedderInfo, texts []string) (*pendingVector, error) {
	p := &pendingVector{done: make(chan struct{})}
	p.vecs, p.keys = e.cachedVectors(ctx, st, info, texts)
	var missing []string
	for i, v := range p.vecs {
		if v == nil {
			p.fresh, missing = append(p.fresh, i), append(missing, texts[i])
		}
	}
	if len(missing) == 0 {
		p.fill(nil, nil)
		return p, nil
	}
	last, err := e.health(ctx)
	switch {
	case err != nil:
		return nil, err
	case last.skips(info.ID(), e.now()):
		return nil, last.skipped()
	case last != nil:
		// A failure is recorded: its end is recorded when the embedder
		// answers, a write to the store, so this embedding is not left to
		// run beside a search.
		got, err := embedChecked(ctx, e.embedder, missing)
		if isLoadError(err) {
			return nil, err
		}
		if _, terr := e.track(ctx, last, err); err == nil {
			err = terr
		}
		if err != nil {
			return nil, err
		}
		p.fill(got, nil)
		return p, nil
	}
	em := e.embedder // as this recall found it
	go func() { p.fill(embedChecked(ctx, em, missing)) }()
	return p, nil
}

// fill completes p with the vectors the embedder made of the texts the
// cache lacked, or its failure.
func (p *pendingVector) fill(got [][]float32, err error) {
	defer close(p.done)
	p.at = time.Now()
	if p.err = err; err != nil {
		return
	}
	for j, i := range p.fresh {
		p.vecs[i] = got[j]
	}
	p.vec = meanUnit(p.vecs)
}
