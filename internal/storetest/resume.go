package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
)

// testCacheVectors: CacheVectors keeps embeddings by text hash and
// embedder at once; CachedVectors reads them back for that embedder only,
// and a text already cached keeps its vector.
func testCacheVectors(t *testing.T, f *fixture) {
	s := f.eng.Store()
	a, _ := hash.New(8)
	b := a.Info()
	b.Version += "-other"
	vecs, _ := a.Embed(f.ctx, []string{"one", "two"})
	hashes := []string{mneme.TextHash("one"), mneme.TextHash("two")}
	if err := s.CacheVectors(f.ctx, a.Info(), hashes, vecs); err != nil {
		t.Fatal(err)
	}
	if err := s.CacheVectors(f.ctx, a.Info(), nil, nil); err != nil {
		t.Fatalf("an empty batch: %v", err)
	}
	other, _ := a.Embed(f.ctx, []string{"something else"})
	if err := s.CacheVectors(f.ctx, a.Info(), hashes[:1], other); err != nil {
		t.Fatal(err)
	}
	got, err := s.CachedVectors(f.ctx, a.Info(), append(hashes, mneme.TextHash("three")))
	if err != nil || len(got) != 2 || !reflect.DeepEqual(got[hashes[0]], vecs[0]) || !reflect.DeepEqual(got[hashes[1]], vecs[1]) {
		t.Fatalf("cached = %v, %v; want the two first vectors", got, err)
	}
	if got, err := s.CachedVectors(f.ctx, b, hashes); err != nil || len(got) != 0 {
		t.Fatalf("another embedder's cache = %v, %v", got, err)
	}
	if st, _ := f.eng.Stats(f.ctx); st.Total != 0 {
		t.Fatalf("caching wrote %d records", st.Total)
	}
}

// counting counts the texts an embedder embeds.
type counting struct {
	mneme.Embedder
	texts atomic.Int64
}

func (c *counting) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.texts.Add(int64(len(texts)))
	return c.Embedder.Embed(ctx, texts)
}

// stopAfter is an engine over f's store with em that cancels its context
// once the "embed" progress adds up to n texts (0: never), and the
// context; totals collects the totals of each "embed" progress.
func (f *fixture) stopAfter(em mneme.Embedder, n int, totals *[]int) (*mneme.Engine, context.Context) {
	ctx, cancel := context.WithCancel(f.ctx)
	f.t.Cleanup(cancel)
	sum, last := 0, 0
	obs := mneme.Observer{Progress: func(task string, done, total int) {
		if task != "embed" {
			return
		}
		if done == min(mneme.EmbedBatch, total) {
			*totals = append(*totals, total)
			last = 0
		}
		sum, last = sum+done-last, done
		if n > 0 && sum >= n {
			cancel()
		}
	}}
	return mneme.NewEngine(f.eng.Store(), f.clock(), mneme.WithEmbedder(em), mneme.WithObserver(obs)), ctx
}

// interrupted checks that err is an interruption that kept cached
// embeddings and wrote written records.
func interrupted(t *testing.T, err error, cached, written int) {
	t.Helper()
	var in *mneme.Interrupted
	if !errors.As(err, &in) || in.Cached != cached || in.Written != written || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v (%#v), want an interruption that kept %d embeddings and wrote %d records", err, in, cached, written)
	}
	want := fmt.Sprintf("interrupted: %d embedding", cached)
	if msg := mneme.ErrorMessage(err); !strings.HasPrefix(msg, want) || mneme.ErrorCode(err) != mneme.EUNAVAILABLE {
		t.Fatalf("message %q (%s), want it to start with %q", msg, mneme.ErrorCode(err), want)
	}
}

// testIngestResumes: an ingest stopped while it embeds writes nothing but
// keeps every finished batch in the cache, so running it again embeds only
// the rest.
func testIngestResumes(t *testing.T, f *fixture) {
	base, _ := hash.New(16)
	em := &counting{Embedder: base}
	var files []mneme.SourceFile
	for i := range 40 {
		var body strings.Builder
		for j := range 8 {
			fmt.Fprintf(&body, "# Part %d\n\nfile %d paragraph %d about the release train and its rules\n\n", j, i, j)
		}
		files = append(files, mneme.SourceFile{URI: fmt.Sprintf("/docs/f%02d.md", i), Data: []byte(body.String())})
	}
	opts := mneme.IngestOptions{Project: "docs", MaxTokens: 16, OverlapTokens: -1}
	const stop = 3 * mneme.EmbedBatch
	var totals []int
	eng, ctx := f.stopAfter(em, stop, &totals)
	_, err := eng.Ingest(ctx, files, opts)
	interrupted(t, err, stop, 0)
	total := totals[0]
	if total <= stop+mneme.EmbedBatch {
		t.Fatalf("only %d chunks to embed: the test needs more", total)
	}
	if st, _ := f.eng.Stats(f.ctx); st.Total != 0 {
		t.Fatalf("an interrupted ingest wrote %d records", st.Total)
	}
	em.texts.Store(0)
	eng, ctx = f.stopAfter(em, 0, &totals)
	res, err := eng.Ingest(ctx, files, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := int(em.texts.Load()); got != total-stop || totals[1] != total-stop {
		t.Fatalf("the second run embedded %d texts (progress total %d), want %d of %d", got, totals[1], total-stop, total)
	}
	if res.Inserted != total || unembedded(t, f) != 0 {
		t.Fatalf("after the second run: %+v, %d unembedded", res, unembedded(t, f))
	}
}

// testImportResumes: as testIngestResumes, for an import; a stop before
// the first batch keeps nothing.
func testImportResumes(t *testing.T, f *fixture) {
	base, _ := hash.New(16)
	em := &counting{Embedder: base}
	batch := func() []*mneme.Record {
		recs := make([]*mneme.Record, 300)
		for i := range recs {
			recs[i] = &mneme.Record{ID: mneme.NewID(f.now), Project: "p", Text: fmt.Sprintf("imported memory %d", i)}
		}
		return recs
	}
	recs := batch()
	ctx, cancel := context.WithCancel(f.ctx)
	cancel()
	f.embedWith(em)
	_, err := f.eng.Import(ctx, recs, mneme.WriteOptions{})
	interrupted(t, err, 0, 0)
	var totals []int
	eng, ctx := f.stopAfter(em, 2*mneme.EmbedBatch, &totals)
	_, err = eng.Import(ctx, recs, mneme.WriteOptions{})
	interrupted(t, err, 2*mneme.EmbedBatch, 0)
	if st, _ := f.eng.Stats(f.ctx); st.Total != 0 {
		t.Fatalf("an interrupted import wrote %d records", st.Total)
	}
	em.texts.Store(0)
	eng, ctx = f.stopAfter(em, 0, &totals)
	res, err := eng.Import(ctx, recs, mneme.WriteOptions{})
	if want := len(recs) - 2*mneme.EmbedBatch; err != nil || res.Inserted != len(recs) || int(em.texts.Load()) != want || totals[len(totals)-1] != want {
		t.Fatalf("second run: %+v, %v; embedded %d texts, want %d", res, err, em.texts.Load(), want)
	}
}

// testReindexResumes: a reindex stopped midway keeps the vectors it saved
// and the batches it cached; running it again embeds only the rest.
func testReindexResumes(t *testing.T, f *fixture) {
	recs := make([]*mneme.Record, 600)
	for i := range recs {
		recs[i] = &mneme.Record{Project: "p", Text: fmt.Sprintf("memory without a vector %d", i)}
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	base, _ := hash.New(16)
	em := &counting{Embedder: base}
	// Reindex embeds 4 batches per round: stop in the second round.
	const stop = 6 * mneme.EmbedBatch
	var totals []int
	eng, ctx := f.stopAfter(em, stop, &totals)
	_, err := eng.Reindex(ctx)
	var in *mneme.Interrupted
	if !errors.As(err, &in) || in.Written != 4*mneme.EmbedBatch || in.Cached != 2*mneme.EmbedBatch {
		t.Fatalf("err = %v (%#v), want %d saved and %d cached", err, in, 4*mneme.EmbedBatch, 2*mneme.EmbedBatch)
	}
	if n := len(recs) - unembeddedAll(t, f); n != 4*mneme.EmbedBatch {
		t.Fatalf("%d records have a vector after the stop, want %d", n, 4*mneme.EmbedBatch)
	}
	em.texts.Store(0)
	eng, ctx = f.stopAfter(em, 0, &totals)
	res, err := eng.Reindex(ctx)
	if err != nil || res.Embedded != len(recs)-4*mneme.EmbedBatch || int(em.texts.Load()) != len(recs)-stop {
		t.Fatalf("second run: %+v, %v; embedded %d texts, want %d", res, err, em.texts.Load(), len(recs)-stop)
	}
}

func unembeddedAll(t *testing.T, f *fixture) int {
	t.Helper()
	recs, _, err := f.eng.Store().Unembedded(f.ctx, "", 100_000)
	if err != nil {
		t.Fatal(err)
	}
	return len(recs)
}
