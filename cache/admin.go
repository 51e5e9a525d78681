package cache

import (
	"context"
	"fmt"
	"time"

	"github.com/mneme-ai/mneme"
)

// Stats is what `mneme cache stats` shows: the entries by kind, each
// kind's TTL, and the hits and misses of this process.
type Stats struct {
	Enabled bool        `json:"enabled"`
	Kinds   []KindStats `json:"kinds"`
	Entries int         `json:"entries"`
	Bytes   int64       `json:"bytes"`
}

// KindStats describes one kind.
type KindStats struct {
	mneme.CacheKindStats
	TTL string `json:"ttl"` // like 6h0m0s; "off"; "until invalidated"
	Counts
}

// ownAll refuses a caller limited to projects (the cache spans them all).
func ownAll(ctx context.Context, what string, write bool) error {
	sc := mneme.ScopeFrom(ctx)
	if len(sc.Projects) > 0 {
		return mneme.Errorf(mneme.EFORBIDDEN, "token %q covers only some projects and %s spans all of them", sc.Name, what)
	}
	if write && !sc.Write {
		return mneme.Errorf(mneme.EFORBIDDEN, "token %q is read-only and %s writes: use a token with access write", sc.Name, what)
	}
	return nil
}

// store returns eng's cache role, and its cache (nil when off).
func store(eng *mneme.Engine) (mneme.CacheStore, *Cache, error) {
	cs, ok := eng.Store().(mneme.CacheStore)
	if !ok {
		return nil, nil, mneme.Errorf(mneme.EUNAVAILABLE, "this store keeps no result cache")
	}
	c, _ := eng.Cache().(*Cache)
	return cs, c, nil
}

// StatsOf counts eng's cache entries by kind.
func StatsOf(ctx context.Context, eng *mneme.Engine) (Stats, error) {
	if err := ownAll(ctx, "cache stats", false); err != nil {
		return Stats{}, err
	}
	cs, c, err := store(eng)
	if err != nil {
		return Stats{}, err
	}
	byKind, err := cs.CacheStats(ctx, eng.Now())
	if err != nil {
		return Stats{}, err
	}
	st := Stats{Enabled: c != nil, Kinds: make([]KindStats, len(mneme.CacheKinds))}
	policy, counts := Policy{Off: true}, map[string]Counts{}
	if c != nil {
		policy, counts = c.policy, c.Counts()
	}
	for i, kind := range mneme.CacheKinds {
		k := KindStats{CacheKindStats: mneme.CacheKindStats{Kind: kind}, TTL: ttlText(policy, kind), Counts: counts[kind]}
		for _, s := range byKind {
			if s.Kind == kind {
				k.CacheKindStats = s
			}
		}
		st.Kinds[i], st.Entries, st.Bytes = k, st.Entries+k.Entries, st.Bytes+k.Bytes
	}
	return st, nil
}

func ttlText(p Policy, kind string) string {
	switch d := p.ttl(kind); {
	case p.Off || d == 0:
		return "off"
	case d == Forever:
		return "until invalidated"
	default:
		return d.String()
	}
}

// PruneResult says what a prune deleted (or would, on a dry run).
type PruneResult struct {
	Kind    string `json:"kind,omitempty"`
	Expired bool   `json:"expired,omitempty"`
	DryRun  bool   `json:"dry_run,omitempty"`
	Deleted int    `json:"deleted"`
}

// Prune deletes the entries sel selects (an explicit selection: a kind,
// expired entries, or both), or counts them on a dry run.
func Prune(ctx context.Context, eng *mneme.Engine, sel mneme.CacheSelection, dryRun bool) (PruneResult, error) {
	if err := sel.Check(); err != nil {
		return PruneResult{}, err
	}
	if err := ownAll(ctx, "cache prune", !dryRun); err != nil {
		return PruneResult{}, err
	}
	cs, _, err := store(eng)
	if err != nil {
		return PruneResult{}, err
	}
	n, err := cs.CachePrune(ctx, sel, eng.Now(), dryRun)
	return PruneResult{Kind: sel.Kind, Expired: sel.Expired, DryRun: dryRun, Deleted: n}, err
}

// Probe writes an entry of its own, reads it back, checks that it reads as
// a miss once expired, and prunes it: doctor's check that the cache works.
func Probe(ctx context.Context, cs mneme.CacheStore, now time.Time) error {
	payload := []byte(`{"probe":true}`)
	at := now.Add(time.Minute)
	e := mneme.CacheEntry{Kind: mneme.CacheRetrieval, Key: "doctor-probe-" + Hash([]byte(now.String())), Payload: payload,
		PayloadHash: Hash(payload), SchemaVersion: SchemaVersion, CreatedAt: now, ExpiresAt: &at}
	if err := cs.CachePut(ctx, e); err != nil {
		return err
	}
	got, err := cs.CacheGet(ctx, e.Kind, e.Key, now)
	switch {
	case err != nil:
		return err
	case got == nil || got.PayloadHash != e.PayloadHash:
		return mneme.Errorf(mneme.EINTERNAL, "the cache did not return the entry just written")
	}
	if got, err := cs.CacheGet(ctx, e.Kind, e.Key, at); err != nil || got != nil {
		return mneme.Errorf(mneme.EINTERNAL, "the cache returned an expired entry")
	}
	n, err := cs.CachePrune(ctx, mneme.CacheSelection{Kind: e.Kind, Expired: true, Key: e.Key}, at, true)
	if err == nil && n != 1 {
		err = mneme.Errorf(mneme.EINTERNAL, "a prune of expired entries does not select the probe's")
	}
	if err != nil {
		return err
	}
	n, err = cs.CachePrune(ctx, mneme.CacheSelection{Kind: e.Kind, Key: e.Key}, at, false)
	if err == nil && n != 1 {
		err = mneme.Errorf(mneme.EINTERNAL, "the probe's prune deleted %d entries, not its own 1", n)
	}
	return err
}

// Check is doctor's check of eng's cache: its tables answer, and a probe
// entry round-trips (written, read, a miss once expired, pruned alone).
func Check(ctx context.Context, eng *mneme.Engine) mneme.HealthCheck {
	hc := mneme.HealthCheck{Name: "cache"}
	cs, c, err := store(eng)
	if err != nil {
		hc.OK, hc.Detail = true, mneme.ErrorMessage(err)
		return hc
	}
	var err2 error
	if sc, ok := cs.(interface{ CacheSchema(context.Context) error }); ok {
		err2 = sc.CacheSchema(ctx)
	}
	st, err := StatsOf(ctx, eng)
	if err == nil {
		err = err2
	}
	if err == nil {
		_, err = cs.Generation(ctx, "")
	}
	if err == nil {
		err = Probe(ctx, cs, eng.Now())
	}
	if err != nil {
		hc.Detail, hc.Fix = "the result cache does not work: "+mneme.ErrorMessage(err), "run `mneme cache clear --kind KIND` for each kind, or set \"cache\": {\"off\": true} in config.json"
		return hc
	}
	state := "on"
	if c == nil {
		state = "off"
	}
	hc.OK, hc.Detail = true, fmt.Sprintf("%s, %d entries, %d bytes; tables and indexes present; a probe entry was written, read, missed once expired and pruned", state, st.Entries, st.Bytes)
	return hc
}
