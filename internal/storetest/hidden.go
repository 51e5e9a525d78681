package storetest

import (
	"errors"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// The write rules for records a caller may not read (issue 22, 1.1-1.6):
// a writer without clearance, or limited to other projects, can neither
// change such a record nor learn that it exists, whichever path its write
// takes (dedupe, supersession by key, import by id, derived records).

var (
	writer = mneme.Scope{Name: "writer", Write: true, Clearance: mneme.Internal}
	alpha  = mneme.Scope{Name: "alpha", Write: true, Projects: []string{"alpha"}, Clearance: mneme.Internal}
)

// secretFixture stores a secret record with a key and returns it as stored.
func secretFixture(t *testing.T, f *fixture) *mneme.Record {
	t.Helper()
	res := f.remember(mneme.Record{Text: "The vault PIN is 4417", Key: "topsecret", Sensitivity: mneme.Secret})
	return f.get(res.ID)
}

// unchanged fails t unless the record with want's id is still as want.
func unchanged(t *testing.T, f *fixture, want *mneme.Record) {
	t.Helper()
	got := f.get(want.ID)
	if got.Text != want.Text || got.Sensitivity != want.Sensitivity || got.Status != want.Status || !got.UpdatedAt.Equal(want.UpdatedAt) {
		t.Fatalf("the hidden record changed: %+v, was %+v", got, want)
	}
}

func testRememberHiddenText(t *testing.T, f *fixture) {
	secret := secretFixture(t, f)
	ctx := mneme.WithScope(f.ctx, writer)
	guess := func(text string) mneme.WriteResult {
		res, err := f.eng.Remember(ctx, []*mneme.Record{{Text: text, Sensitivity: mneme.Internal}}, mneme.WriteOptions{})
		if err != nil {
			t.Fatalf("remember %q: %v", text, err)
		}
		return res
	}
	right, wrong := guess("The vault PIN is 4417"), guess("The vault PIN is 1234")
	if right.ID == secret.ID || right.Inserted != 1 || wrong.Inserted != 1 || right.Updated+right.SkippedDuplicates != 0 {
		t.Fatalf("a right guess answers %+v, a wrong one %+v: want both a new record", right, wrong)
	}
	unchanged(t, f, secret)
	// Again: the writer's own record is what it dedupes against now.
	if again := guess("The vault PIN is 4417"); again.ID != right.ID || again.SkippedDuplicates != 1 {
		t.Fatalf("the writer's text again = %+v, want its own record %s skipped", again, right.ID)
	}
	unchanged(t, f, secret)
}

func testSupersedeHiddenKey(t *testing.T, f *fixture) {
	secret := secretFixture(t, f)
	ctx := mneme.WithScope(f.ctx, writer)
	res, err := f.eng.Remember(ctx, []*mneme.Record{{Text: "a new value for the key", Key: "topsecret"}}, mneme.WriteOptions{})
	if err != nil || res.Superseded != 0 || res.Inserted != 1 {
		t.Fatalf("remember with the hidden record's key = %+v, %v: want inserted, nothing superseded", res, err)
	}
	unchanged(t, f, secret)
	if got := f.get(res.ID); len(got.Links) != 0 {
		t.Fatalf("the new record links to %v", got.Links)
	}
	// The owner's next version supersedes both.
	own := f.remember(mneme.Record{Text: "the owner's value", Key: "topsecret"})
	if own.Superseded != 2 {
		t.Fatalf("the owner's write superseded %d, want 2", own.Superseded)
	}
}

func testImportHiddenID(t *testing.T, f *fixture) {
	secret := secretFixture(t, f)
	other := f.remember(mneme.Record{Text: "beta's plan", Project: "beta"})
	for _, c := range []struct {
		name  string
		scope mneme.Scope
		rec   mneme.Record
	}{
		{"secret, no clearance", writer, mneme.Record{ID: secret.ID, Text: "overwritten", Sensitivity: mneme.Internal}},
		{"secret, no clearance, same text", writer, mneme.Record{ID: secret.ID, Text: secret.Text, Key: secret.Key, Sensitivity: mneme.Internal}},
		{"another project", alpha, mneme.Record{ID: other.ID, Text: "overwritten", Project: "alpha"}},
	} {
		ctx := mneme.WithScope(f.ctx, c.scope)
		fresh := mneme.Record{Text: "a fresh line " + c.name}
		rec := c.rec
		_, err := f.eng.Import(ctx, []*mneme.Record{&fresh, &rec}, mneme.WriteOptions{})
		var be *mneme.BatchError
		if mneme.ErrorCode(err) != mneme.EFORBIDDEN || !errors.As(err, &be) || be.Index != 1 {
			t.Fatalf("%s: import = %v, want EFORBIDDEN naming record 2", c.name, err)
		}
		if recs, _, _ := f.eng.List(f.ctx, mneme.Filter{ContentHash: textnorm.Hash(fresh.Text), Clearance: mneme.Secret}, 10, ""); len(recs) != 0 {
			t.Fatalf("%s: the batch's valid record was written", c.name)
		}
	}
	unchanged(t, f, secret)
	if got := f.get(other.ID); got.Text != "beta's plan" || got.Project != "beta" {
		t.Fatalf("beta's record changed: %+v", got)
	}
}

func testIDsHiddenAlike(t *testing.T, f *fixture) {
	secret := secretFixture(t, f)
	const missing = "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"
	ctx := mneme.WithScope(f.ctx, writer)
	msg := func(id string) string {
		_, err := f.eng.Get(ctx, id, mneme.Secret)
		if mneme.ErrorCode(err) != mneme.ENOTFOUND {
			t.Fatalf("get %s = %v, want ENOTFOUND", id, err)
		}
		return strings.ReplaceAll(err.Error(), id, "ID")
	}
	if s, m := msg(secret.ID), msg(missing); s != m {
		t.Fatalf("a secret id answers %q, a missing one %q", s, m)
	}
	_, err := f.eng.Patch(ctx, secret.ID, mneme.Patch{Text: ptr("changed")}, mneme.Secret)
	_, errMissing := f.eng.Patch(ctx, missing, mneme.Patch{Text: ptr("changed")}, mneme.Secret)
	if mneme.ErrorCode(err) != mneme.ENOTFOUND || strings.ReplaceAll(err.Error(), secret.ID, "ID") != strings.ReplaceAll(errMissing.Error(), missing, "ID") {
		t.Fatalf("patch of a secret id = %v, of a missing one = %v", err, errMissing)
	}
	unchanged(t, f, secret)
}

func testDerivedFollowSecret(t *testing.T, f *fixture) {
	src := f.remember(mneme.Record{Text: "the deploy key rotates on Fridays", Type: mneme.Episodic})
	sum := f.remember(mneme.Record{Text: "summary: the deploy key rotates on Fridays", Kind: "summary",
		Links: []mneme.Link{{Type: mneme.LinkDerivedFrom, Target: src.ID}}})
	second := f.remember(mneme.Record{Text: "digest of the summaries", Kind: "summary",
		Links: []mneme.Link{{Type: mneme.LinkDerivedFrom, Target: sum.ID}}})
	plain := f.remember(mneme.Record{Text: "an unrelated fact"})
	if _, err := f.eng.Patch(f.ctx, src.ID, mneme.Patch{Sensitivity: ptr(mneme.Secret)}, mneme.Secret); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{sum.ID, second.ID} {
		if got := f.get(id); got.Sensitivity != mneme.Secret {
			t.Fatalf("record %s derived from the now secret source is %s", id, got.Sensitivity)
		}
	}
	if got := f.get(plain.ID); got.Sensitivity == mneme.Secret {
		t.Fatal("an unrelated record became secret")
	}
	if hits := f.recall(mneme.Query{Text: "deploy key rotates Fridays"}); len(hits) != 0 {
		t.Fatalf("recall without clearance still finds %v", ids(hits))
	}
	// An import may bring a secret source after what derives from it.
	const later = "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5a"
	early := f.remember(mneme.Record{Text: "summary of a source imported later", Kind: "summary",
		Links: []mneme.Link{{Type: mneme.LinkDerivedFrom, Target: later}}})
	if _, err := f.eng.Import(f.ctx, []*mneme.Record{{ID: later, Text: "the source, secret", Sensitivity: mneme.Secret}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := f.get(early.ID); got.Sensitivity != mneme.Secret {
		t.Fatalf("a summary of a secret source imported later is %s", got.Sensitivity)
	}
	// The store applies the rule in the write's own transaction: no moment
	// (a crash) leaves the source secret and its summary readable.
	src2 := f.remember(mneme.Record{Text: "the staging password is in the vault", Type: mneme.Episodic})
	sum2 := f.remember(mneme.Record{Text: "summary: staging password location", Kind: "summary", Project: "other",
		Links: []mneme.Link{{Type: mneme.LinkDerivedFrom, Target: src2.ID}}})
	rec := f.get(src2.ID)
	rec.Sensitivity = mneme.Secret
	if _, err := f.eng.Store().Put(f.ctx, []*mneme.Record{rec}, mneme.ModeImport, f.now); err != nil {
		t.Fatal(err)
	}
	if got := f.get(sum2.ID); got.Sensitivity != mneme.Secret {
		t.Fatalf("after the store's write alone, the summary of the now secret source is %s", got.Sensitivity)
	}
}

func testImportedPromotions(t *testing.T, f *fixture) {
	forged := mneme.Promotion{At: f.now, By: "admin", ToType: mneme.Semantic, ToStatus: mneme.Published,
		From: []mneme.PromotedFrom{{ID: "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e", Type: mneme.Episodic, Status: mneme.Active}}}
	rec := func(text string) *mneme.Record {
		return &mneme.Record{Text: text, Status: mneme.Published, Provenance: mneme.Verified,
			Promotions: []mneme.Promotion{forged}}
	}
	res, err := f.eng.Import(mneme.WithScope(f.ctx, writer), []*mneme.Record{rec("imported by a token")}, mneme.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := f.get(res.ID)
	if len(got.Promotions) != 1 || got.Promotions[0].ImportedBy != "writer" || !strings.Contains(got.Promotions[0].String(), "by admin (imported by writer)") {
		t.Fatalf("a token's import keeps promotions %+v, want them marked imported by writer", got.Promotions)
	}
	// Exported and imported again by the same token: unchanged.
	again, err := f.eng.Import(mneme.WithScope(f.ctx, writer), []*mneme.Record{got}, mneme.WriteOptions{})
	if err != nil || again.SkippedDuplicates != 1 {
		t.Fatalf("re-import of the stored record = %+v, %v: want skipped", again, err)
	}
	// A forged imported_by is replaced by the importer's name.
	sneaky := rec("sneaky import")
	sneaky.Promotions[0].ImportedBy = "owner"
	res, err = f.eng.Import(mneme.WithScope(f.ctx, writer), []*mneme.Record{sneaky}, mneme.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.get(res.ID); got.Promotions[0].ImportedBy != "writer" {
		t.Fatalf("imported_by as given: %+v", got.Promotions)
	}
	// The owner (the CLI restoring an export) keeps history as given.
	res, err = f.eng.Import(f.ctx, []*mneme.Record{rec("restored by the owner")}, mneme.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.get(res.ID); got.Promotions[0].ImportedBy != "" || got.Promotions[0].By != "admin" {
		t.Fatalf("the owner's import changed the history: %+v", got.Promotions)
	}
}
