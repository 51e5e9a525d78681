package postgres_test

import (
	"context"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/benchdata"
)

// TestSearchEndsItsTransaction: a search begins its transaction with its
// first reads and ends it with its last, and a failed one ends it too, so
// a pool of one connection keeps that connection through searches and
// failures (a connection handed back inside a transaction is closed, and
// the next search would have to open a new one).
func TestSearchEndsItsTransaction(t *testing.T) {
	s, em := asideStore(t, 1, 200)
	ctx := context.Background()
	q := hybridQuery(t, em, benchdata.New(1, 300).Record(7).Text, mneme.Filter{}) // its words are stored
	before := s.Pool().Stat().NewConnsCount()
	for i := range 20 {
		qi := q
		switch i % 4 {
		case 1: // the vector arrives while the search runs
			qi.Vector, qi.VectorLater = nil, func() []float32 { return q.Vector }
		case 2: // one of the wrong dimension fails the search after its first reads
			qi.Vector = q.Vector[:8]
		case 3: // lexical only
			qi.Vector = nil
		}
		found, err := s.Candidates(ctx, qi)
		if (i%4 == 2) != (mneme.ErrorCode(err) == mneme.EINVALID) || (err == nil && len(found.List) == 0) {
			t.Fatalf("search %d: %d candidates, %v", i, len(found.List), err)
		}
	}
	if n := s.Pool().Stat().NewConnsCount() - before; n != 0 {
		t.Fatalf("%d connections opened anew: searches left theirs in a transaction", n)
	}
}
