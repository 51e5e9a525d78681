package storetest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// testPromotion: a promotion is stored in the record's history, found by
// its text under its type, and exported and imported with the record.
func testPromotion(t *testing.T, f *fixture) {
	ev := f.remember(mneme.Record{Text: "The nightly build failed: the cache volume was full.", Type: mneme.Episodic, Tags: []string{"build"}})
	ctx := mneme.WithScope(f.ctx, mneme.Scope{Name: "ada", Write: true, Clearance: mneme.Secret})
	res, err := f.eng.Promote(ctx, mneme.PromoteRequest{IDs: []string{ev.ID}, To: mneme.Procedural, Title: "Full build cache"}, mneme.Internal)
	if err != nil || res.Outcome != mneme.Created {
		t.Fatalf("promote = %+v, %v", res, err)
	}
	f.now = f.now.Add(time.Hour)
	if res, err = f.eng.Promote(ctx, mneme.PromoteRequest{IDs: []string{res.RecordID}, To: mneme.Procedural, Status: mneme.Published}, mneme.Internal); err != nil || res.Outcome != mneme.Upgraded {
		t.Fatalf("promote in place = %+v, %v", res, err)
	}
	how := f.get(res.RecordID)
	if len(how.Promotions) != 2 || how.Promotions[1].From[0] != (mneme.PromotedFrom{ID: how.ID, Type: mneme.Procedural, Status: mneme.Validated}) ||
		!how.Promotions[1].At.Equal(f.now) || how.Status != mneme.Published || how.ContentHash != f.get(ev.ID).ContentHash {
		t.Fatalf("promoted record = %+v", how)
	}
	byText, _, err := f.eng.List(f.ctx, mneme.Filter{ContentHash: how.ContentHash}, 10, "")
	if err != nil || len(byText) != 2 {
		t.Fatalf("list by content hash = %d records, %v; want the event and the how-to", len(byText), err)
	}
	// Export both, forget them, import them back: both return as they were.
	var exported []mneme.Record
	for _, r := range byText {
		exported = append(exported, *r)
	}
	if _, err := f.eng.Forget(f.ctx, mneme.ForgetRequest{IDs: []string{ev.ID, how.ID}}); err != nil {
		t.Fatal(err)
	}
	var back []*mneme.Record
	for _, r := range exported {
		b, _ := json.Marshal(r)
		var in mneme.Record
		json.Unmarshal(b, &in)
		back = append(back, &in)
	}
	if w, err := f.eng.Import(f.ctx, back, mneme.WriteOptions{}); err != nil || w.Inserted != 2 {
		t.Fatalf("import = %+v, %v; want both inserted", w, err)
	}
	if got := f.get(how.ID); !reflect.DeepEqual(got, how) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(how)
		t.Fatalf("after the round trip:\n got %s\nwant %s", g, w)
	}
}

// testSameTextTwoTypes: a text stored as an event and as a fact (by a
// promotion, or an import of one) stays two records: each write finds the
// one of its type.
func testSameTextTwoTypes(t *testing.T, f *fixture) {
	text := "Staging moved to Postgres 17 on May 2."
	ev := f.remember(mneme.Record{Text: text, Type: mneme.Episodic})
	fact := &mneme.Record{ID: "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e", Text: text, Type: mneme.Semantic, Status: mneme.Validated}
	res, err := f.eng.Import(f.ctx, []*mneme.Record{fact}, mneme.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantCounts(t, res, 1, 0, 0)
	again := &mneme.Record{ID: "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5f", Text: text, Type: mneme.Semantic}
	res, err = f.eng.Import(f.ctx, []*mneme.Record{again}, mneme.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantCounts(t, res, 0, 0, 1) // the same text and type under another id: a duplicate
	f.now = f.now.Add(time.Minute)
	upd := f.remember(mneme.Record{Text: text, Type: mneme.Episodic, Tags: []string{"db"}})
	wantCounts(t, upd, 0, 1, 0)
	if upd.ID != ev.ID || len(f.get(fact.ID).Tags) != 0 {
		t.Fatalf("remembering the event again updated %s, want the event %s", upd.ID, ev.ID)
	}
	upd = f.remember(mneme.Record{Text: text, Type: mneme.Semantic, Tags: []string{"fact"}})
	if upd.ID != fact.ID || f.get(fact.ID).Status != mneme.Validated || f.get(ev.ID).Type != mneme.Episodic {
		t.Fatalf("remembering the fact again updated %s, want the fact %s, its status kept", upd.ID, fact.ID)
	}
}

// testPruneByFilter: prune deletes by explicit filters only (a project
// alone is refused), dry runs change nothing, and statuses and expiry
// select as recall's filters do.
func testPruneByFilter(t *testing.T, f *fixture) {
	mk := func(text, project string, st mneme.Status, ttl time.Duration) string {
		r := mneme.Record{Text: text, Project: project, Status: st}
		if ttl > 0 {
			r.ExpiresAt = ptr(f.now.Add(ttl))
		}
		return f.remember(r).ID
	}
	draftA := mk("a draft note", "a", mneme.Draft, 0)
	draftB := mk("b draft note", "b", mneme.Draft, 0)
	expiring := mk("a lease", "a", mneme.Active, time.Minute)
	kept := mk("a validated fact", "a", mneme.Validated, 0)
	f.now = f.now.Add(time.Hour)
	for _, req := range []mneme.PruneRequest{{}, {ForgetFilter: mneme.ForgetFilter{Project: "a"}}, {DryRun: true}} {
		if _, err := f.eng.Prune(f.ctx, req); mneme.ErrorCode(err) != mneme.EINVALID {
			t.Fatalf("prune %+v = %v, want EINVALID", req, err)
		}
	}
	dry, err := f.eng.Prune(f.ctx, mneme.PruneRequest{Statuses: []mneme.Status{mneme.Draft}, DryRun: true})
	if err != nil || dry.Pruned != 0 || len(dry.IDs) != 2 || len(f.listAll()) != 4 {
		t.Fatalf("dry run = %+v, %v", dry, err)
	}
	for _, c := range []struct {
		req  mneme.PruneRequest
		gone []string
	}{
		{mneme.PruneRequest{ForgetFilter: mneme.ForgetFilter{Project: "a"}, Statuses: []mneme.Status{mneme.Draft}}, []string{draftA}},
		{mneme.PruneRequest{Expired: true}, []string{expiring}},
		{mneme.PruneRequest{Statuses: []mneme.Status{mneme.Draft, mneme.Superseded}}, []string{draftB}},
	} {
		res, err := f.eng.Prune(f.ctx, c.req)
		if err != nil || !reflect.DeepEqual(res.IDs, c.gone) || res.Pruned != len(c.gone) {
			t.Fatalf("prune %+v = %+v, %v; want %v", c.req, res, err, c.gone)
		}
	}
	if all := f.listAll(); len(all) != 1 || all[0].ID != kept {
		t.Fatalf("left %d records, want only the validated one", len(all))
	}
}

// testStatusTopK: a status filter is inside both lanes, so reusable
// records outscored by many others still make their own top k.
func testStatusTopK(t *testing.T, f *fixture) {
	withEmbedder(t, f, 32)
	var recs []*mneme.Record
	for i := range 120 { // more than recall's candidates (at least 50): a filter after the lanes would miss them
		recs = append(recs, &mneme.Record{Text: fmt.Sprintf("deploy deploy deploy pipeline run %d", i)})
	}
	for i := range 4 {
		recs = append(recs, &mneme.Record{Text: fmt.Sprintf("a checked note that mentions deploy once among many other words, number %d", i), Status: mneme.Validated})
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []mneme.Mode{mneme.Lexical, mneme.Vector, mneme.Hybrid} {
		hits := f.recall(mneme.Query{Text: "deploy pipeline", K: 3, Mode: mode, IncludeUnmatched: true, // the test embedder's cosines are noise
			Filter: mneme.Filter{Statuses: []mneme.Status{mneme.Validated, mneme.Published}}})
		if len(hits) != 3 {
			t.Fatalf("%s: %d hits, want 3", mode, len(hits))
		}
		for _, h := range hits {
			if h.Record.Status != mneme.Validated {
				t.Fatalf("%s: hit %s is %s", mode, h.ID, h.Record.Status)
			}
		}
	}
}

// listAll is every stored record.
func (f *fixture) listAll() []*mneme.Record {
	f.t.Helper()
	recs, _, err := f.eng.List(f.ctx, mneme.Filter{Clearance: mneme.Secret, IncludeSuperseded: true, IncludeExpired: true}, mneme.MaxK, "")
	if err != nil {
		f.t.Fatal(err)
	}
	return recs
}
