package cache

import (
	"time"

	"github.com/mneme-ai/mneme"
)

// Forever is the TTL of a kind whose entries stay until a write
// invalidates them (null in config.json).
const Forever time.Duration = -1

// MaxTTL bounds a TTL: past a year an entry is as good as forever, and a
// longer one is a typo.
const MaxTTL = 366 * 24 * time.Hour

// DefaultTTLs are the TTLs of each kind.
var DefaultTTLs = map[string]time.Duration{
	mneme.CacheQueryEmbedding: 6 * time.Hour,
	mneme.CacheRetrieval:      6 * time.Hour,
	mneme.CacheRerank:         6 * time.Hour,
	mneme.CacheContextPackage: 24 * time.Hour,
	mneme.CacheVerifiedAnswer: 7 * 24 * time.Hour,
}

// Policy is what the cache keeps, and for how long.
type Policy struct {
	Off bool // nothing is read or written
	// TTL by kind: Forever, or a positive duration; 0 turns the kind off.
	// A kind left out has its DefaultTTLs.
	TTL map[string]time.Duration
}

// Check refuses unknown kinds and TTLs that are negative (other than
// Forever) or absurdly long.
func (p Policy) Check() error {
	for kind, d := range p.TTL {
		if err := mneme.CheckCacheKind(kind); err != nil {
			return err
		}
		if err := CheckTTL(kind, d); err != nil {
			return err
		}
	}
	return nil
}

// CheckTTL refuses a negative TTL (other than Forever) and one over MaxTTL.
func CheckTTL(kind string, d time.Duration) error {
	switch {
	case d < 0 && d != Forever:
		return mneme.Invalid("cache TTL of %s is negative: give a duration like 6h, \"off\", or null to keep entries until a write invalidates them", kind)
	case d > MaxTTL:
		return mneme.Invalid("cache TTL of %s (%s) is over the limit of 366d: give a shorter one, or null to keep entries until a write invalidates them", kind, d)
	}
	return nil
}

// ttl is kind's TTL under p.
func (p Policy) ttl(kind string) time.Duration {
	if d, ok := p.TTL[kind]; ok {
		return d
	}
	return DefaultTTLs[kind]
}
