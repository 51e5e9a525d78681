package mneme_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/sqlite"
)

// searchSeen is a store that says when a search has started.
type searchSeen struct {
	mneme.Store
	once    sync.Once
	started chan struct{}
}

func (s *searchSeen) Candidates(ctx context.Context, q mneme.CandidateQuery) (mneme.Candidates, error) {
	s.once.Do(func() { close(s.started) })
	return s.Store.Candidates(ctx, q)
}

// waitingEmbedder embeds a query only once the search has started (or
// fails after a while), and fails with fail if set.
type waitingEmbedder struct {
	*hash.Embedder
	store *searchSeen
	wait  bool
	fail  error
}

func (e *waitingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e.wait {
		select {
		case <-e.store.started:
		case <-time.After(3 * time.Second):
			return nil, mneme.Errorf(mneme.EUNAVAILABLE, "the search did not start while the query was embedded")
		}
	}
	if e.fail != nil {
		return nil, e.fail
	}
	return e.Embedder.Embed(ctx, texts)
}

// TestRecallEmbedsBesideSearch: a hybrid recall's search starts while its
// query is embedded (the lexical lane needs no vector), and gives what it
// gave when one came after the other: both lanes, each hit scored by both.
// An embedding that fails leaves the hybrid recall to words (degraded) and
// fails a vector recall, as before.
func TestRecallEmbedsBesideSearch(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h, _ := hash.New(64)
	plain := reopen(s)
	for _, text := range []string{"the deploy runs on fridays", "rollback the cache deploy", "budget review on monday"} {
		if _, err := plain.Remember(ctx, []*mneme.Record{{Text: text}}, mneme.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	want := recall(t, plain, mneme.Query{Text: "deploy cache", NoFeedback: true})
	seen := &searchSeen{Store: s, started: make(chan struct{})}
	em := &waitingEmbedder{Embedder: h, store: seen, wait: true}
	eng := mneme.NewEngine(seen, mneme.WithClock(func() time.Time { return now }), mneme.WithEmbedder(em))
	got := recall(t, eng, mneme.Query{Text: "deploy cache", NoFeedback: true})
	if got.Degraded || len(got.Hits) != len(want.Hits) {
		t.Fatalf("embedded beside the search: %d hits, degraded %q; one after the other: %d", len(got.Hits), got.DegradedReason, len(want.Hits))
	}
	for i, hit := range got.Hits {
		w := want.Hits[i]
		if hit.ID != w.ID || hit.Score != w.Score || hit.Explain.VectorRank != w.Explain.VectorRank || hit.Explain.VectorScore != w.Explain.VectorScore {
			t.Fatalf("hit %d: %s %g (vector rank %d), want %s %g (%d)", i, hit.ID, hit.Score, hit.Explain.VectorRank, w.ID, w.Score, w.Explain.VectorRank)
		}
	}
	em.wait, em.fail = false, mneme.Errorf(mneme.EUNAVAILABLE, "the model is down")
	res := recall(t, eng, mneme.Query{Text: "deploy cache"})
	if !res.Degraded || len(res.Hits) == 0 || res.Hits[0].Explain.VectorRank != 0 {
		t.Fatalf("embedder down, hybrid: degraded %v, %d hits", res.Degraded, len(res.Hits))
	}
	// Now recorded down, it is not asked: the stages are still reported.
	var stages []string
	eng.Observe(mneme.Observer{Stage: func(stage string, d time.Duration) { stages = append(stages, stage) }})
	if res := recall(t, eng, mneme.Query{Text: "deploy cache"}); !res.Degraded || strings.Join(stages, ",") != "embed,search,rank" {
		t.Fatalf("embedder recorded down, hybrid: degraded %v, stages %v", res.Degraded, stages)
	}
	if _, err := eng.Recall(ctx, mneme.Query{Text: "deploy cache", K: 5, Mode: mneme.Vector}); mneme.ErrorCode(err) != mneme.EUNAVAILABLE {
		t.Fatalf("embedder down, vector mode: %v", err)
	}
}
