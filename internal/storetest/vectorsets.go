package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
)

// model is a hash embedder under another model name: a second embedder
// whose vectors must never mix with the first's.
type model struct {
	*hash.Embedder
	name string
	// during runs once, on the first embedding after the probe: what
	// happens while the new set is built.
	during func()
	calls  atomic.Int64
	fail   bool
}

func (m *model) Info() mneme.EmbedderInfo {
	info := m.Embedder.Info()
	info.Model = m.name
	return info
}

func (m *model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if m.fail {
		return nil, mneme.Errorf(mneme.EUNAVAILABLE, "connection refused")
	}
	if m.calls.Add(1) == 2 && m.during != nil {
		m.during()
	}
	return m.Embedder.Embed(ctx, texts)
}

func newModel(t *testing.T, name string, dim int) *model {
	t.Helper()
	e, err := hash.New(dim)
	if err != nil {
		t.Fatal(err)
	}
	return &model{Embedder: e, name: name}
}

// sets returns the store's vector sets by embedder model.
func sets(t *testing.T, f *fixture) map[string]mneme.VectorSet {
	t.Helper()
	list, err := f.eng.VectorSets(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]mneme.VectorSet{}
	for _, s := range list {
		out[s.Embedder.Model] = s
	}
	return out
}

// testReindexBeside: a reindex builds the new embedder's vectors beside
// the home's while recall answers from the home's and writes go on, catches
// up what was written meanwhile, then switches; with keepOld the old set
// stays, and switching back embeds nothing.
func testReindexBeside(t *testing.T, f *fixture) {
	ctx := f.ctx
	old := newModel(t, "old", 16)
	f.embedWith(old)
	for i := range 40 {
		f.remember(mneme.Record{Text: fmt.Sprintf("runbook step %d: restart the queue worker", i)})
	}
	f.remember(mneme.Record{Text: "the vault key", Sensitivity: mneme.Secret})
	oldEng := f.eng
	next := newModel(t, "next", 24)
	var during error
	next.during = func() {
		res, err := oldEng.Recall(ctx, mneme.Query{Text: "restart the queue worker", K: 5})
		switch {
		case err != nil:
			during = err
		case res.Degraded || res.Unembedded > 0 || len(res.Hits) != 5:
			during = fmt.Errorf("recall during the build: degraded %v (%s), %d unembedded, %d hits", res.Degraded, res.DegradedReason, res.Unembedded, len(res.Hits))
		default:
			_, during = oldEng.Remember(ctx, []*mneme.Record{{Text: "written while the new vectors were built"}}, mneme.WriteOptions{})
		}
	}
	res, err := oldEng.ReindexTo(ctx, next, mneme.ReindexOptions{KeepOld: true})
	if err != nil || during != nil {
		t.Fatalf("reindex: %+v, %v; during the build: %v", res, err, during)
	}
	if !res.Switched || !res.KeptOld || res.Embedded != 41 || res.Previous == nil || res.Previous.Model != "old" {
		t.Fatalf("reindex result %+v: want switched, old kept, 41 embedded (40 before, 1 written during the build)", res)
	}
	home, _, _ := f.eng.Store().HomeEmbedder(ctx)
	if home != next.Info() {
		t.Fatalf("home embedder %+v, want %+v", home, next.Info())
	}
	got := sets(t, f)
	if s := got["next"]; !s.Home || s.Vectors != 41 || s.Embeddable != 41 {
		t.Fatalf("new set %+v: want the home's, 41 of 41", s)
	}
	if s := got["old"]; s.Home || s.Vectors != 41 {
		t.Fatalf("old set %+v: want kept beside, 41 vectors", s)
	}
	f.embedWith(next)
	if hits := f.recall(mneme.Query{Text: "restart the queue worker", K: 3, Mode: mneme.Vector, IncludeUnmatched: true}); len(hits) != 3 {
		t.Fatalf("vector recall with the new embedder: %d hits", len(hits))
	}
	if n := unembedded(t, f); n != 0 {
		t.Fatalf("%d records without a vector from the new home embedder", n)
	}
	// Back to the kept set: nothing to embed.
	f.embedWith(old)
	back, err := f.eng.ReindexTo(ctx, old, mneme.ReindexOptions{})
	if err != nil || !back.Switched || back.Embedded != 0 {
		t.Fatalf("switch back: %+v, %v; want switched with nothing embedded", back, err)
	}
	if got := sets(t, f); len(got) != 1 || !got["old"].Home || got["old"].Vectors != 41 {
		t.Fatalf("after switching back without keep-old: %+v", got)
	}
	if hits := f.recall(mneme.Query{Text: "restart the queue worker", K: 3, Mode: mneme.Vector, IncludeUnmatched: true}); len(hits) != 3 {
		t.Fatalf("vector recall after switching back: %d hits", len(hits))
	}
}

// testReindexRefused: a target that does not answer, or another dimension
// of a kept model, changes nothing.
func testReindexRefused(t *testing.T, f *fixture) {
	ctx := f.ctx
	old := newModel(t, "old", 16)
	f.embedWith(old)
	f.remember(mneme.Record{Text: "the deploy freeze starts on Fridays"})
	before := sets(t, f)
	down := newModel(t, "down", 16)
	down.fail = true
	if _, err := f.eng.ReindexTo(ctx, down, mneme.ReindexOptions{}); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("reindex to an embedder that does not answer: %v, want EINVALID", err)
	}
	wider := newModel(t, "old", 32)
	if _, err := f.eng.ReindexTo(ctx, wider, mneme.ReindexOptions{}); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("reindex to another dimension of the home's model: %v, want EINVALID", err)
	}
	if after := sets(t, f); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("a refused reindex changed the sets: %v -> %v", before, after)
	}
}

// testReindexInterrupted: a reindex stopped midway leaves the old
// embedder in charge, and the next run resumes from the vectors built.
func testReindexInterrupted(t *testing.T, f *fixture) {
	old := newModel(t, "old", 16)
	f.embedWith(old)
	recs := make([]*mneme.Record, 600)
	for i := range recs {
		recs[i] = &mneme.Record{Text: fmt.Sprintf("incident %d: the cache evicted hot keys", i)}
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	next := newModel(t, "next", 16)
	eng, ctx := f.stopAfter(next, 6*mneme.EmbedBatch, new([]int))
	_, err := eng.ReindexTo(ctx, next, mneme.ReindexOptions{})
	var in *mneme.Interrupted
	if !errors.As(err, &in) {
		t.Fatalf("interrupted reindex: %v", err)
	}
	home, _, _ := f.eng.Store().HomeEmbedder(f.ctx)
	if home != old.Info() {
		t.Fatalf("after an interrupted reindex the home uses %+v, want the old %+v", home, old.Info())
	}
	res, err := f.eng.Recall(f.ctx, mneme.Query{Text: "cache evicted", K: 3})
	if err != nil || res.Degraded || res.Unembedded != 0 {
		t.Fatalf("recall after the interruption: %+v, %v", res, err)
	}
	built := sets(t, f)["next"].Vectors
	if built != 4*mneme.EmbedBatch {
		t.Fatalf("%d vectors built before the stop, want %d", built, 4*mneme.EmbedBatch)
	}
	again, err := f.eng.ReindexTo(f.ctx, next, mneme.ReindexOptions{})
	if err != nil || !again.Switched || again.Embedded != len(recs)-built {
		t.Fatalf("resumed reindex: %+v, %v; want %d embedded", again, err, len(recs)-built)
	}
}

// testVectorOfOtherSet: a vector computed by another embedder than the
// home's (a write racing a switch) is not stored as the home's: the record
// waits for the embedding job instead.
func testVectorOfOtherSet(t *testing.T, f *fixture) {
	home := newModel(t, "home", 16)
	f.embedWith(home)
	f.remember(mneme.Record{Text: "first"})
	other := newModel(t, "other", 16)
	vec, _ := other.Embed(f.ctx, []string{"second"})
	r := &mneme.Record{Text: "second", Vector: vec[0], VectorOf: mneme.SetKey(other.Info())}
	if err := mneme.Prepare(r); err != nil {
		t.Fatal(err)
	}
	if _, err := f.eng.Store().Put(f.ctx, []*mneme.Record{r}, mneme.ModeRemember, f.now); err != nil {
		t.Fatal(err)
	}
	if n := unembedded(t, f); n != 1 {
		t.Fatalf("%d records without a home vector, want 1 (the other embedder's vector dropped)", n)
	}
}

// testFollowHome: a process that took the home's embedder (a server
// opened before the switch) goes on writing and recalling after another
// switched the home: no ECONFLICT, its writes get the new home's vectors.
func testFollowHome(t *testing.T, f *fixture) {
	old, next := newModel(t, "old", 16), newModel(t, "next", 16)
	load := func(info mneme.EmbedderInfo) (mneme.Embedder, error) {
		if info == next.Info() {
			return next, nil
		}
		return nil, fmt.Errorf("no embedder %s here", info.ID())
	}
	server := mneme.NewEngine(f.eng.Store(), f.clock(), mneme.WithEmbedder(mneme.FollowHome(old, load)))
	if _, err := server.Remember(f.ctx, []*mneme.Record{{Text: "the on-call rota changes on Mondays"}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.eng.ReindexTo(f.ctx, next, mneme.ReindexOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := server.Remember(f.ctx, []*mneme.Record{{Text: "the on-call rota is in the wiki"}}, mneme.WriteOptions{}); err != nil {
		t.Fatalf("write after another process switched the home: %v", err)
	}
	res, err := server.Recall(f.ctx, mneme.Query{Text: "on-call rota", K: 2})
	if err != nil || res.Degraded || res.Unembedded != 0 || len(res.Hits) != 2 {
		t.Fatalf("recall after the switch: %+v, %v", res, err)
	}
	if server.Embedder().Info() != next.Info() {
		t.Fatalf("the server embeds with %+v, want the new home's", server.Embedder().Info())
	}
}
