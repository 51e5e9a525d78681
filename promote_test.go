package mneme_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// promoteFixture is a home with records to promote, by name.
func promoteFixture(t *testing.T) (*mneme.Engine, map[string]string) {
	t.Helper()
	day := func(d int) *time.Time { tm := now.AddDate(0, 0, -d); return &tm }
	eng := engine(t,
		mneme.Record{Text: "The build broke: the cache volume was full; pruning it fixed the build.", Type: mneme.Episodic, Kind: "learning", Tags: []string{"build"}, OccurredAt: day(3), Title: "Full cache", Provenance: mneme.Verified},
		mneme.Record{Text: "Pruned docker volumes again after the nightly build failed.", Type: mneme.Episodic, Kind: "learning", Tags: []string{"ops"}, OccurredAt: day(1)},
		mneme.Record{Text: "Staging runs Postgres 17.", Type: mneme.Semantic, Key: "staging-db"},
		mneme.Record{Text: "The release checklist lives in docs/release.md.", Type: mneme.Semantic, Status: mneme.Published},
		mneme.Record{Text: "The vault root token rotates monthly.", Type: mneme.Episodic, Sensitivity: mneme.Secret},
		mneme.Record{Text: "Blog posts go out on Mondays.", Type: mneme.Episodic, Project: "blog"},
		mneme.Record{Text: "Staging ran Postgres 16.", Type: mneme.Semantic, Key: "old-db"},
	)
	ids := map[string]string{}
	names := map[string]string{"The build": "cache", "Pruned": "prune", "Staging runs": "staging", "The release": "published",
		"The vault": "secret", "Blog": "blog", "Staging ran": "old"}
	eng.Each(context.Background(), mneme.Filter{Clearance: mneme.Secret, IncludeSuperseded: true}, func(r *mneme.Record) error {
		for prefix, name := range names {
			if strings.HasPrefix(r.Text, prefix) {
				ids[name] = r.ID
			}
		}
		return nil
	})
	// The old staging record is superseded by a newer one with its key.
	if _, err := eng.Remember(context.Background(), []*mneme.Record{{Text: "Staging ran Postgres 16, then 17.", Key: "old-db"}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return eng, ids
}

// snapshot is every stored record as JSON, to show that a refused
// promotion wrote nothing.
func snapshot(t *testing.T, eng *mneme.Engine) string {
	t.Helper()
	var all []*mneme.Record
	err := eng.Each(context.Background(), mneme.Filter{Clearance: mneme.Secret, IncludeSuperseded: true, IncludeExpired: true}, func(r *mneme.Record) error {
		all = append(all, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(all)
	return string(b)
}

func TestPromoteRefusals(t *testing.T) {
	eng, ids := promoteFixture(t)
	ada := mneme.WithScope(context.Background(), mneme.Scope{Name: "ada", Write: true, Clearance: mneme.Internal})
	reader := mneme.WithScope(context.Background(), mneme.Scope{Name: "reader", Clearance: mneme.Internal})
	missing := "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"
	before := snapshot(t, eng)
	for _, c := range []struct {
		name string
		ctx  context.Context
		req  mneme.PromoteRequest
		code string
		msg  string
	}{
		{"no ids", ada, mneme.PromoteRequest{To: mneme.Semantic}, mneme.EINVALID, "give the ids"},
		{"not an id", ada, mneme.PromoteRequest{IDs: []string{"nope"}, To: mneme.Semantic}, mneme.EINVALID, `"nope" is not a record id`},
		{"no target", ada, mneme.PromoteRequest{IDs: []string{ids["cache"]}}, mneme.EINVALID, `to "semantic"`},
		{"episodic target", ada, mneme.PromoteRequest{IDs: []string{ids["cache"]}, To: mneme.Episodic}, mneme.EINVALID, "not a reusable type"},
		{"bad status", ada, mneme.PromoteRequest{IDs: []string{ids["cache"]}, To: mneme.Semantic, Status: mneme.Active}, mneme.EINVALID, "not a reusable status"},
		{"unknown id", ada, mneme.PromoteRequest{IDs: []string{ids["cache"], missing}, To: mneme.Semantic}, mneme.ENOTFOUND, "nothing was promoted"},
		{"secret without clearance", ada, mneme.PromoteRequest{IDs: []string{ids["secret"]}, To: mneme.Semantic}, mneme.ENOTFOUND, "no record with id"},
		{"superseded", ada, mneme.PromoteRequest{IDs: []string{ids["old"]}, To: mneme.Semantic}, mneme.EINVALID, "superseded"},
		{"two projects", ada, mneme.PromoteRequest{IDs: []string{ids["cache"], ids["blog"]}, To: mneme.Semantic}, mneme.EINVALID, "different projects"},
		{"lowered status", ada, mneme.PromoteRequest{IDs: []string{ids["published"]}, To: mneme.Semantic}, mneme.EINVALID, "never lowers"},
		{"read-only token", reader, mneme.PromoteRequest{IDs: []string{ids["cache"]}, To: mneme.Semantic}, mneme.EFORBIDDEN, "read-only"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := eng.Promote(c.ctx, c.req, mneme.Secret)
			if mneme.ErrorCode(err) != c.code || !strings.Contains(mneme.ErrorMessage(err), c.msg) {
				t.Fatalf("err = %v (%s), want %s containing %q", err, mneme.ErrorCode(err), c.code, c.msg)
			}
			if after := snapshot(t, eng); after != before {
				t.Fatal("a refused promotion changed the store")
			}
		})
	}
}

func TestPromote(t *testing.T) {
	eng, ids := promoteFixture(t)
	ctx := mneme.WithScope(context.Background(), mneme.Scope{Name: "ada", Write: true, Clearance: mneme.Secret})
	promote := func(req mneme.PromoteRequest, outcome string) *mneme.Record {
		t.Helper()
		res, err := eng.Promote(ctx, req, mneme.Secret)
		if err != nil || res.Outcome != outcome || res.Record == nil || res.Record.ID != res.RecordID {
			t.Fatalf("promote %v = %+v, %v; want %s", req.IDs, res, err, outcome)
		}
		return res.Record
	}
	from := func(name string, typ mneme.Type, st mneme.Status) mneme.PromotedFrom {
		return mneme.PromotedFrom{ID: ids[name], Type: typ, Status: st}
	}

	// An event becomes a fact: a new record, linked to it, with the entry.
	fact := promote(mneme.PromoteRequest{IDs: []string{ids["cache"]}, To: mneme.Semantic}, mneme.Created)
	src, _ := eng.Get(ctx, ids["cache"], mneme.Secret)
	want := []mneme.Promotion{{At: now, By: "ada", ToType: mneme.Semantic, ToStatus: mneme.Validated,
		From: []mneme.PromotedFrom{from("cache", mneme.Episodic, mneme.Active)}}}
	switch {
	case fact.Type != mneme.Semantic || fact.Status != mneme.Validated || fact.Text != src.Text || fact.Title != "Full cache" || fact.Kind != "learning" || fact.Provenance != mneme.Verified:
		t.Fatalf("fact = %+v", fact)
	case !reflect.DeepEqual(fact.Links, []mneme.Link{{Type: mneme.LinkDerivedFrom, Target: src.ID}}):
		t.Fatalf("links = %v", fact.Links)
	case !reflect.DeepEqual(fact.Promotions, want):
		t.Fatalf("promotions = %+v, want %+v", fact.Promotions, want)
	case src.Type != mneme.Episodic || src.Status != mneme.Active || len(src.Promotions) != 0:
		t.Fatalf("the source changed: %+v", src)
	}

	// Again: the same record, unchanged; then published: upgraded in place.
	again := promote(mneme.PromoteRequest{IDs: []string{ids["cache"]}, To: mneme.Semantic}, mneme.Unchanged)
	pub := promote(mneme.PromoteRequest{IDs: []string{ids["cache"]}, To: mneme.Semantic, Status: mneme.Published}, mneme.Upgraded)
	if again.ID != fact.ID || pub.ID != fact.ID || pub.Status != mneme.Published || len(pub.Promotions) != 2 {
		t.Fatalf("re-promotion = %+v, then %+v", again, pub)
	}

	// A fact already semantic is upgraded in place, with a new title.
	staging := promote(mneme.PromoteRequest{IDs: []string{ids["staging"]}, To: mneme.Semantic, Title: "Staging database"}, mneme.Upgraded)
	if staging.ID != ids["staging"] || staging.Title != "Staging database" || staging.Key != "staging-db" || len(staging.Links) != 0 ||
		!reflect.DeepEqual(staging.Promotions[0].From, []mneme.PromotedFrom{from("staging", mneme.Semantic, mneme.Active)}) {
		t.Fatalf("in place = %+v", staging)
	}

	// Two events become one how-to: texts oldest first, tags of both.
	howto := promote(mneme.PromoteRequest{IDs: []string{ids["prune"], ids["cache"], ids["prune"]}, To: mneme.Procedural, Title: "Fix a full build cache"}, mneme.Created)
	if howto.Type != mneme.Procedural || !strings.HasPrefix(howto.Text, "The build broke") || !strings.Contains(howto.Text, "\n\nPruned docker") ||
		!reflect.DeepEqual(howto.Tags, []string{"build", "ops"}) || len(howto.Links) != 2 || howto.Provenance != mneme.Cited {
		t.Fatalf("how-to = %+v", howto)
	}

	// A secret source makes a secret record (with clearance).
	if s := promote(mneme.PromoteRequest{IDs: []string{ids["secret"]}, To: mneme.Semantic}, mneme.Created); s.Sensitivity != mneme.Secret {
		t.Fatalf("promoted secret = %s", s.Sensitivity)
	}

	// The event and the fact share a text: each write finds its own.
	res, err := eng.Remember(ctx, []*mneme.Record{{Text: src.Text, Type: mneme.Episodic, Tags: []string{"build", "cache"}}}, mneme.WriteOptions{})
	if err != nil || res.ID != src.ID || res.Updated != 1 {
		t.Fatalf("remember the event again = %+v, %v; want an update of %s", res, err, src.ID)
	}
	if f, _ := eng.Get(ctx, fact.ID, mneme.Secret); f.Type != mneme.Semantic || len(f.Promotions) != 2 {
		t.Fatalf("the fact changed: %+v", f)
	}

	// Recall limited to reusable records finds the fact, not the event.
	hits := recall(t, eng, mneme.Query{Text: "cache volume full", K: 5, Filter: mneme.Filter{Statuses: []mneme.Status{mneme.Validated, mneme.Published}}})
	for _, h := range hits.Hits {
		if h.Record.Status != mneme.Validated && h.Record.Status != mneme.Published {
			t.Fatalf("hit %s is %s", h.ID, h.Record.Status)
		}
	}
	if len(hits.Hits) == 0 || hits.Hits[0].ID != fact.ID {
		t.Fatalf("reusable recall = %v, want the fact first", hits.Hits)
	}
}
