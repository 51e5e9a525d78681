// Package cache is mneme's persistent result cache: query embeddings,
// recall results, rerank verdicts, context packages and verified answers,
// kept in the store (mneme.CacheStore) so every process shares them.
//
// A key is the sha256 of the canonical JSON of the kind, the payload
// schema, the binary's build, the whole normalised request, the caller's scope and the write
// generation of the projects the request reads: a write to a project, by
// any process, raises its generation in the write's transaction, so no
// stale entry is ever read again; and two callers with different scopes
// or clearances never share one.
package cache

import (
	"context"
	"encoding/json"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mneme-ai/mneme"
)

// SchemaVersion is the layout of keys and payloads: raising it turns every
// older entry into a miss.
const SchemaVersion = 1

// build identifies the running binary's code: its module version, VCS
// revision and whether its tree was modified. An entry another build kept
// is a miss: ranking and packaging change between builds while requests
// and ranking profiles stay the same.
var build = buildID()

func buildID() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	id := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
			id += " " + s.Value
		}
	}
	return id
}

// keepWait bounds a cache write: a result is never held up behind another
// process's long write for the sake of caching it.
const keepWait = 250 * time.Millisecond

// Cache implements mneme.ResultCache over a store's cache role.
type Cache struct {
	store  mneme.CacheStore
	policy Policy
	now    func() time.Time
	counts map[string]*counter

	mu      sync.Mutex
	pending map[string]pendingEntry // being written, by kind and key
	slots   chan struct{}
	wg      sync.WaitGroup
	writing sync.Mutex
	writes  int // by this process, counted under writing
}

type counter struct{ hits, misses atomic.Int64 }

type pendingEntry struct {
	v       any
	expires *time.Time
}

// pruneEvery: every so many writes, a process deletes the expired
// entries, so the table does not grow with entries nobody reads again.
const pruneEvery = 500

// maxWriting bounds the entries written in the background at once.
const maxWriting = 64

var _ mneme.ResultCache = (*Cache)(nil)

// New returns the cache of s under p (checked by the caller: see
// Policy.Check), with the clock now.
func New(s mneme.CacheStore, p Policy, now func() time.Time) *Cache {
	c := &Cache{store: s, policy: p, now: now, counts: map[string]*counter{},
		pending: map[string]pendingEntry{}, slots: make(chan struct{}, maxWriting)}
	for _, k := range mneme.CacheKinds {
		c.counts[k] = &counter{}
	}
	return c
}

// For returns the cache of eng's store under p, nil when the store keeps
// none or p turns it off.
func For(s mneme.Store, p Policy, now func() time.Time) *Cache {
	cs, ok := s.(mneme.CacheStore)
	if !ok || p.Off {
		return nil
	}
	return New(cs, p, now)
}

// keyParts is what a key hashes.
type keyParts struct {
	Kind       string `json:"kind"`
	Schema     int    `json:"schema"`
	Build      string `json:"build"`
	Project    string `json:"project"` // "" every project
	Generation int64  `json:"generation"`
	Scope      string `json:"scope"` // mneme.Scope.Hash: projects, write, clearance
	Request    any    `json:"request"`
}

// Key is the key of req of kind, read from project by the caller of ctx.
func (c *Cache) Key(ctx context.Context, kind, project string, req any) (string, error) {
	var gen int64
	if kind != mneme.CacheQueryEmbedding { // an embedding does not depend on what is stored
		var err error
		if gen, err = c.store.Generation(ctx, project); err != nil {
			return "", err
		}
	}
	b, err := Canonical(keyParts{Kind: kind, Schema: SchemaVersion, Build: build, Project: project, Generation: gen,
		Scope: mneme.ScopeFrom(ctx).Hash(), Request: req})
	if err != nil {
		return "", err
	}
	return Hash(b), nil
}

// Lookup decodes into out the entry for req, and returns its key either
// way ("" when the kind is off or the cache cannot answer).
func (c *Cache) Lookup(ctx context.Context, kind, project string, req, out any) (string, bool) {
	if c.policy.ttl(kind) == 0 {
		return "", false
	}
	key, err := c.Key(ctx, kind, project, req)
	if err != nil {
		slog.Debug("cache key", "kind", kind, "err", err)
		return "", false
	}
	hit := c.fromPending(kind, key, out) || c.read(ctx, kind, key, out)
	if n := c.counts[kind]; n != nil && hit {
		n.hits.Add(1)
	} else if n != nil {
		n.misses.Add(1)
	}
	return key, hit
}

// read decodes the live entry (kind, key) into out: a missing, expired,
// older or damaged one is a miss.
func (c *Cache) read(ctx context.Context, kind, key string, out any) bool {
	e, err := c.store.CacheGet(ctx, kind, key, c.now())
	if err != nil || e == nil || e.SchemaVersion != SchemaVersion || Hash(e.Payload) != e.PayloadHash {
		return false
	}
	return json.Unmarshal(e.Payload, out) == nil
}

// Keep stores v under key until kind's TTL runs out, or until when that
// is sooner. v is encoded, made canonical and written in the background
// (Wait waits for it), so a miss costs its caller little; the caller must
// not change v after. Until written, this process reads the entry from
// memory. A failure is only logged: the result stands without it.
func (c *Cache) Keep(ctx context.Context, kind, key string, v any, until *time.Time) {
	ttl := c.policy.ttl(kind)
	if key == "" || ttl == 0 {
		return
	}
	now := c.now().UTC()
	e := mneme.CacheEntry{Kind: kind, Key: key, SchemaVersion: SchemaVersion, CreatedAt: now, ExpiresAt: expiry(now, ttl, until)}
	select {
	case c.slots <- struct{}{}:
	default:
		return // writes are backed up: skip this one rather than queue without bound
	}
	c.mu.Lock()
	c.pending[kind+"\x00"+key] = pendingEntry{v: v, expires: e.ExpiresAt}
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer func() { <-c.slots }()
		c.write(context.WithoutCancel(ctx), e, v)
	}()
}

// write stores e with v, in canonical JSON, as its payload.
func (c *Cache) write(ctx context.Context, e mneme.CacheEntry, v any) {
	defer func() {
		c.mu.Lock()
		delete(c.pending, e.Kind+"\x00"+e.Key)
		c.mu.Unlock()
	}()
	payload, err := Canonical(v)
	if err != nil {
		slog.Debug("cache payload", "kind", e.Kind, "err", err)
		return
	}
	e.Payload, e.PayloadHash = payload, Hash(payload)
	c.writing.Lock() // one write at a time: the others wait here, not on the database's lock
	defer c.writing.Unlock()
	ctx, cancel := context.WithTimeout(ctx, keepWait)
	defer cancel()
	if err := c.store.CachePut(ctx, e); err != nil {
		slog.Debug("cache write", "kind", e.Kind, "err", err)
	}
	if c.writes++; c.writes%pruneEvery == 0 { // under c.writing
		if _, err := c.store.CachePrune(ctx, mneme.CacheSelection{Expired: true}, c.now(), false); err != nil {
			slog.Debug("cache prune", "err", err)
		}
	}
}

// Wait waits for the entries being written: a process calls it before
// it closes the store (mneme.Engine.Close does).
func (c *Cache) Wait() { c.wg.Wait() }

// fromPending decodes into out the entry (kind, key) this process is
// still writing, if any and live.
func (c *Cache) fromPending(kind, key string, out any) bool {
	c.mu.Lock()
	p, ok := c.pending[kind+"\x00"+key]
	c.mu.Unlock()
	if !ok || (p.expires != nil && !c.now().Before(*p.expires)) {
		return false
	}
	raw, err := json.Marshal(p.v)
	return err == nil && json.Unmarshal(raw, out) == nil
}

// expiry is the sooner of now+ttl (none for Forever) and until.
func expiry(now time.Time, ttl time.Duration, until *time.Time) *time.Time {
	var at *time.Time
	if ttl != Forever {
		t := now.Add(ttl)
		at = &t
	}
	if until != nil && (at == nil || until.Before(*at)) {
		t := until.UTC()
		at = &t
	}
	return at
}

// Counts are the hits and misses of one kind since the cache was made.
type Counts struct {
	Hits   int64 `json:"hits"`
	Misses int64 `json:"misses"`
}

// Counts returns the hits and misses of each kind, in this process.
func (c *Cache) Counts() map[string]Counts {
	out := make(map[string]Counts, len(c.counts))
	for k, n := range c.counts {
		out[k] = Counts{Hits: n.hits.Load(), Misses: n.misses.Load()}
	}
	return out
}
