package storetest

import (
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// Typed links (issue 27, 1): link and unlink under the rules of an update,
// links to records the caller may not read never shown, and expansion
// along links.

func testLinkRelations(t *testing.T, f *fixture) {
	for _, rel := range mneme.LinkRelations() {
		t.Run(rel, func(t *testing.T) {
			from := f.remember(mneme.Record{Text: "from, linked by " + rel})
			to := f.remember(mneme.Record{Text: "to, linked by " + rel})
			req := mneme.LinkRequest{From: from.ID, To: to.ID, Rel: rel}
			res, err := f.eng.Link(f.ctx, req, mneme.Internal)
			want := []mneme.Link{{Type: rel, Target: to.ID}}
			if err != nil || !res.Changed || !slices.Equal(res.Record.Links, want) {
				t.Fatalf("link = %+v, %v; want changed with links %v", res, err, want)
			}
			if got := f.get(from.ID); !slices.Equal(got.Links, want) {
				t.Fatalf("stored links %v, want %v", got.Links, want)
			}
			if again, err := f.eng.Link(f.ctx, req, mneme.Internal); err != nil || again.Changed {
				t.Fatalf("linking again = %+v, %v; want unchanged", again, err)
			}
			res, err = f.eng.Unlink(f.ctx, req, mneme.Internal)
			if err != nil || !res.Changed || len(f.get(from.ID).Links) != 0 {
				t.Fatalf("unlink = %+v, %v; stored links %v", res, err, f.get(from.ID).Links)
			}
			if again, err := f.eng.Unlink(f.ctx, req, mneme.Internal); err != nil || again.Changed {
				t.Fatalf("unlinking again = %+v, %v; want unchanged", again, err)
			}
		})
	}
	// Unlink without a relation removes every relation to the target.
	a, b := f.remember(mneme.Record{Text: "decision a"}), f.remember(mneme.Record{Text: "decision b"})
	for _, rel := range []string{mneme.LinkRelatesTo, mneme.LinkFollows} {
		if _, err := f.eng.Link(f.ctx, mneme.LinkRequest{From: a.ID, To: b.ID, Rel: rel}, mneme.Internal); err != nil {
			t.Fatal(err)
		}
	}
	if res, err := f.eng.Unlink(f.ctx, mneme.LinkRequest{From: a.ID, To: b.ID}, mneme.Internal); err != nil || len(res.Record.Links) != 0 {
		t.Fatalf("unlink of every relation = %+v, %v", res, err)
	}
	// A record derived from a secret one is secret, and so is what derives
	// from it in turn.
	secret := f.remember(mneme.Record{Text: "the signing key passphrase", Sensitivity: mneme.Secret})
	digest := f.remember(mneme.Record{Text: "digest of decision a", Links: []mneme.Link{{Type: mneme.LinkDerivedFrom, Target: a.ID}}})
	if _, err := f.eng.Link(f.ctx, mneme.LinkRequest{From: a.ID, To: secret.ID, Rel: mneme.LinkDerivedFrom}, mneme.Secret); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{a.ID, digest.ID} {
		if got := f.get(id); got.Sensitivity != mneme.Secret {
			t.Fatalf("record %s, derived from a secret record by link, is %s", id, got.Sensitivity)
		}
	}
}

func testLinkRefused(t *testing.T, f *fixture) {
	secret := f.get(f.remember(mneme.Record{Text: "alpha's vault PIN is 4417", Project: "alpha", Sensitivity: mneme.Secret}).ID)
	other := f.get(f.remember(mneme.Record{Text: "beta's plan", Project: "beta"}).ID)
	mine := f.get(f.remember(mneme.Record{Text: "alpha's plan", Project: "alpha"}).ID)
	peer := f.get(f.remember(mneme.Record{Text: "alpha's other plan", Project: "alpha"}).ID)
	const missing = "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"
	ctx := mneme.WithScope(f.ctx, alpha)
	link := func(from, to, rel string) error {
		_, err := f.eng.Link(ctx, mneme.LinkRequest{From: from, To: to, Rel: rel}, mneme.Secret)
		return err
	}
	msg := func(err error, id string) string { return strings.ReplaceAll(mneme.ErrorMessage(err), id, "ID") }
	errMissing := link(mine.ID, missing, mneme.LinkRelatesTo)
	if mneme.ErrorCode(errMissing) != mneme.EINVALID {
		t.Fatalf("a link to a missing record = %v, want EINVALID", errMissing)
	}
	for name, target := range map[string]string{"secret": secret.ID, "other project": other.ID} {
		if err := link(mine.ID, target, mneme.LinkRelatesTo); mneme.ErrorCode(err) != mneme.EINVALID || msg(err, target) != msg(errMissing, missing) {
			t.Fatalf("a link to a %s record = %v; to a missing one %v: want the same refusal", name, err, errMissing)
		}
	}
	if err := link(secret.ID, mine.ID, mneme.LinkRelatesTo); mneme.ErrorCode(err) != mneme.ENOTFOUND {
		t.Fatalf("a link from a hidden record = %v, want ENOTFOUND", err)
	}
	if err := link(mine.ID, peer.ID, "inspired_by"); mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(err.Error(), "relates_to") {
		t.Fatalf("an unknown relation = %v, want EINVALID naming the relations", err)
	}
	if err := link(mine.ID, mine.ID, mneme.LinkRelatesTo); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("a link to itself = %v, want EINVALID", err)
	}
	readOnly := mneme.WithScope(f.ctx, mneme.Scope{Name: "reader", Clearance: mneme.Internal})
	if _, err := f.eng.Link(readOnly, mneme.LinkRequest{From: mine.ID, To: peer.ID, Rel: mneme.LinkRelatesTo}, mneme.Internal); mneme.ErrorCode(err) != mneme.EFORBIDDEN {
		t.Fatalf("a link by a read-only token = %v, want EFORBIDDEN", err)
	}
	for _, r := range []*mneme.Record{secret, other, mine, peer} {
		if got := f.get(r.ID); !got.UpdatedAt.Equal(r.UpdatedAt) || len(got.Links) != len(r.Links) {
			t.Fatalf("a refused link changed %s: %+v", r.ID, got)
		}
	}
}

// hiddenLinks stores, in project alpha, a record linking to a secret
// record, to a record of project beta and to a record it may read, and
// returns them: linker, visible, secret, other.
func hiddenLinks(t *testing.T, f *fixture) (linker, visible, secret, other *mneme.Record) {
	secret = f.get(f.remember(mneme.Record{Text: "the alpha vault PIN is 4417", Project: "alpha", Sensitivity: mneme.Secret}).ID)
	other = f.get(f.remember(mneme.Record{Text: "beta's launch plan", Project: "beta"}).ID)
	visible = f.get(f.remember(mneme.Record{Text: "alpha's launch checklist", Project: "alpha"}).ID)
	res := f.remember(mneme.Record{Text: "summary of the alpha launch plan", Project: "alpha", Kind: "summary", Links: []mneme.Link{
		{Type: mneme.LinkFollows, Target: secret.ID}, {Type: mneme.LinkRelatesTo, Target: other.ID},
		{Type: mneme.LinkDerivedFrom, Target: visible.ID}}})
	return f.get(res.ID), visible, secret, other
}

func testHiddenLinkTargets(t *testing.T, f *fixture) {
	linker, visible, _, _ := hiddenLinks(t, f)
	if len(linker.Links) != 3 {
		t.Fatalf("the owner sees links %v, want all 3", linker.Links)
	}
	ctx := mneme.WithScope(f.ctx, alpha)
	want := []mneme.Link{{Type: mneme.LinkDerivedFrom, Target: visible.ID}}
	check := func(path string, recs ...*mneme.Record) {
		t.Helper()
		for _, r := range recs {
			if r.ID == linker.ID && !slices.Equal(r.Links, want) {
				t.Fatalf("%s shows links %v, want only %v", path, r.Links, want)
			}
		}
	}
	got, err := f.eng.Get(ctx, linker.ID, mneme.Internal)
	if err != nil {
		t.Fatal(err)
	}
	check("get", got)
	listed, _, err := f.eng.List(ctx, mneme.Filter{}, 10, "")
	if err != nil || len(listed) != 2 {
		t.Fatalf("list = %d records, %v", len(listed), err)
	}
	check("list", listed...)
	var each []*mneme.Record
	if err := f.eng.Each(ctx, mneme.Filter{}, func(r *mneme.Record) error { each = append(each, r); return nil }); err != nil {
		t.Fatal(err)
	}
	check("each (export, vault)", each...)
	for _, expand := range []int{0, 3} {
		res, err := f.eng.Recall(ctx, mneme.Query{Text: "alpha launch plan summary", K: 5, Expand: expand, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			check("recall", h.Record)
			if h.Record.Project != "alpha" || h.Record.Sensitivity == mneme.Secret {
				t.Fatalf("recall with expand %d returns the hidden record %s (%s)", expand, h.ID, h.Record.Text)
			}
		}
	}
	rel, err := f.eng.Related(ctx, visible.ID, 5, mneme.Internal)
	if err != nil {
		t.Fatal(err)
	}
	check("related", append(rel.Before, rel.After...)...)
	patched, err := f.eng.Patch(ctx, linker.ID, mneme.Patch{Title: ptr("Launch")}, mneme.Internal)
	if err != nil {
		t.Fatal(err)
	}
	check("patch", patched)
	if all := f.get(linker.ID); len(all.Links) != 3 {
		t.Fatalf("a patch by a caller that sees 1 link of 3 left %v", all.Links)
	}
	// An export imported back by the same caller keeps what it hid.
	shown, _ := f.eng.Get(ctx, linker.ID, mneme.Internal)
	shown.Title = "Launch, again"
	if _, err := f.eng.Import(ctx, []*mneme.Record{shown}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if all := f.get(linker.ID); len(all.Links) != 3 || all.Title != "Launch, again" {
		t.Fatalf("an import by a caller that sees 1 link of 3 left %v (title %q)", all.Links, all.Title)
	}
}

func testExpandLinks(t *testing.T, f *fixture) {
	src1 := f.remember(mneme.Record{Text: "ada said the freeze starts monday", Type: mneme.Episodic, SessionID: "s1"})
	src2 := f.remember(mneme.Record{Text: "bob said releases go out tuesday", Type: mneme.Episodic, SessionID: "s2"})
	f.remember(mneme.Record{Text: "summary: release calendar agreed", Kind: "summary", Links: []mneme.Link{
		{Type: mneme.LinkDerivedFrom, Target: src1.ID}, {Type: mneme.LinkDerivedFrom, Target: src2.ID}}})
	secret := f.remember(mneme.Record{Text: "the signing key passphrase", Sensitivity: mneme.Secret})
	peer := f.remember(mneme.Record{Text: "we ship from the main branch only", Kind: "decision"})
	dec := f.remember(mneme.Record{Text: "decision: tag every release calendar entry", Kind: "decision"})
	for _, l := range []mneme.LinkRequest{{From: dec.ID, To: secret.ID, Rel: mneme.LinkRelatesTo}, {From: dec.ID, To: peer.ID, Rel: mneme.LinkRelatesTo}} {
		if _, err := f.eng.Link(f.ctx, l, mneme.Secret); err != nil {
			t.Fatal(err)
		}
	}
	res, err := f.eng.Recall(f.ctx, mneme.Query{Text: "release calendar", K: 2, Expand: 2, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, h := range res.Hits {
		if from, rel := h.Expansion(); from != "" {
			got[h.ID] = rel
			if h.Explain == nil || h.Explain.Relation != rel || h.Explain.ExpandedFrom != from {
				t.Fatalf("expanded hit %s explains %+v, want relation %s from %s", h.ID, h.Explain, rel, from)
			}
		}
	}
	want := map[string]string{src1.ID: mneme.LinkDerivedFrom, src2.ID: mneme.LinkDerivedFrom, peer.ID: mneme.LinkRelatesTo}
	if len(got) != len(want) {
		t.Fatalf("expanded %v, want %v (the secret neighbour %s never)", got, want, secret.ID)
	}
	for id, rel := range want {
		if got[id] != rel {
			t.Fatalf("expanded %v, want %v", got, want)
		}
	}
}

// testLinkedCandidates: a candidate query asking for linked records gets,
// from a store that reads them, exactly the records the candidates link to
// (any project or sensitivity: visibility is the Engine's), or nil from a
// store that leaves them to the Engine.
func testLinkedCandidates(t *testing.T, f *fixture) {
	src := f.remember(mneme.Record{Text: "the source notes", Project: "other", Sensitivity: mneme.Secret})
	peer := f.remember(mneme.Record{Text: "a peer decision"})
	f.remember(mneme.Record{Text: "release calendar summary", Links: []mneme.Link{
		{Type: mneme.LinkDerivedFrom, Target: src.ID}, {Type: mneme.LinkRelatesTo, Target: peer.ID}}})
	f.remember(mneme.Record{Text: "release calendar unlinked"})
	for _, asked := range []bool{false, true} {
		got, err := f.eng.Store().Candidates(f.ctx, mneme.CandidateQuery{Terms: textnorm.Terms("release calendar"), K: 5,
			Filter: f.filter(mneme.Filter{Clearance: mneme.Secret}), Linked: asked})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.List) != 2 {
			t.Fatalf("linked %v: %d candidates, want 2", asked, len(got.List))
		}
		var ids []string
		for _, r := range got.Linked {
			ids = append(ids, r.ID)
		}
		slices.Sort(ids)
		want := []string{src.ID, peer.ID}
		slices.Sort(want)
		switch {
		case !asked && got.Linked != nil:
			t.Fatalf("linked records %v not asked for", ids)
		case asked && got.Linked != nil && !slices.Equal(ids, want):
			t.Fatalf("linked records %v, want %v", ids, want)
		}
	}
}
