package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/damage"
	"github.com/mneme-ai/mneme/sqlite"
)

// populated opens a new home holding n embedded records and closes it.
func populated(t *testing.T, n int) string {
	t.Helper()
	home := t.TempDir()
	s, err := sqlite.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	em, _ := hash.New(32)
	eng := mneme.NewEngine(s, mneme.WithEmbedder(em))
	recs := make([]*mneme.Record, n)
	for i := range recs {
		recs[i] = &mneme.Record{Project: "p", Text: fmt.Sprintf("memory %d about the release train and rule %d", i, i%97)}
	}
	if _, err := eng.Remember(context.Background(), recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	return home
}

func integrity(t *testing.T, s mneme.Store, deep bool) mneme.HealthCheck {
	t.Helper()
	c, err := s.(mneme.IntegrityChecker).Integrity(context.Background(), deep)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestIntegrity: a damaged page that the records and their counts never
// touch (the embedding cache) passes every other use, but fails both the
// quick and the deep check, which name the fixes; a sound file passes both.
func TestIntegrity(t *testing.T) {
	home := populated(t, 2000)
	s, err := sqlite.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	for _, deep := range []bool{false, true} {
		if c := integrity(t, s, deep); !c.OK || c.Name != "database file" || !strings.Contains(c.Detail, "ok") {
			t.Fatalf("sound file, deep %v: %+v", deep, c)
		}
	}
	s.Close()
	if _, _, err := damage.Page(filepath.Join(home, sqlite.FileName), "embedding_cache"); err != nil {
		t.Fatal(err)
	}
	s, err = sqlite.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if st, err := s.Stats(context.Background(), time.Now()); err != nil || st.Total != 2000 {
		t.Fatalf("stats of the damaged file = %+v, %v: the damage should be out of their way", st, err)
	}
	for _, deep := range []bool{false, true} {
		c := integrity(t, s, deep)
		if c.OK || !strings.Contains(c.Detail, "is damaged") || !strings.Contains(c.Fix, "mneme repair") || !strings.Contains(c.Fix, "mneme import") {
			t.Fatalf("damaged file, deep %v: %+v", deep, c)
		}
	}
}
