// Package storetest is the contract every mneme.Store passes: the same
// behaviour through the Engine, whatever the backend.
package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// Opener returns a fresh, empty store; the suite closes it.
type Opener func(t *testing.T) mneme.Store

// Run runs the contract suite.
func Run(t *testing.T, open Opener) {
	tests := map[string]func(*testing.T, *fixture){
		"RoundTripAllFields":     testRoundTrip,
		"DedupeByContent":        testDedupe,
		"DedupeIsPerProject":     testDedupePerProject,
		"Supersession":           testSupersession,
		"TTL":                    testTTL,
		"SecretNeedsClearance":   testSecret,
		"SearchFilteredTopK":     testFilteredTopK,
		"SearchFilters":          testSearchFilters,
		"SearchMatchedTerms":     testMatchedTerms,
		"ListPages":              testListPages,
		"DeleteAllOrNone":        testDeleteAllOrNone,
		"ImportIdempotent":       testImportIdempotent,
		"Documents":              testDocuments,
		"Stats":                  testStats,
		"ConcurrentSameText":     testConcurrentSameText,
		"CredentialRefusedWhole": testCredentialRefused,
		"Vectors":                testVectors,
		"EmbedderMismatch":       testEmbedderMismatch,
		"IngestEmbeds":           testIngestEmbeds,
		"VectorSearch":           testVectorSearch,
		"EmbedsWithContext":      testEmbedsWithContext,
		"UnembeddedCount":        testUnembeddedCount,
	}
	names := make([]string, 0, len(tests))
	for n := range tests {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() { s.Close() })
			f := &fixture{t: t, ctx: context.Background(), now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
			f.eng = mneme.NewEngine(s, f.clock())
			tests[name](t, f)
		})
	}
}

type fixture struct {
	t   *testing.T
	ctx context.Context
	eng *mneme.Engine
	now time.Time
}

// remember stores one record and returns the write result.
func (f *fixture) remember(r mneme.Record) mneme.WriteResult {
	f.t.Helper()
	res, err := f.eng.Remember(f.ctx, []*mneme.Record{&r}, mneme.WriteOptions{})
	if err != nil {
		f.t.Fatalf("remember %q: %v", r.Text, err)
	}
	return res
}

func (f *fixture) get(id string) *mneme.Record {
	f.t.Helper()
	r, err := f.eng.Get(f.ctx, id, mneme.Secret)
	if err != nil {
		f.t.Fatalf("get %s: %v", id, err)
	}
	return r
}

func (f *fixture) recall(q mneme.Query) []mneme.Hit {
	f.t.Helper()
	if q.K == 0 {
		q.K = 10
	}
	res, err := f.eng.Recall(f.ctx, q)
	if err != nil {
		f.t.Fatalf("recall %q: %v", q.Text, err)
	}
	return res.Hits
}

func ids(hits []mneme.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func wantCounts(t *testing.T, got mneme.WriteResult, ins, upd, skip int) {
	t.Helper()
	if got.Inserted != ins || got.Updated != upd || got.SkippedDuplicates != skip {
		t.Fatalf("write result = %+v, want inserted %d, updated %d, skipped %d", got, ins, upd, skip)
	}
}

func testRoundTrip(t *testing.T, f *fixture) {
	in := mneme.Record{
		ID: "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e", Project: "alpha", Type: mneme.Episodic, Kind: "decision",
		Title: "Release day", Text: "We shipped v2 on Friday.", Tags: []string{"release", "v2"},
		Source:     &mneme.Source{URI: "docs/release.md", LineStart: 3, LineEnd: 9, Parent: "0192f0c1-6b0e-7c3a-9d2e-000000000001", Chunk: 2},
		OccurredAt: ptr(time.Date(2026, 4, 3, 9, 30, 0, 123456789, time.UTC)),
		CreatedAt:  time.Date(2026, 4, 3, 10, 0, 0, 0, time.UTC), UpdatedAt: time.Date(2026, 4, 4, 10, 0, 0, 0, time.UTC),
		ExpiresAt: ptr(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)), Key: "release-v2", Status: mneme.Validated,
		Provenance: mneme.Cited, Sensitivity: mneme.Public, SessionID: "s-1", RunID: "r-1", Speaker: "ada",
		Links: []mneme.Link{{Type: mneme.LinkRelatesTo, Target: "0192f0c1-6b0e-7c3a-9d2e-000000000002"}},
		Meta:  json.RawMessage(`{"n":1.5,"ticket":"ENG-12","nested":{"a":[1,2]}}`),
	}
	want := in
	res, err := f.eng.Import(f.ctx, []*mneme.Record{&in}, mneme.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantCounts(t, res, 1, 0, 0)
	got := f.get(want.ID)
	want.ContentHash = got.ContentHash
	if got.ContentHash == "" || !reflect.DeepEqual(*got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("round trip changed the record:\n got %s\nwant %s", g, w)
	}
}

func testDedupe(t *testing.T, f *fixture) {
	first := f.remember(mneme.Record{Text: "The build uses  Go 1.26.", Tags: []string{"build"}})
	wantCounts(t, first, 1, 0, 0)
	again := f.remember(mneme.Record{Text: "The build uses Go 1.26.\n", Tags: []string{"Build "}})
	wantCounts(t, again, 0, 0, 1)
	if again.ID != first.ID {
		t.Fatalf("duplicate reported id %s, want the stored %s", again.ID, first.ID)
	}
	f.now = f.now.Add(time.Hour)
	changed := f.remember(mneme.Record{Text: "The build uses Go 1.26.", Tags: []string{"build", "go"}})
	wantCounts(t, changed, 0, 1, 0)
	r := f.get(first.ID)
	if !reflect.DeepEqual(r.Tags, []string{"build", "go"}) || !r.UpdatedAt.Equal(f.now) || r.CreatedAt.Equal(f.now) {
		t.Fatalf("updated record = tags %v, created %s, updated %s", r.Tags, r.CreatedAt, r.UpdatedAt)
	}
}

func testDedupePerProject(t *testing.T, f *fixture) {
	a := f.remember(mneme.Record{Project: "a", Text: "same words"})
	b := f.remember(mneme.Record{Project: "b", Text: "same words"})
	wantCounts(t, b, 1, 0, 0)
	if a.ID == b.ID {
		t.Fatal("records in two projects share an id")
	}
}

func testSupersession(t *testing.T, f *fixture) {
	old := f.remember(mneme.Record{Text: "staging runs postgres 16", Key: "staging-db"})
	f.now = f.now.Add(time.Minute)
	other := f.remember(mneme.Record{Project: "other", Text: "staging runs postgres 15", Key: "staging-db"})
	f.now = f.now.Add(time.Minute)
	cur := f.remember(mneme.Record{Text: "staging runs postgres 17", Key: "staging-db"})
	if cur.Superseded != 1 {
		t.Fatalf("superseded = %d, want 1 (only in the same project)", cur.Superseded)
	}
	if got := f.get(old.ID).Status; got != mneme.Superseded {
		t.Fatalf("old status = %s", got)
	}
	if got := f.get(other.ID).Status; got != mneme.Active {
		t.Fatalf("other project's record status = %s, want active", got)
	}
	if l := f.get(cur.ID).Links; !reflect.DeepEqual(l, []mneme.Link{{Type: mneme.LinkSupersedes, Target: old.ID}}) {
		t.Fatalf("links = %v", l)
	}
	hits := f.recall(mneme.Query{Text: "staging postgres", Filter: mneme.Filter{Project: mneme.DefaultProject}})
	if got := ids(hits); !reflect.DeepEqual(got, []string{cur.ID}) {
		t.Fatalf("recall = %v, want only the current record", got)
	}
	hits = f.recall(mneme.Query{Text: "staging postgres", Filter: mneme.Filter{Project: mneme.DefaultProject, IncludeSuperseded: true}})
	if len(hits) != 2 {
		t.Fatalf("recall with superseded = %d hits, want 2", len(hits))
	}
	hist, err := f.eng.History(f.ctx, mneme.DefaultProject, "staging-db", mneme.Internal)
	if err != nil || len(hist) != 2 || hist[0].ID != old.ID || hist[1].ID != cur.ID {
		t.Fatalf("history = %v, %v", hist, err)
	}
}

func testTTL(t *testing.T, f *fixture) {
	short := f.remember(mneme.Record{Text: "temporary lease on port 8080", ExpiresAt: ptr(f.now.Add(time.Hour))})
	f.remember(mneme.Record{Text: "permanent lease on port 9090"})
	if n := len(f.recall(mneme.Query{Text: "lease port"})); n != 2 {
		t.Fatalf("before expiry: %d hits, want 2", n)
	}
	f.now = f.now.Add(2 * time.Hour)
	hits := f.recall(mneme.Query{Text: "lease port"})
	recs, _, err := f.eng.List(f.ctx, mneme.Filter{}, 10, "")
	if err != nil || len(hits) != 1 || len(recs) != 1 || hits[0].ID == short.ID {
		t.Fatalf("after expiry: recall %v, list %d, err %v", ids(hits), len(recs), err)
	}
	n, err := f.eng.Prune(f.ctx)
	if err != nil || n != 1 {
		t.Fatalf("prune = %d, %v", n, err)
	}
	if _, err := f.eng.Get(f.ctx, short.ID, mneme.Secret); mneme.ErrorCode(err) != mneme.ENOTFOUND {
		t.Fatalf("get pruned = %v, want ENOTFOUND", err)
	}
}

func testSecret(t *testing.T, f *fixture) {
	s := f.remember(mneme.Record{Text: "vault root token is kept in the safe", Sensitivity: mneme.Secret})
	f.remember(mneme.Record{Text: "vault runbook lives in the wiki"})
	if got := f.recall(mneme.Query{Text: "vault"}); len(got) != 1 || got[0].ID == s.ID {
		t.Fatalf("recall without clearance = %v", ids(got))
	}
	if got := f.recall(mneme.Query{Text: "vault", Filter: mneme.Filter{Clearance: mneme.Secret}}); len(got) != 2 {
		t.Fatalf("recall with clearance = %v", ids(got))
	}
	recs, _, _ := f.eng.List(f.ctx, mneme.Filter{}, 10, "")
	if len(recs) != 1 {
		t.Fatalf("list without clearance = %d records", len(recs))
	}
	if _, err := f.eng.Get(f.ctx, s.ID, mneme.Internal); mneme.ErrorCode(err) != mneme.ENOTFOUND {
		t.Fatalf("get secret without clearance = %v", err)
	}
}

// testFilteredTopK: the filter is inside the search, so a project whose
// records all score below another project's still gets its own top k.
func testFilteredTopK(t *testing.T, f *fixture) {
	var recs []*mneme.Record
	for i := range 30 {
		recs = append(recs, &mneme.Record{Project: "loud", Text: fmt.Sprintf("deploy deploy deploy pipeline %d", i)})
	}
	for i := range 5 {
		recs = append(recs, &mneme.Record{Project: "quiet", Text: fmt.Sprintf("a long note that mentions deploy once among many other words number %d", i)})
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	hits := f.recall(mneme.Query{Text: "deploy", K: 3, Filter: mneme.Filter{Project: "quiet"}})
	if len(hits) != 3 {
		t.Fatalf("filtered top-3 = %d hits, want 3", len(hits))
	}
	for _, h := range hits {
		if h.Record.Project != "quiet" {
			t.Fatalf("hit from project %s", h.Record.Project)
		}
	}
	all := f.recall(mneme.Query{Text: "deploy", K: 10})
	for i := 1; i < len(all); i++ {
		if all[i].Score > all[i-1].Score {
			t.Fatalf("hits not in score order: %v", all)
		}
	}
	if all[0].Score != 1 || all[0].Record.Project != "loud" {
		t.Fatalf("top hit = %+v, want the loud project at score 1", all[0])
	}
}

func testSearchFilters(t *testing.T, f *fixture) {
	day := func(d int) *time.Time { return ptr(time.Date(2026, 3, d, 0, 0, 0, 0, time.UTC)) }
	recs := []*mneme.Record{
		{Text: "incident one: cache outage", Type: mneme.Episodic, Kind: "incident", Tags: []string{"cache", "prod"}, OccurredAt: day(1)},
		{Text: "incident two: cache eviction storm", Type: mneme.Episodic, Kind: "incident", Tags: []string{"cache"}, OccurredAt: day(10)},
		{Text: "how to flush the cache", Type: mneme.Procedural, Kind: "howto", Tags: []string{"cache", "ops"}, OccurredAt: day(20)},
		{Text: "the cache is redis 7", Type: mneme.Semantic, Tags: []string{"prod", "ops"}, OccurredAt: day(25)},
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		filter mneme.Filter
		want   []int
	}{
		{"none", mneme.Filter{}, []int{0, 1, 2, 3}},
		{"type", mneme.Filter{Types: []mneme.Type{mneme.Episodic}}, []int{0, 1}},
		{"two types", mneme.Filter{Types: []mneme.Type{mneme.Procedural, mneme.Semantic}}, []int{2, 3}},
		{"kind", mneme.Filter{Kinds: []string{"howto"}}, []int{2}},
		{"any tag", mneme.Filter{Tags: []string{"prod", "ops"}}, []int{0, 2, 3}},
		{"all tags", mneme.Filter{Tags: []string{"prod", "ops"}, AllTags: true}, []int{3}},
		{"since", mneme.Filter{Since: day(10)}, []int{1, 2, 3}},
		{"until", mneme.Filter{Until: day(10)}, []int{0, 1}},
		{"range", mneme.Filter{Since: day(2), Until: day(24)}, []int{1, 2}},
		{"project miss", mneme.Filter{Project: "nope"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ids(f.recall(mneme.Query{Text: "cache", Filter: c.filter}))
			var want []string
			for _, i := range c.want {
				want = append(want, recs[i].ID)
			}
			sort.Strings(got)
			sort.Strings(want)
			if len(got) != len(want) || (len(got) > 0 && !reflect.DeepEqual(got, want)) {
				t.Fatalf("got %v, want %v", got, want)
			}
			for _, id := range got {
				if !c.filter.Match(f.get(id)) && c.filter.Project == "" {
					t.Fatalf("hit %s does not pass the reference filter", id)
				}
			}
		})
	}
}

func testMatchedTerms(t *testing.T, f *fixture) {
	f.remember(mneme.Record{Title: "Releases", Text: "Releasing is automated by the pipeline", Tags: []string{"ci"}})
	hits := f.recall(mneme.Query{Text: "the release pipeline", Explain: true})
	if len(hits) != 1 || hits[0].Explain == nil {
		t.Fatalf("hits = %+v", hits)
	}
	e := hits[0].Explain
	sort.Strings(e.MatchedTerms)
	if !reflect.DeepEqual(e.MatchedTerms, []string{"pipeline", "release"}) || e.BM25 <= 0 || e.Retrieval != "bm25" {
		t.Fatalf("explain = %+v", e)
	}
}

func testListPages(t *testing.T, f *fixture) {
	var recs []*mneme.Record
	for i := range 25 {
		recs = append(recs, &mneme.Record{Text: fmt.Sprintf("note %d", i)})
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var seen []string
	cursor := ""
	for pages := 0; ; pages++ {
		page, next, err := f.eng.List(f.ctx, mneme.Filter{}, 10, cursor)
		if err != nil || pages > 3 {
			t.Fatalf("page %d: %v", pages, err)
		}
		for _, r := range page {
			seen = append(seen, r.ID)
		}
		if next == "" {
			break
		}
		cursor = next
	}
	if len(seen) != 25 || !sort.IsSorted(sort.Reverse(sort.StringSlice(seen))) {
		t.Fatalf("pages gave %d ids, sorted newest first: %v", len(seen), sort.IsSorted(sort.Reverse(sort.StringSlice(seen))))
	}
	if _, _, err := f.eng.List(f.ctx, mneme.Filter{}, 10, "garbage!"); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("bad cursor: %v", err)
	}
}

// clock is the fixture's clock, which tests move by setting f.now.
func (f *fixture) clock() mneme.Option { return mneme.WithClock(func() time.Time { return f.now }) }

// embedWith replaces the fixture's engine with one over the same store
// that embeds with em (nil: none).
func (f *fixture) embedWith(em mneme.Embedder) {
	f.eng = mneme.NewEngine(f.eng.Store(), f.clock(), mneme.WithEmbedder(em))
}

func testDeleteAllOrNone(t *testing.T, f *fixture) {
	a := f.remember(mneme.Record{Text: "keep me"})
	_, err := f.eng.Store().Delete(f.ctx, []string{a.ID, "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"})
	if mneme.ErrorCode(err) != mneme.ENOTFOUND {
		t.Fatalf("delete with a missing id = %v, want ENOTFOUND", err)
	}
	f.get(a.ID)
	if n, err := f.eng.Store().Delete(f.ctx, []string{a.ID}); err != nil || n != 1 {
		t.Fatalf("delete = %d, %v", n, err)
	}
	if hits := f.recall(mneme.Query{Text: "keep"}); len(hits) != 0 {
		t.Fatalf("forgotten record still recalled")
	}
}

func testImportIdempotent(t *testing.T, f *fixture) {
	created := f.now.Add(-time.Hour)
	batch := func() []*mneme.Record {
		return []*mneme.Record{
			{ID: "0192f0c1-6b0e-7c3a-9d2e-000000000010", Text: "imported one", CreatedAt: created},
			{ID: "0192f0c1-6b0e-7c3a-9d2e-000000000011", Text: "imported two", Status: mneme.Superseded, CreatedAt: created},
		}
	}
	res, err := f.eng.Import(f.ctx, batch(), mneme.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantCounts(t, res, 2, 0, 0)
	f.now = f.now.Add(time.Hour)
	res, err = f.eng.Import(f.ctx, batch(), mneme.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantCounts(t, res, 0, 0, 2)
	if got := f.get("0192f0c1-6b0e-7c3a-9d2e-000000000011").Status; got != mneme.Superseded {
		t.Fatalf("imported status = %s", got)
	}
}

func testDocuments(t *testing.T, f *fixture) {
	v1 := []byte("# Intro\n\nFirst paragraph about alpha.\n\n# Usage\n\nSecond paragraph about beta.\n")
	opts := mneme.IngestOptions{Project: "docs", MaxTokens: 16, OverlapTokens: -1}
	res, err := f.eng.Ingest(f.ctx, []mneme.SourceFile{{URI: "/r/a.md", Data: v1}}, opts)
	if err != nil || res.Inserted < 2 {
		t.Fatalf("ingest v1 = %+v, %v", res, err)
	}
	before := f.recall(mneme.Query{Text: "alpha", Filter: mneme.Filter{Project: "docs"}})
	res, err = f.eng.Ingest(f.ctx, []mneme.SourceFile{{URI: "/r/a.md", Data: v1}}, opts)
	if err != nil || res.Unchanged != 1 || res.Inserted+res.Updated+res.Deleted != 0 {
		t.Fatalf("re-ingest unchanged = %+v, %v", res, err)
	}
	v2 := []byte("# Intro\n\nFirst paragraph about alpha.\n\n# Usage\n\nReplaced paragraph about gamma.\n")
	res, err = f.eng.Ingest(f.ctx, []mneme.SourceFile{{URI: "/r/a.md", Data: v2}}, opts)
	if err != nil || res.Inserted != 1 || res.Deleted != 1 {
		t.Fatalf("ingest v2 = %+v, %v", res, err)
	}
	if hits := f.recall(mneme.Query{Text: "beta", Filter: mneme.Filter{Project: "docs"}}); len(hits) != 0 {
		t.Fatalf("stale chunk still recalled: %v", ids(hits))
	}
	after := f.recall(mneme.Query{Text: "alpha", Filter: mneme.Filter{Project: "docs"}})
	if len(after) != 1 || after[0].ID != before[0].ID {
		t.Fatalf("unchanged chunk changed id: %v -> %v", ids(before), ids(after))
	}
	src := after[0].Record.Source
	if src == nil || src.URI != "/r/a.md" || src.Parent == "" || src.LineStart != 1 {
		t.Fatalf("chunk source = %+v", src)
	}
	docs, chunks, err := f.eng.Sync(f.ctx, "docs", []string{"/r/"}, map[string]bool{})
	if err != nil || docs != 1 || chunks != 2 {
		t.Fatalf("sync = %d docs, %d chunks, %v", docs, chunks, err)
	}
	if hits := f.recall(mneme.Query{Text: "alpha gamma", Filter: mneme.Filter{Project: "docs"}}); len(hits) != 0 {
		t.Fatalf("removed document still recalled")
	}
}

func testStats(t *testing.T, f *fixture) {
	f.remember(mneme.Record{Project: "a", Text: "one", Type: mneme.Episodic})
	f.remember(mneme.Record{Project: "a", Text: "two"})
	f.remember(mneme.Record{Project: "b", Text: "three", Sensitivity: mneme.Secret})
	st, err := f.eng.Stats(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []mneme.ProjectStats{
		{Project: "a", Total: 2, Types: map[string]int{"episodic": 1, "semantic": 1}},
		{Project: "b", Total: 1, Types: map[string]int{"semantic": 1}},
	}
	if st.Total != 3 || st.Secret != 1 || !reflect.DeepEqual(st.Projects, want) {
		t.Fatalf("stats = %+v", st)
	}
}

func testConcurrentSameText(t *testing.T, f *fixture) {
	var wg sync.WaitGroup
	results := make([]mneme.WriteResult, 8)
	errs := make([]error, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := mneme.Record{Text: "raced text"}
			results[i], errs[i] = f.eng.Remember(f.ctx, []*mneme.Record{&r}, mneme.WriteOptions{})
		}()
	}
	wg.Wait()
	inserted := 0
	for i, r := range results {
		if errs[i] != nil {
			t.Fatalf("writer %d: %v", i, errs[i])
		}
		inserted += r.Inserted
	}
	if inserted != 1 {
		t.Fatalf("%d writers inserted the same text, want exactly 1", inserted)
	}
}

func testCredentialRefused(t *testing.T, f *fixture) {
	recs := []*mneme.Record{{Text: "harmless"}, {Text: "password=hunter22"}}
	_, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{})
	if mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("credential write = %v, want EINVALID", err)
	}
	if st, _ := f.eng.Stats(f.ctx); st.Total != 0 {
		t.Fatalf("a refused batch wrote %d records", st.Total)
	}
	recs = []*mneme.Record{{Text: "password=hunter22"}}
	res, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{Redact: true})
	if err != nil || res.Inserted != 1 {
		t.Fatalf("redacted write = %+v, %v", res, err)
	}
	if got := f.get(res.ID).Text; got == "password=hunter22" {
		t.Fatalf("redacted text kept the password: %q", got)
	}
}
