package config

import (
	"bytes"
	"encoding/json"
	"sort"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/cache"
)

// Cache configures the result cache (package cache): "off": true turns it
// off; ttl sets a kind's TTL, like "6h" or "7d", "off" for none of that
// kind, or null to keep its entries until a write invalidates them.
type Cache struct {
	Off bool                       `json:"off,omitempty"`
	TTL map[string]json.RawMessage `json:"ttl,omitempty"`
}

// Policy checks the cache section: an unknown kind, a TTL that is not a
// duration, negative or over a year is an error, never a silent default.
func (c Cache) Policy() (cache.Policy, error) {
	p := cache.Policy{Off: c.Off, TTL: map[string]time.Duration{}}
	kinds := make([]string, 0, len(c.TTL))
	for k := range c.TTL {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		if err := mneme.CheckCacheKind(kind); err != nil {
			return p, mneme.Prefix(FileName+": cache.ttl", err)
		}
		d, err := parseTTL(kind, c.TTL[kind])
		if err != nil {
			return p, err
		}
		p.TTL[kind] = d
	}
	return p, p.Check()
}

// parseTTL reads one TTL: null (cache.Forever), "off" (0) or a duration.
func parseTTL(kind string, raw json.RawMessage) (time.Duration, error) {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return cache.Forever, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, mneme.Invalid("%s: cache.ttl.%s must be a duration like \"6h\" or \"7d\", \"off\", or null", FileName, kind)
	}
	if s == "off" {
		return 0, nil
	}
	if len(s) > 0 && s[0] == '-' {
		return 0, mneme.Invalid("%s: cache.ttl.%s %q is negative: give a duration like \"6h\", \"off\", or null", FileName, kind, mneme.Clip(s))
	}
	d, err := mneme.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, mneme.Invalid("%s: cache.ttl.%s %q is not a positive duration: use forms like 6h or 7d, \"off\", or null", FileName, kind, mneme.Clip(s))
	}
	if err := cache.CheckTTL(kind, d); err != nil {
		return 0, mneme.Prefix(FileName, err)
	}
	return d, nil
}
