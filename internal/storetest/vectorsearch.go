package storetest

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// testVectorSearch: the vector lane returns the true top-k under every
// filter, follows deletes, supersession and text changes, never returns a
// secret record, and rejects a query of the wrong dimension.
func testVectorSearch(t *testing.T, f *fixture) {
	store := f.eng.Store()
	if hits, err := store.Candidates(f.ctx, mneme.CandidateQuery{Vector: make([]float32, 16), K: 5, Filter: f.filter(mneme.Filter{})}); err != nil || len(hits.List) != 0 {
		t.Fatalf("a home without an embedder: %d hits, %v", len(hits.List), err)
	}
	e := withEmbedder(t, f, 16)
	rng := rand.New(rand.NewPCG(7, 8))
	vocab := strings.Fields("cache deploy release rollback postgres index vector memory agent session budget token filter graph shard")
	var recs []*mneme.Record
	for i := range 300 {
		words := make([]string, 3+rng.IntN(5))
		for j := range words {
			words[j] = vocab[rng.IntN(len(vocab))]
		}
		r := &mneme.Record{Text: fmt.Sprintf("%s (%d)", strings.Join(words, " "), i), Project: fmt.Sprintf("p%d", i%3),
			Type: []mneme.Type{mneme.Episodic, mneme.Semantic}[i%2], Tags: []string{fmt.Sprintf("t%d", i%5)},
			OccurredAt: ptr(f.now.Add(-time.Duration(i) * time.Hour))}
		if i%50 == 0 {
			r.Sensitivity = mneme.Secret
		}
		if i%40 == 1 {
			r.Key = fmt.Sprintf("k%d", i%3) // later ones supersede earlier ones
		}
		if i%7 == 2 {
			r.Status = []mneme.Status{mneme.Validated, mneme.Published, mneme.Draft}[i%3]
		}
		recs = append(recs, r)
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	gone := []string{recs[3].ID, recs[4].ID}
	if _, err := f.eng.Forget(f.ctx, mneme.ForgetRequest{IDs: gone}); err != nil {
		t.Fatal(err)
	}
	filters := []mneme.Filter{{}, {Project: "p1"}, {Types: []mneme.Type{mneme.Semantic}}, {Tags: []string{"t2"}},
		{Project: "p2", Tags: []string{"t0", "t3"}}, {Since: ptr(f.now.Add(-20 * time.Hour))}, {IncludeSuperseded: true},
		{Clearance: mneme.Secret}, {Project: "nope"}, {Statuses: []mneme.Status{mneme.Validated, mneme.Published}},
		{Project: "p0", Statuses: []mneme.Status{mneme.Draft}}}
	queries := []string{"cache rollback", "vector index graph", "session token budget"}
	for _, fl := range filters {
		fl := f.filter(fl)
		for _, text := range queries {
			vec, _ := e.Embed(f.ctx, []string{text})
			got := vectorHits(t, f, mneme.CandidateQuery{Vector: vec[0], K: 7, Filter: fl})
			want := f.exactVectors(recs, vec[0], fl)
			if len(got) != min(7, len(want)) {
				t.Fatalf("filter %+v, query %q: %d hits, want %d", fl, text, len(got), min(7, len(want)))
			}
			for i, h := range got { // equal scores may come in either order
				score, ok := want[h.Record.ID]
				if !ok || h.Record.Sensitivity == mneme.Secret || slices.Contains(gone, h.Record.ID) {
					t.Fatalf("filter %+v: returned %s, which it must not", fl, h.Record.ID)
				}
				if d := float64(score) - h.Similarity; d > 1e-5 || d < -1e-5 || float64(kth(want, i)) > h.Similarity+1e-5 || h.VectorRank != i+1 {
					t.Fatalf("filter %+v, query %q: hit %d (rank %d) scores %g, the true rank-%d score is %g", fl, text, i, h.VectorRank, h.Similarity, i+1, kth(want, i))
				}
			}
		}
	}
	// Both lanes: every candidate carries both scores, also from the lane
	// whose top k it missed.
	vec, _ := e.Embed(f.ctx, []string{"cache deploy"})
	found, err := store.Candidates(f.ctx, mneme.CandidateQuery{Terms: []string{"cache", "deploy"}, Vector: vec[0], K: 5, Filter: f.filter(mneme.Filter{})})
	both := found.List
	lexOnly, vecOnly := 0, 0
	exact := f.exactVectors(recs, vec[0], f.filter(mneme.Filter{}))
	for _, c := range both {
		if d := float64(exact[c.Record.ID]) - c.Similarity; !c.HasVector || d > 1e-5 || d < -1e-5 {
			t.Fatalf("candidate %s: similarity %g (has %v), want %g", c.Record.ID, c.Similarity, c.HasVector, exact[c.Record.ID])
		}
		if c.BM25 <= 0 != (len(c.MatchedTerms) == 0) {
			t.Fatalf("candidate %s: bm25 %g but matched %v", c.Record.ID, c.BM25, c.MatchedTerms)
		}
		if c.VectorRank == 0 {
			lexOnly++
		}
		if c.LexicalRank == 0 {
			vecOnly++
		}
	}
	if err != nil || len(both) < 5 || len(both) > 10 || lexOnly+vecOnly == 0 {
		t.Fatalf("both lanes: %d candidates (%d lexical only, %d vector only), %v", len(both), lexOnly, vecOnly, err)
	}
	_, err = store.Candidates(f.ctx, mneme.CandidateQuery{Vector: make([]float32, 8), K: 3, Filter: f.filter(mneme.Filter{})})
	if mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), "dimensions") {
		t.Fatalf("wrong dimension: %v", err)
	}
}

// vectorHits runs a vector-only candidate query, best first.
func vectorHits(t *testing.T, f *fixture, q mneme.CandidateQuery) []mneme.Candidate {
	t.Helper()
	found, err := f.eng.Store().Candidates(f.ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	got := found.List
	slices.SortFunc(got, func(a, b mneme.Candidate) int { return a.VectorRank - b.VectorRank })
	return got
}

// filter stamps fl as the Engine would.
func (f *fixture) filter(fl mneme.Filter) mneme.Filter {
	fl.Now = f.now
	if err := fl.Check(); err != nil {
		f.t.Fatal(err)
	}
	return fl
}

// exactVectors is the reference: the score of every stored record passing
// fl, by id.
func (f *fixture) exactVectors(recs []*mneme.Record, q []float32, fl mneme.Filter) map[string]float32 {
	all := map[string]float32{}
	for _, r := range recs {
		stored, err := f.eng.Store().Get(f.ctx, r.ID)
		if err != nil || !fl.Match(stored) || stored.Sensitivity == mneme.Secret {
			continue
		}
		var dot float32
		for i := range q {
			dot += q[i] * r.Vector[i]
		}
		all[r.ID] = dot
	}
	return all
}

// kth returns the i-th best score (from 0).
func kth(scores map[string]float32, i int) float32 {
	s := slices.Collect(maps.Values(scores))
	slices.SortFunc(s, func(a, b float32) int { return cmp.Compare(b, a) })
	return s[i]
}
