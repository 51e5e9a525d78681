package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/skips"
)

// flaky is an embedder that fails as an unreachable provider does while
// down is set, and counts its calls and the texts it embeds.
type flaky struct {
	mneme.Embedder
	down         atomic.Bool
	calls, texts atomic.Int64
}

const downMessage = "cannot reach the embedding provider at http://127.0.0.1:9/api/embed: connection refused"

func (e *flaky) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.calls.Add(1)
	if e.down.Load() {
		return nil, mneme.Errorf(mneme.EUNAVAILABLE, downMessage)
	}
	e.texts.Add(int64(len(texts)))
	return e.Embedder.Embed(ctx, texts)
}

func newFlaky(t *testing.T, f *fixture) *flaky {
	t.Helper()
	base, err := hash.New(16)
	if err != nil {
		t.Fatal(err)
	}
	em := &flaky{Embedder: base}
	f.embedWith(em)
	return em
}

// pendingStats checks the pending counts and the recorded failure.
func pendingStats(t *testing.T, f *fixture, want int, failure string) {
	t.Helper()
	st, err := f.eng.Stats(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	perProject := 0
	for _, p := range st.Projects {
		perProject += p.PendingEmbeddings
	}
	got := ""
	if st.EmbedderError != nil {
		got = st.EmbedderError.Error
	}
	if st.PendingEmbeddings != want || perProject != want || !strings.Contains(got, failure) || (failure == "") != (got == "") {
		t.Fatalf("stats: %d pending (%d by project), last failure %q; want %d and %q", st.PendingEmbeddings, perProject, got, want, failure)
	}
}

// testPendingWrites: while the embedder is down, remember, ingest and
// import store their records without vectors and say so; the first failure
// marks it down, so the writes after it do not call it until its backoff
// ends; a write that requires embedding fails and writes nothing; lexical
// recall finds the pending records at once, hybrid recall says it is
// degraded; EmbedPending embeds them (never a secret one) and the failure
// is forgotten.
func testPendingWrites(t *testing.T, f *fixture) {
	em := newFlaky(t, f)
	f.remember(mneme.Record{Text: "embedded before the outage"})
	em.down.Store(true)
	res := f.remember(mneme.Record{Project: "a", Text: "the release train leaves on Tuesdays"})
	if res.Inserted != 1 || res.PendingEmbeddings != 1 || !strings.Contains(res.PendingReason, downMessage) || em.calls.Load() != 2 {
		t.Fatalf("remember while down: %+v after %d calls", res, em.calls.Load())
	}
	if res := f.remember(mneme.Record{Project: "a", Text: "the vault code", Sensitivity: mneme.Secret}); res.PendingEmbeddings != 0 {
		t.Fatalf("a secret record is never pending: %+v", res)
	}
	ing, err := f.eng.Ingest(f.ctx, []mneme.SourceFile{{URI: "/d/train.md", Data: []byte("# Train\n\nThe train is late.\n")}}, mneme.IngestOptions{Project: "b"})
	if err != nil || ing.Inserted != 1 || ing.PendingEmbeddings != 1 {
		t.Fatalf("ingest while down: %+v, %v", ing, err)
	}
	imp, err := f.eng.Import(f.ctx, []*mneme.Record{{ID: mneme.NewID(f.now), Project: "b", Text: "an imported note"}}, mneme.WriteOptions{})
	if err != nil || imp.PendingEmbeddings != 1 || em.calls.Load() != 2 {
		t.Fatalf("import while down: %+v, %v after %d calls (the embedder is skipped until its backoff ends)", imp, err, em.calls.Load())
	}
	before, _ := f.eng.Stats(f.ctx)
	r := mneme.Record{Text: "must be embedded"}
	if _, err := f.eng.Remember(f.ctx, []*mneme.Record{&r}, mneme.WriteOptions{RequireEmbedding: true}); mneme.ErrorCode(err) != mneme.EUNAVAILABLE || !strings.Contains(mneme.ErrorMessage(err), downMessage) {
		t.Fatalf("a write requiring embedding: %v, want EUNAVAILABLE", err)
	}
	if after, _ := f.eng.Stats(f.ctx); after.Total != before.Total {
		t.Fatalf("a refused write stored %d records", after.Total-before.Total)
	}
	pendingStats(t, f, 3, downMessage)
	if hits := f.recall(mneme.Query{Text: "release train Tuesdays", Mode: mneme.Lexical}); len(hits) == 0 || hits[0].Record.Text != "the release train leaves on Tuesdays" {
		t.Fatalf("lexical recall of a pending record: %v", ids(hits))
	}
	if res, err := f.eng.Recall(f.ctx, mneme.Query{Text: "release train", K: 5}); err != nil || !res.Degraded || !strings.Contains(res.DegradedReason, downMessage) {
		t.Fatalf("hybrid recall while down: %+v, %v", res, err)
	}
	em.down.Store(false)
	f.now = f.now.Add(time.Minute) // past the backoff
	if res, err := f.eng.Recall(f.ctx, mneme.Query{Text: "release train", K: 5}); err != nil || res.Unembedded != 3 || !strings.Contains(res.DegradedReason, "mneme sync") {
		t.Fatalf("hybrid recall with pending records: %+v, %v", res, err)
	}
	em.texts.Store(0)
	sync, err := f.eng.EmbedPending(f.ctx)
	if err != nil || sync.Embedded != 3 || sync.Pending != 0 || em.texts.Load() != 3 {
		t.Fatalf("sync: %+v, %v; %d texts embedded, want 3", sync, err, em.texts.Load())
	}
	pendingStats(t, f, 0, "")
	if res, err := f.eng.Recall(f.ctx, mneme.Query{Text: "release train", K: 5}); err != nil || res.Degraded {
		t.Fatalf("hybrid recall after sync: %+v, %v", res, err)
	}
}

// testSyncResumes: EmbedPending saves its cursor after each round, so a
// run cut short resumes where it stopped without embedding again what it
// saved, then wraps around to records before the cursor that lost their
// vector meanwhile.
func testSyncResumes(t *testing.T, f *fixture) {
	em := newFlaky(t, f)
	em.down.Store(true)
	recs := make([]*mneme.Record, 600)
	for i := range recs {
		recs[i] = &mneme.Record{Project: "p", Text: fmt.Sprintf("written during the outage %d", i)}
	}
	if res, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil || res.PendingEmbeddings != len(recs) {
		t.Fatalf("remember while down: %+v, %v", res, err)
	}
	em.down.Store(false)
	// EmbedPending embeds 4 batches per round: stop in the second round.
	const stop = 6 * mneme.EmbedBatch
	var totals []int
	eng, ctx := f.stopAfter(em, stop, &totals)
	res, err := eng.EmbedPending(ctx)
	if mneme.ErrorCode(err) != mneme.EUNAVAILABLE || res.Embedded != 4*mneme.EmbedBatch {
		t.Fatalf("interrupted sync: %+v, %v", res, err)
	}
	pendingStats(t, f, len(recs)-4*mneme.EmbedBatch, downMessage) // the run did not end: the failure stays recorded
	// A record the first round embedded changes its text: it waits again,
	// before the saved cursor.
	changed := f.get(recs[0].ID)
	changed.Text, changed.ContentHash = "rewritten during the outage", ""
	em.down.Store(true)
	if res, err := f.eng.Import(f.ctx, []*mneme.Record{changed}, mneme.WriteOptions{}); err != nil || res.PendingEmbeddings != 1 {
		t.Fatalf("update while down: %+v, %v", res, err)
	}
	em.down.Store(false)
	em.texts.Store(0)
	res, err = f.eng.EmbedPending(f.ctx)
	want := len(recs) - stop + 1 // what the stopped run neither saved nor cached, and the changed record
	if err != nil || res.Embedded != len(recs)-4*mneme.EmbedBatch+1 || res.Pending != 0 || int(em.texts.Load()) != want {
		t.Fatalf("resumed sync: %+v, %v; embedded %d texts, want %d", res, err, em.texts.Load(), want)
	}
	if n := unembeddedAll(t, f); n != 0 {
		t.Fatalf("%d records left without a vector", n)
	}
}

// testUnembeddedCursor: Unembedded walks the records waiting for a vector
// in pages, in the order they were stored, skipping secret ones.
func testUnembeddedCursor(t *testing.T, f *fixture) {
	withEmbedder(t, f, 8)
	f.remember(mneme.Record{Text: "embedded"})
	f.embedWith(nil)
	var want []string
	for i := range 5 {
		want = append(want, f.remember(mneme.Record{Text: fmt.Sprintf("pending %d", i)}).ID)
		f.remember(mneme.Record{Text: fmt.Sprintf("secret %d", i), Sensitivity: mneme.Secret})
	}
	var got []string
	cursor := ""
	for {
		recs, next, err := f.eng.Store().Unembedded(f.ctx, cursor, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) == 0 {
			if next != "" {
				t.Fatalf("an empty page gave the cursor %q", next)
			}
			break
		}
		for _, r := range recs {
			got = append(got, r.ID)
		}
		cursor = next
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("walked %q, want %q", got, want)
	}
	if _, _, err := f.eng.Store().Unembedded(f.ctx, "not a cursor", 2); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("a bad cursor: %v", err)
	}
}

// testNotes: a PendingStore keeps notes by key, visible at once to any
// engine over it, and counts the records waiting for a vector by project.
func testNotes(t *testing.T, f *fixture) {
	ps, ok := f.eng.Store().(mneme.PendingStore)
	if !ok {
		skips.Skip(t, "a store that implements mneme.PendingStore", "the store does not implement mneme.PendingStore")
	}
	for _, c := range []struct{ key, value string }{{"a", "one"}, {"a", "two"}, {"b", "three"}, {"a", ""}} {
		if err := ps.SetNote(f.ctx, c.key, c.value); err != nil {
			t.Fatal(err)
		}
		if got, err := ps.Note(f.ctx, c.key); err != nil || got != c.value {
			t.Fatalf("note %q = %q, %v; want %q", c.key, got, err, c.value)
		}
	}
	if got, err := ps.Note(f.ctx, "b"); err != nil || got != "three" {
		t.Fatalf("note b = %q, %v", got, err)
	}
	f.remember(mneme.Record{Project: "x", Text: "no embedder yet"})
	withEmbedder(t, f, 8)
	f.remember(mneme.Record{Project: "y", Text: "embedded"})
	f.remember(mneme.Record{Project: "y", Text: "secret", Sensitivity: mneme.Secret})
	if got, err := ps.Pending(f.ctx); err != nil || len(got) != 1 || got["x"] != 1 {
		t.Fatalf("pending = %v, %v; want x: 1", got, err)
	}
}

// testStaleVector: a vector computed from a record as a job read it is not
// stored once the record's text changed or it turned secret; a vector of
// the text stored now is.
func testStaleVector(t *testing.T, f *fixture) {
	withEmbedder(t, f, 8)
	f.remember(mneme.Record{Text: "embedded"})
	f.embedWith(nil)
	changed := f.get(f.remember(mneme.Record{Text: "the text as the job read it"}).ID)
	secret := f.get(f.remember(mneme.Record{Text: "not secret yet"}).ID)
	read, _, err := f.eng.Store().Unembedded(f.ctx, "", 10)
	if err != nil || len(read) != 2 {
		t.Fatalf("read %d records to embed (%v), want 2", len(read), err)
	}
	changed.Text, changed.ContentHash = "the text as an update left it", ""
	secret.Sensitivity = mneme.Secret
	if _, err := f.eng.Import(f.ctx, []*mneme.Record{changed, secret}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, r := range read {
		r.Vector = []float32{1, 0, 0, 0, 0, 0, 0, 0}
	}
	if err := f.eng.Store().PutVectors(f.ctx, read); err != nil {
		t.Fatal(err)
	}
	now, _, err := f.eng.Store().Unembedded(f.ctx, "", 10)
	if err != nil || len(now) != 1 || now[0].ID != changed.ID {
		t.Fatalf("after storing stale vectors, %d records wait for one (%v), want the changed one alone", len(now), err)
	}
	now[0].Vector = []float32{0, 1, 0, 0, 0, 0, 0, 0}
	if err := f.eng.Store().PutVectors(f.ctx, now); err != nil {
		t.Fatal(err)
	}
	if n := unembedded(t, f); n != 0 {
		t.Fatalf("%d records wait for a vector after their current text's was stored", n)
	}
}
