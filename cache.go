package mneme

import (
	"context"
	"time"
)

// The kinds of cached results (package cache keeps them).
const (
	CacheQueryEmbedding  = "query_embedding"  // a query's vector, keyed by embedder and the query's sha256
	CacheRetrieval       = "retrieval_result" // a recall's result
	CacheRerank          = "rerank_result"    // the reranker's verdict on a recall's candidates
	CacheContextPackage  = "context_package"  // a context package
	CacheVerifiedAnswer  = "verified_answer"  // an answer a caller verified against a package
	cacheKindsForMessage = "query_embedding, retrieval_result, rerank_result, context_package, verified_answer"
)

// CacheKinds lists the kinds of cached results, in a fixed order.
var CacheKinds = []string{CacheQueryEmbedding, CacheRetrieval, CacheRerank, CacheContextPackage, CacheVerifiedAnswer}

// CheckCacheKind refuses a kind that is not one of CacheKinds.
func CheckCacheKind(kind string) error {
	for _, k := range CacheKinds {
		if k == kind {
			return nil
		}
	}
	return Invalid("cache kind %q is not known: use one of %s", Clip(kind), cacheKindsForMessage)
}

// CacheStore is an optional role: a store that keeps the result cache, and
// a write generation per project that every write to the project's
// records or vectors raises in its own transaction. A cached result is
// keyed by the generations of the projects it read, so a write by any
// process makes it unreachable.
type CacheStore interface {
	// Generation returns the generation of project (0 for one never
	// written); of "" the sum over every project, which any write raises.
	Generation(ctx context.Context, project string) (int64, error)
	// CacheGet returns the entry (kind, key), or nil when there is none or
	// it expired at now.
	CacheGet(ctx context.Context, kind, key string, now time.Time) (*CacheEntry, error)
	// CachePut keeps e, replacing any entry with its kind and key.
	CachePut(ctx context.Context, e CacheEntry) error
	// CachePrune deletes (or with dryRun only counts) the entries sel
	// selects.
	CachePrune(ctx context.Context, sel CacheSelection, now time.Time, dryRun bool) (int, error)
	// CacheStats counts the entries by kind.
	CacheStats(ctx context.Context, now time.Time) ([]CacheKindStats, error)
}

// CacheEntry is one cached result.
type CacheEntry struct {
	Kind          string     `json:"kind"`
	Key           string     `json:"key"` // hex sha256 of the request's canonical JSON
	Payload       []byte     `json:"-"`   // canonical JSON
	PayloadHash   string     `json:"payload_sha256"`
	SchemaVersion int        `json:"schema_version"`
	CreatedAt     time.Time  `json:"created_at"`
	ExpiresAt     *time.Time `json:"expires_at,omitempty"` // nil: kept until a write invalidates it
}

// CacheSelection selects cache entries to prune: those of Kind ("" any),
// only expired ones when Expired, only the one with Key (with its Kind)
// when Key is set. A selection of neither kind nor expiry is refused.
type CacheSelection struct {
	Kind    string
	Expired bool
	Key     string
}

// Check refuses an empty selection and an unknown kind.
func (s CacheSelection) Check() error {
	if s.Kind == "" && !s.Expired {
		return Invalid("prune needs a selection: {{expired}}, {{kind}} or both")
	}
	if s.Key != "" && s.Kind == "" {
		return Invalid("a cache key needs its kind")
	}
	if s.Kind != "" {
		return CheckCacheKind(s.Kind)
	}
	return nil
}

// CacheKindStats counts the entries of one kind.
type CacheKindStats struct {
	Kind    string `json:"kind"`
	Entries int    `json:"entries"`
	Expired int    `json:"expired"`
	Bytes   int64  `json:"bytes"`
}

// ResultCache is the cache the Engine consults (package cache implements
// it over a CacheStore). Lookup hashes req, the whole normalised request,
// with the caller's scope and the generation of project ("" every
// project) into the key it returns; Keep stores v under that key, so a
// write after the lookup leaves v unreachable; it may encode v later, so
// the caller must not change v after. A cache error is a miss, and key ""
// keeps nothing.
type ResultCache interface {
	Lookup(ctx context.Context, kind, project string, req, out any) (key string, hit bool)
	Keep(ctx context.Context, kind, key string, v any, until *time.Time)
}

// CacheStatus is hit or miss for each kind a request consulted.
type CacheStatus map[string]string

// Cache status values.
const (
	CacheHit  = "hit"
	CacheMiss = "miss"
)

// WithCache makes the Engine keep its results in c (nil: none).
func WithCache(c ResultCache) Option { return func(e *Engine) { e.cache = c } }

// Cache returns the Engine's result cache, nil when it has none.
func (e *Engine) Cache() ResultCache { return e.cache }

// CacheLookup consults the Engine's cache for kind (see ResultCache),
// noting hit or miss in st and to the observers.
func (e *Engine) CacheLookup(ctx context.Context, st CacheStatus, kind, project string, req, out any) (string, bool) {
	if e.cache == nil {
		return "", false
	}
	key, hit := e.cache.Lookup(ctx, kind, project, req, out)
	if key == "" {
		return "", false // the kind is off, or the cache could not answer: not consulted
	}
	st.Note(kind, hit)
	for _, o := range e.observers {
		if o.Cache != nil {
			o.Cache(kind, hit)
		}
	}
	return key, hit
}

// CacheKeep keeps v under key (from CacheLookup) until the kind's TTL
// runs out, or until, when sooner.
func (e *Engine) CacheKeep(ctx context.Context, kind, key string, v any, until *time.Time) {
	if e.cache != nil && key != "" {
		e.cache.Keep(ctx, kind, key, v, until)
	}
}

// Note records the outcome of a lookup of kind: a miss stays a miss when
// the kind is consulted again (a HyDE recall embeds two texts).
func (st CacheStatus) Note(kind string, hit bool) {
	if st == nil {
		return
	}
	if hit && st[kind] != CacheMiss {
		st[kind] = CacheHit
	} else {
		st[kind] = CacheMiss
	}
}
