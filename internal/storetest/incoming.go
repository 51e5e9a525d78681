package storetest

import (
	"maps"
	"testing"

	"github.com/mneme-ai/mneme"
)

// testIncomingLinks: a store that indexes links finds the records linking
// to a target, with the relation, in the target's project and under the
// filter's visibility; an unlinked, deleted or superseded linker is not
// found, and expansion brings the linkers marked incoming, never one the
// caller may not read.
func testIncomingLinks(t *testing.T, f *fixture) {
	li, ok := f.eng.Store().(mneme.LinkIndex)
	if !ok {
		t.Fatal("the store does not index links (mneme.LinkIndex)")
	}
	src := f.remember(mneme.Record{Text: "ada said the freeze starts monday"})
	from := func(rel, text string, more mneme.Record) string {
		more.Text, more.Links = text, []mneme.Link{{Type: rel, Target: src.ID}}
		return f.remember(more).ID
	}
	sum := from(mneme.LinkDerivedFrom, "summary: release calendar agreed", mneme.Record{Kind: "summary"})
	note := from(mneme.LinkRelatesTo, "note on the launch checklist", mneme.Record{})
	secret := from(mneme.LinkDerivedFrom, "digest with the signing key", mneme.Record{Sensitivity: mneme.Secret})
	from(mneme.LinkRelatesTo, "a record of another project", mneme.Record{Project: "elsewhere"})
	old := from(mneme.LinkFollows, "first version of the plan", mneme.Record{Key: "plan"})
	f.remember(mneme.Record{Text: "second version of the plan", Key: "plan"})
	gone := from(mneme.LinkRelatesTo, "a linker forgotten later", mneme.Record{})
	if _, err := f.eng.Forget(f.ctx, mneme.ForgetRequest{IDs: []string{gone}}); err != nil {
		t.Fatal(err)
	}
	unlinked := from(mneme.LinkRelatesTo, "a linker unlinked later", mneme.Record{})
	if _, err := f.eng.Unlink(f.ctx, mneme.LinkRequest{From: unlinked, To: src.ID}, mneme.Secret); err != nil {
		t.Fatal(err)
	}
	if f.get(old).Status != mneme.Superseded {
		t.Fatalf("the first version of the plan is %s, want superseded", f.get(old).Status)
	}
	for _, tc := range []struct {
		name string
		f    mneme.Filter
		per  int
		want map[string]string
	}{
		{"internal", mneme.Filter{Clearance: mneme.Internal}, 10, map[string]string{sum: mneme.LinkDerivedFrom, note: mneme.LinkRelatesTo}},
		{"secret", mneme.Filter{Clearance: mneme.Secret}, 10, map[string]string{sum: mneme.LinkDerivedFrom, note: mneme.LinkRelatesTo, secret: mneme.LinkDerivedFrom}},
		{"superseded", mneme.Filter{Clearance: mneme.Internal, IncludeSuperseded: true}, 10, map[string]string{sum: mneme.LinkDerivedFrom, note: mneme.LinkRelatesTo, old: mneme.LinkFollows}},
		{"one", mneme.Filter{Clearance: mneme.Internal}, 1, map[string]string{note: mneme.LinkRelatesTo}}, // the newest
		{"other project", mneme.Filter{Clearance: mneme.Secret, Project: "elsewhere"}, 10, map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			found, err := li.IncomingLinks(f.ctx, []string{src.ID, note}, f.filter(tc.f), tc.per)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, in := range found {
				if in.Target != src.ID || in.Record == nil || in.Record.ID == "" {
					t.Fatalf("incoming %+v: want a record linking to %s", in, src.ID)
				}
				got[in.Record.ID] = in.Rel
			}
			if !maps.Equal(got, tc.want) {
				t.Fatalf("linkers %v, want %v", got, tc.want)
			}
		})
	}
	// Expansion of the source brings its linkers, marked incoming; a caller
	// without clearance never gets the secret digest, nor a sign of it.
	for _, clear := range []mneme.Sensitivity{mneme.Internal, mneme.Secret} {
		ctx := mneme.WithScope(f.ctx, mneme.Scope{Name: "reader", Clearance: clear})
		res, err := f.eng.Recall(ctx, mneme.Query{Text: "freeze monday", K: 1, Expand: 5, Explain: true,
			Filter: mneme.Filter{Clearance: mneme.Secret}})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for i, h := range res.Hits {
			if i == 0 {
				if h.ID != src.ID {
					t.Fatalf("first hit %s, want the source %s", h.ID, src.ID)
				}
				continue
			}
			if from, rel := h.Expansion(); from != src.ID || h.Direction() != mneme.DirIncoming ||
				h.Explain == nil || h.Explain.Direction != mneme.DirIncoming || h.Explain.Relation != rel {
				t.Fatalf("expanded hit %s: from %q, direction %q, explain %+v; want incoming from %s", h.ID, from, h.Direction(), h.Explain, src.ID)
			}
			got[h.ID] = h.Explain.Relation
		}
		want := map[string]string{sum: mneme.LinkDerivedFrom, note: mneme.LinkRelatesTo}
		if clear == mneme.Secret {
			want[secret] = mneme.LinkDerivedFrom
		}
		if !maps.Equal(got, want) {
			t.Fatalf("clearance %s: expanded %v, want %v", clear, got, want)
		}
	}
}
