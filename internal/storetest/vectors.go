package storetest

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
)

func withEmbedder(t *testing.T, f *fixture, dim int) *hash.Embedder {
	t.Helper()
	e, err := hash.New(dim)
	if err != nil {
		t.Fatal(err)
	}
	f.embedWith(e)
	return e
}

func unembedded(t *testing.T, f *fixture) int {
	t.Helper()
	recs, _, err := f.eng.Store().Unembedded(f.ctx, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	return len(recs)
}

// testVectors: writes embed every non-secret record, cache by text, and a
// text change drops the stale vector.
func testVectors(t *testing.T, f *fixture) {
	e := withEmbedder(t, f, 32)
	f.remember(mneme.Record{Text: "alpha beta"})
	f.remember(mneme.Record{Text: "gamma delta"})
	s := f.remember(mneme.Record{Text: "the vault key", Sensitivity: mneme.Secret})
	if n := unembedded(t, f); n != 0 {
		t.Fatalf("%d records left without a vector", n)
	}
	home, ok, err := f.eng.Store().HomeEmbedder(f.ctx)
	if err != nil || !ok || home != e.Info() {
		t.Fatalf("home embedder = %+v, %v, %v", home, ok, err)
	}
	cached, err := f.eng.Store().CachedVectors(f.ctx, e.Info(), []string{mneme.TextHash("alpha beta"), mneme.TextHash("the vault key")})
	want, _ := e.Embed(context.Background(), []string{"alpha beta"})
	if err != nil || len(cached) != 1 || !reflect.DeepEqual(cached[mneme.TextHash("alpha beta")], want[0]) {
		t.Fatalf("cache = %v, %v (the secret text must not be cached)", cached, err)
	}
	// A new text under an old id drops the old vector until it is embedded again.
	f.embedWith(nil)
	rec := f.get(s.ID)
	rec.Text, rec.Sensitivity, rec.ContentHash = "now public text", mneme.Internal, ""
	if _, err := f.eng.Import(f.ctx, []*mneme.Record{rec}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := unembedded(t, f); n != 1 {
		t.Fatalf("after a text change: %d unembedded, want 1", n)
	}
	f.embedWith(e)
	if res, err := f.eng.Reindex(f.ctx); err != nil || res.Embedded != 1 {
		t.Fatalf("reindex = %+v, %v", res, err)
	}
}

// testEmbedderMismatch: vectors of two embedders never mix; the message
// names both and the fix, and nothing is written.
func testEmbedderMismatch(t *testing.T, f *fixture) {
	withEmbedder(t, f, 32)
	f.remember(mneme.Record{Text: "first"})
	withEmbedder(t, f, 64)
	r := mneme.Record{Text: "second"}
	_, err := f.eng.Remember(f.ctx, []*mneme.Record{&r}, mneme.WriteOptions{})
	msg := mneme.ErrorMessage(err)
	if mneme.ErrorCode(err) != mneme.ECONFLICT || !strings.Contains(msg, "(32 dimensions)") || !strings.Contains(msg, "(64 dimensions)") || !strings.Contains(msg, "mneme reindex") {
		t.Fatalf("err = %v", err)
	}
	if st, _ := f.eng.Stats(f.ctx); st.Total != 1 {
		t.Fatalf("a refused write stored something: %d records", st.Total)
	}
	res, err := f.eng.Reindex(f.ctx)
	if err != nil || res.Embedded != 1 || res.Embedder.Dim != 64 {
		t.Fatalf("reindex = %+v, %v", res, err)
	}
	f.remember(mneme.Record{Text: "second"})
	if n := unembedded(t, f); n != 0 {
		t.Fatalf("%d unembedded after reindex", n)
	}
}

// testIngestEmbeds: every chunk of an ingest gets a vector, and a changed
// document's new chunks too.
func testIngestEmbeds(t *testing.T, f *fixture) {
	withEmbedder(t, f, 16)
	opts := mneme.IngestOptions{Project: "docs", MaxTokens: 16, OverlapTokens: -1}
	doc := func(body string) []mneme.SourceFile {
		return []mneme.SourceFile{{URI: "/d/a.md", Data: []byte(body)}, {URI: "/d/b.md", Data: []byte("# B\\n\\nsmall file\\n")}}
	}
	if _, err := f.eng.Ingest(f.ctx, doc("# A\n\nfirst part\n\n# A2\n\nsecond part\n"), opts); err != nil {
		t.Fatal(err)
	}
	if n := unembedded(t, f); n != 0 {
		t.Fatalf("%d chunks without a vector after ingest", n)
	}
	if _, err := f.eng.Ingest(f.ctx, doc("# A\n\nfirst part\n\n# A2\n\nchanged part\n"), opts); err != nil {
		t.Fatal(err)
	}
	if n := unembedded(t, f); n != 0 {
		t.Fatalf("%d chunks without a vector after a change", n)
	}
}

// testEmbedsWithContext: a conversation turn is embedded after the turn
// before it (stored earlier, or earlier in the same batch), a titled record
// after its title; never after a secret turn.
func testEmbedsWithContext(t *testing.T, f *fixture) {
	e := withEmbedder(t, f, 16)
	f.remember(mneme.Record{Text: "Which pet do you have?", SessionID: "s"})
	f.now = f.now.Add(time.Minute)
	f.remember(mneme.Record{Text: "Oscar, my guinea pig.", SessionID: "s"})
	batch := []*mneme.Record{
		{Text: "the vault code is 1234", SessionID: "t", Sensitivity: mneme.Secret, OccurredAt: ptr(f.now.Add(-3 * time.Minute))},
		{Text: "Noted.", SessionID: "t", OccurredAt: ptr(f.now.Add(-2 * time.Minute))},
		{Text: "Anything else?", SessionID: "t", OccurredAt: ptr(f.now.Add(-time.Minute))},
		{Title: "Deploy", Text: "Run make release."},
	}
	if _, err := f.eng.Remember(f.ctx, batch, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	want := []string{"Which pet do you have?\nOscar, my guinea pig.", "Noted.", "Noted.\nAnything else?", "Deploy\nRun make release."}
	hashes := make([]string, len(want))
	for i, w := range want {
		hashes[i] = mneme.TextHash(w)
	}
	cached, err := f.eng.Store().CachedVectors(f.ctx, e.Info(), hashes)
	if err != nil || len(cached) != len(want) {
		t.Fatalf("embedded inputs: %d of %d expected ones cached (%v)", len(cached), len(want), err)
	}
}

// testUnembeddedCount: a candidate query that runs the vector lane counts
// the non-secret records passing its filter that have no vector (written
// without an embedder, or whose text changed since), under every filter;
// its candidates say which have a vector; and after a reindex none is
// counted.
func testUnembeddedCount(t *testing.T, f *fixture) {
	e := withEmbedder(t, f, 16)
	var recs []*mneme.Record
	embedded := map[string]bool{}
	write := func(embed bool, n int) {
		t.Helper()
		f.embedWith(nil)
		if embed {
			f.embedWith(e)
		}
		batch := make([]*mneme.Record, n)
		for i := range batch {
			j := len(recs) + i
			r := &mneme.Record{Text: fmt.Sprintf("release note %d on the deploy", j), Project: fmt.Sprintf("p%d", j%3),
				Tags: []string{fmt.Sprintf("t%d", j%2)}, OccurredAt: ptr(f.now.Add(-time.Duration(j) * time.Hour))}
			if j%7 == 3 {
				r.Sensitivity = mneme.Secret
			}
			if j%11 == 5 {
				r.Key = "k" // later ones supersede earlier ones of their project
			}
			batch[i] = r
		}
		if _, err := f.eng.Remember(f.ctx, batch, mneme.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, r := range batch {
			embedded[r.ID] = embed && r.Sensitivity != mneme.Secret
		}
		recs = append(recs, batch...)
	}
	vec, _ := e.Embed(f.ctx, []string{"deploy release"})
	filters := []mneme.Filter{{}, {Project: "p1"}, {Tags: []string{"t1"}}, {Since: ptr(f.now.Add(-20 * time.Hour))},
		{IncludeSuperseded: true}, {Clearance: mneme.Secret}, {Project: "p2", IncludeSuperseded: true, Clearance: mneme.Secret}, {Project: "nope"}}
	check := func(when string) {
		t.Helper()
		for _, fl := range filters {
			fl := f.filter(fl)
			want := 0
			for _, r := range recs {
				if stored := f.get(r.ID); fl.Match(stored) && stored.Sensitivity != mneme.Secret && !embedded[r.ID] {
					want++
				}
			}
			for _, q := range []mneme.CandidateQuery{{Terms: []string{"deploy", "release"}, Vector: vec[0]}, {Vector: vec[0]}} {
				q.K, q.Filter = 5, fl
				got, err := f.eng.Store().Candidates(f.ctx, q)
				if err != nil || got.Unembedded != want {
					t.Fatalf("%s, filter %+v, lexical lane %v: %d unembedded (%v), want %d", when, fl, q.Terms != nil, got.Unembedded, err, want)
				}
				for _, c := range got.List {
					if c.HasVector != embedded[c.Record.ID] {
						t.Fatalf("%s: candidate %q has a vector: %v, want %v", when, c.Record.Text, c.HasVector, embedded[c.Record.ID])
					}
				}
			}
		}
		lexical, err := f.eng.Store().Candidates(f.ctx, mneme.CandidateQuery{Terms: []string{"deploy"}, K: 5, Filter: f.filter(mneme.Filter{})})
		if err != nil || lexical.Unembedded != 0 {
			t.Fatalf("%s: a query without the vector lane counted %d unembedded (%v)", when, lexical.Unembedded, err)
		}
	}
	write(true, 3)
	check("every record embedded")
	write(true, 27)
	check("every record embedded but the secret ones")
	write(false, 20) // as by import --embedder none
	write(true, 10)
	check("partly embedded")
	// A text changed without an embedder drops the stale vector.
	f.embedWith(nil)
	rec := f.get(recs[0].ID)
	rec.Text, rec.ContentHash = "a rewritten release note on the deploy", ""
	if _, err := f.eng.Import(f.ctx, []*mneme.Record{rec}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	embedded[rec.ID] = false
	check("after a text change")
	f.embedWith(e)
	if _, err := f.eng.Reindex(f.ctx); err != nil {
		t.Fatal(err)
	}
	for id := range embedded {
		embedded[id] = f.get(id).Sensitivity != mneme.Secret
	}
	check("after reindex")
}
