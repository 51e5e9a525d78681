package mneme

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/rank"
)

// recallKey is what a recall's cache key covers besides the scope and the
// generations (the cache adds those): the whole normalised query (every
// filter, mode, fusion and option, k), with its text as a hash, and what
// else shapes the result: the embedder and the HyDE generator.
type recallKey struct {
	Query     Query         `json:"query"`
	Embedder  *EmbedderInfo `json:"embedder"`
	Unusable  string        `json:"embedder_error,omitempty"`
	Generator [2]string     `json:"hyde_generator"`
	Profile   rank.Profile  `json:"profile"` // the tunables of ranking
}

// cacheRequest is the key of q for the cache: q with its text hashed, the
// hypothesis text too, and the filter's clock left out (the generations
// and the entry's expiry stand for time).
func (e *Engine) cacheRequest(q Query) recallKey {
	q.Text = TextSHA256(q.Text)
	q.Filter.Now, q.OwnCache = time.Time{}, false
	if q.Hypothesis != nil {
		h := *q.Hypothesis
		h.Text = TextSHA256(h.Text)
		q.Hypothesis = &h
	}
	k := recallKey{Query: q, Generator: [2]string{PRFGeneratorID, PRFGeneratorVersion}, Profile: e.profile}
	if q.prof != nil {
		k.Profile = *q.prof
	}
	if e.embedder != nil {
		info := e.embedder.Info()
		k.Embedder = &info
	}
	if e.embedderErr != nil {
		k.Unusable = "unavailable"
	}
	if e.hyde != nil {
		k.Generator[0], k.Generator[1] = e.hyde.Generator()
	}
	return k
}

// CheckQuery validates q and applies the caller's scope to its filter, as
// Recall does: a use case over recall (a context package) calls it before
// it keys its own cache entry.
func (e *Engine) CheckQuery(ctx context.Context, q *Query) error {
	e.recallDefaults.fill(q) // the deployment's, before the built-in ones
	if err := q.check(); err != nil {
		return err
	}
	if err := e.profileFor(q); err != nil {
		return err
	}
	return e.checkFilter(ctx, &q.Filter)
}

// RecallKey is what the cache key of the recall q (checked) covers besides
// the scope and the generations, for use cases that key their results
// on it.
func (e *Engine) RecallKey(q Query) any { return e.cacheRequest(q) }

// TextSHA256 is the hex sha256 of s: how a cache key names a text it must
// not keep.
func TextSHA256(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// cachedRecall returns q's cached result (nil on a miss) and the key to
// keep a new one under.
func (e *Engine) cachedRecall(ctx context.Context, st CacheStatus, q *Query) (*Result, string) {
	if e.cache == nil || q.OwnCache {
		return nil, ""
	}
	var res Result
	key, hit := e.CacheLookup(ctx, st, CacheRetrieval, q.Filter.Project, e.cacheRequest(*q), &res)
	if !hit {
		return nil, key
	}
	return &res, key
}

// keepRecall caches res unless it is degraded (a lane that comes back
// changes it) or depends on the clock (recency weighting); it expires
// when its first hit does.
func (e *Engine) keepRecall(ctx context.Context, key string, q *Query, res *Result) {
	if key == "" || res.Degraded || q.HalfLife > 0 {
		return
	}
	e.CacheKeep(ctx, CacheRetrieval, key, res.detached(), HitsExpiry(res.Hits))
}

// HitsExpiry is when the first of hits expires, nil if none does: a
// cached result holding it is stale from then.
func HitsExpiry(hits []Hit) *time.Time {
	var at *time.Time
	for _, h := range hits {
		if x := h.Record.ExpiresAt; x != nil && (at == nil || x.Before(*at)) {
			at = x
		}
	}
	return at
}

// queryEmbedding is the key of a query embedding: the embedder's identity
// and the text's sha256, never the text.
type queryEmbedding struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Version  string `json:"version"`
	Dim      int    `json:"dim"`
	SHA256   string `json:"sha256"`
}

// cachedVectors returns the cached embeddings of texts (nil where none),
// and the keys to keep the missing ones under.
func (e *Engine) cachedVectors(ctx context.Context, st CacheStatus, info EmbedderInfo, texts []string) ([][]float32, []string) {
	vecs, keys := make([][]float32, len(texts)), make([]string, len(texts))
	if e.cache == nil {
		return vecs, keys
	}
	for i, t := range texts {
		req := queryEmbedding{Provider: info.Provider, Model: info.Model, Version: info.Version, Dim: info.Dim, SHA256: TextSHA256(t)}
		var v []float32
		if key, hit := e.CacheLookup(ctx, st, CacheQueryEmbedding, "", req, &v); hit && len(v) == info.Dim {
			vecs[i] = v
		} else {
			keys[i] = key
		}
	}
	return vecs, keys
}

// rerankKey is what the reranker's verdict depends on: the query and, for
// each candidate, its version and the terms its lexical lane matched.
type rerankKey struct {
	Query      string     `json:"query_sha256"`
	Weights    [4]float64 `json:"weights"`    // the profile's: phrase, coverage, recency, type
	Candidates [][]string `json:"candidates"` // id, updated_at, matched terms...
}

// rerankCached reranks cands, reusing the verdict cached for the same
// query and candidates.
func (e *Engine) rerankCached(ctx context.Context, st CacheStatus, q *Query, recs []Candidate, cands []*rank.Candidate) {
	p := q.prof
	if e.cache == nil {
		p.Rerank(q.Text, cands)
		return
	}
	k := rerankKey{Query: TextSHA256(q.Text), Candidates: make([][]string, len(cands)),
		Weights: [4]float64{p.RerankPhrase, p.RerankCoverage, p.RerankRecency, p.RerankType}}
	for i, c := range cands {
		k.Candidates[i] = append([]string{c.Doc.ID, recs[c.Index].Record.UpdatedAt.UTC().Format(time.RFC3339Nano)}, c.Matched...)
	}
	slices.SortFunc(k.Candidates, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	var verdict map[string]*RerankExplain
	key, hit := e.CacheLookup(ctx, st, CacheRerank, q.Filter.Project, k, &verdict)
	if hit && len(verdict) == len(cands) {
		for _, c := range cands {
			if x := verdict[c.Doc.ID]; x != nil {
				c.Rerank = x
				c.Score += x.Boost
			}
		}
		return
	}
	p.Rerank(q.Text, cands)
	verdict = make(map[string]*RerankExplain, len(cands))
	for _, c := range cands {
		verdict[c.Doc.ID] = c.Rerank
	}
	e.CacheKeep(ctx, CacheRerank, key, verdict, nil)
}

// detached is a copy of r for the cache, which encodes it later: its hits,
// their records and explanations and its report copied, so the caller may
// change r; without the cache status and the time taken.
func (r *Result) detached() *Result {
	c := *r
	c.Cache, c.TookMS = nil, 0
	c.Hits = make([]Hit, len(r.Hits))
	for i, h := range r.Hits {
		rec := *h.Record
		h.Record = &rec
		if h.Explain != nil {
			x := *h.Explain
			h.Explain = &x
		}
		c.Hits[i] = h
	}
	if r.Report != nil {
		rep := *r.Report
		c.Report = &rep
	}
	return &c
}
