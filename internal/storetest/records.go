package storetest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

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
	n, err := f.eng.Prune(f.ctx, mneme.PruneRequest{Expired: true})
	if err != nil || n.Pruned != 1 || n.IDs[0] != short.ID {
		t.Fatalf("prune = %+v, %v", n, err)
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

func testStats(t *testing.T, f *fixture) {
	f.remember(mneme.Record{Project: "a", Text: "one", Type: mneme.Episodic})
	f.remember(mneme.Record{Project: "a", Text: "two"})
	f.remember(mneme.Record{Project: "b", Text: "three", Sensitivity: mneme.Secret})
	st, err := f.eng.Stats(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Stored without an embedder, the non-secret records wait for a vector.
	want := []mneme.ProjectStats{
		{Project: "a", Total: 2, Types: map[string]int{"episodic": 1, "semantic": 1}, PendingEmbeddings: 2},
		{Project: "b", Total: 1, Types: map[string]int{"semantic": 1}},
	}
	if st.Total != 3 || st.Secret != 1 || st.PendingEmbeddings != 2 || !reflect.DeepEqual(st.Projects, want) {
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

// testStatsClearance: a caller without clearance secret is shown counts
// without the secret records, in every counter (the store counts them
// apart, Stats.SecretOnly); an owner sees them all.
func testStatsClearance(t *testing.T, f *fixture) {
	f.remember(mneme.Record{Project: "a", Text: "one", Type: mneme.Episodic})
	f.remember(mneme.Record{Project: "a", Text: "two", Sensitivity: mneme.Secret, Type: mneme.Episodic})
	f.remember(mneme.Record{Project: "a", Text: "three", Sensitivity: mneme.Secret, Key: "k"})
	f.remember(mneme.Record{Project: "a", Text: "four", Sensitivity: mneme.Secret, Key: "k"}) // supersedes three
	f.remember(mneme.Record{Project: "b", Text: "five", Sensitivity: mneme.Secret, ExpiresAt: ptr(f.now.Add(-time.Hour))})
	f.remember(mneme.Record{Project: "c", Text: "six", Key: "k"})
	f.remember(mneme.Record{Project: "c", Text: "seven", Key: "k"}) // supersedes six
	secretDoc := mneme.IngestOptions{Project: "d", Sensitivity: mneme.Secret}
	if _, err := f.eng.Ingest(f.ctx, []mneme.SourceFile{{URI: "/r/s.md", Data: []byte("secret plans")}}, secretDoc); err != nil {
		t.Fatal(err)
	}
	if _, err := f.eng.Ingest(f.ctx, []mneme.SourceFile{{URI: "/r/p.md", Data: []byte("public plans")}}, mneme.IngestOptions{Project: "d"}); err != nil {
		t.Fatal(err)
	}
	all, err := f.eng.Stats(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if all.Total != 9 || all.Secret != 5 || all.Superseded != 2 || all.Expired != 1 || all.Documents != 2 || len(all.Projects) != 4 || all.SecretOnly != nil {
		t.Fatalf("owner's stats = %+v", all)
	}
	for _, sc := range []mneme.Scope{{Name: "internal", Clearance: mneme.Internal}, {Name: "none"}} {
		st, err := f.eng.Stats(mneme.WithScope(f.ctx, sc))
		if err != nil {
			t.Fatal(err)
		}
		want := []mneme.ProjectStats{
			{Project: "a", Total: 1, Types: map[string]int{"episodic": 1}, PendingEmbeddings: 1},
			{Project: "c", Total: 2, Types: map[string]int{"semantic": 2}, PendingEmbeddings: 2},
			{Project: "d", Total: 1, Types: map[string]int{"semantic": 1}, PendingEmbeddings: 1},
		}
		if st.Total != 4 || st.Secret != 0 || st.Superseded != 1 || st.Expired != 0 || st.Documents != 1 || !reflect.DeepEqual(st.Projects, want) {
			t.Fatalf("%s clearance: stats = %+v", sc.Name, st)
		}
	}
	st, err := f.eng.Stats(mneme.WithScope(f.ctx, mneme.Scope{Name: "a", Projects: []string{"a"}, Clearance: mneme.Secret}))
	if err != nil || st.Total != 4 || len(st.Projects) != 1 || st.Projects[0].Types["episodic"] != 2 || st.Projects[0].Types["semantic"] != 2 {
		t.Fatalf("a scope limited to a with clearance secret: %+v, %v", st, err)
	}
}

// testConcurrentRewrites: updates of different fields of one record, and
// in-place promotions of one record, racing each other all take effect
// (each read-modify-write that lost a race reads again).
func testConcurrentRewrites(t *testing.T, f *fixture) {
	ctx := mneme.WithScope(f.ctx, mneme.Scope{Name: "tester", Write: true, Clearance: mneme.Secret})
	str := func(s string) *string { return &s }
	patches := []mneme.Patch{{Title: str("raced title")}, {Kind: str("raced-kind")}, {Key: str("raced-key")}, {Tags: &[]string{"raced"}}}
	for round := range 3 {
		id := f.remember(mneme.Record{Text: fmt.Sprintf("rewritten %d", round), Type: mneme.Semantic}).ID
		var wg sync.WaitGroup
		errs := make([]error, 2*len(patches))
		for i, p := range patches {
			wg.Add(2)
			go func() {
				defer wg.Done()
				_, errs[i] = f.eng.Patch(ctx, id, p, mneme.Internal)
			}()
			go func() {
				defer wg.Done()
				req := mneme.PromoteRequest{IDs: []string{id}, To: mneme.Semantic, Status: mneme.Validated, Title: fmt.Sprintf("promoted %d", i)}
				_, errs[len(patches)+i] = f.eng.Promote(ctx, req, mneme.Internal)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, writer %d: %v", round, i, err)
			}
		}
		r := f.get(id)
		if r.Kind != "raced-kind" || r.Key != "raced-key" || !slices.Contains(r.Tags, "raced") || r.Status != mneme.Validated {
			t.Fatalf("round %d: a change was lost: kind %q, key %q, tags %q, status %s", round, r.Kind, r.Key, r.Tags, r.Status)
		}
		if len(r.Promotions) != len(patches) {
			t.Fatalf("round %d: %d promotion entries kept of %d promotions", round, len(r.Promotions), len(patches))
		}
	}
}
