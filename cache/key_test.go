package cache_test

import (
	"context"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/cache"
	"github.com/mneme-ai/mneme/sqlite"
)

// TestKeysNeverShared: the same request under any two different scopes
// (projects, write access, clearance) has two keys; under the same scope,
// one; and a write to the project it reads changes it.
func TestKeysNeverShared(t *testing.T) {
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := cache.New(s, cache.Policy{}, time.Now)
	req := mneme.Query{Text: "the deploy", K: 10, Filter: mneme.Filter{Project: "ops"}}
	scopes := []mneme.Scope{
		mneme.Owner,
		{Name: "a", Projects: []string{"ops"}},
		{Name: "b", Projects: []string{"ops"}, Write: true},
		{Name: "c", Projects: []string{"ops"}, Clearance: mneme.Secret},
		{Name: "d", Projects: []string{"ops", "web"}},
		{Name: "e"},
	}
	seen := map[string]int{}
	for i, sc := range scopes {
		key, err := c.Key(mneme.WithScope(context.Background(), sc), mneme.CacheRetrieval, "ops", req)
		if err != nil {
			t.Fatal(err)
		}
		if j, ok := seen[key]; ok {
			t.Fatalf("scopes %+v and %+v share a key", scopes[j], sc)
		}
		seen[key] = i
	}
	ctx := mneme.WithScope(context.Background(), mneme.Scope{Name: "renamed", Projects: []string{"ops"}})
	if key, _ := c.Key(ctx, mneme.CacheRetrieval, "ops", req); seen[key] != 1 {
		t.Fatal("the same scope under another name has another key")
	}
	secret := req
	secret.Filter.Clearance = mneme.Secret
	k1, _ := c.Key(ctx, mneme.CacheRetrieval, "ops", req)
	k2, _ := c.Key(ctx, mneme.CacheRetrieval, "ops", secret)
	if k1 == k2 {
		t.Fatal("two clearances in the filter share a key")
	}
	eng := mneme.NewEngine(s)
	if _, err := eng.Remember(context.Background(), []*mneme.Record{{Project: "ops", Text: "a write"}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if k3, _ := c.Key(ctx, mneme.CacheRetrieval, "ops", req); k3 == k1 {
		t.Fatal("a write to the project left the key unchanged")
	}
}

// TestExpiredPrunedOnTheWay: a process that keeps writing entries deletes
// the expired ones as it goes.
func TestExpiredPrunedOnTheWay(t *testing.T) {
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	past := time.Now().Add(-time.Hour)
	if err := s.CachePut(ctx, mneme.CacheEntry{Kind: mneme.CacheRetrieval, Key: "old", Payload: []byte("1"), PayloadHash: "h", SchemaVersion: 1, CreatedAt: past, ExpiresAt: &past}); err != nil {
		t.Fatal(err)
	}
	c := cache.New(s, cache.Policy{}, time.Now)
	for i := range 500 {
		key, _ := c.Key(ctx, mneme.CacheRetrieval, "", i)
		c.Keep(ctx, mneme.CacheRetrieval, key, i, nil)
		c.Wait()
	}
	if n, err := s.CachePrune(ctx, mneme.CacheSelection{Expired: true}, time.Now(), true); err != nil || n != 0 {
		t.Fatalf("%d expired entries left, %v", n, err)
	}
}
