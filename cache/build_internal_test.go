package cache

import (
	"context"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/sqlite"
)

// TestKeyNamesTheBuild: the same request has another key in another build
// of mneme, so a result kept by the code before an upgrade is not served
// after it.
func TestKeyNamesTheBuild(t *testing.T) {
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := New(s, Policy{}, time.Now)
	req := mneme.Query{Text: "the deploy", K: 10}
	defer func(was string) { build = was }(build)
	keys := map[string]bool{}
	for _, b := range []string{"v1.0.0", "v1.1.0", "(devel) 0123abc false"} {
		build = b
		key, err := c.Key(context.Background(), mneme.CacheRetrieval, "", req)
		if err != nil {
			t.Fatal(err)
		}
		if keys[key] {
			t.Fatalf("build %q shares a key with an earlier build", b)
		}
		keys[key] = true
	}
}
