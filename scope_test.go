package mneme_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
)

// TestScopeEnforced checks every use case under a scoped caller, once, in
// the Engine: the surfaces only put the scope in the context.
func TestScopeEnforced(t *testing.T) {
	eng := engine(t,
		mneme.Record{Text: "the shop deploys on fridays", Project: "shop"},
		mneme.Record{Text: "the blog deploys on mondays", Project: "blog"},
		mneme.Record{Text: "the shop vault password rotates", Project: "shop", Sensitivity: mneme.Secret})
	ids := map[string]string{}
	eng.Each(context.Background(), mneme.Filter{Clearance: mneme.Secret}, func(r *mneme.Record) error {
		ids[r.Project+"/"+string(r.Sensitivity)] = r.ID
		return nil
	})
	shop, blog, secret := ids["shop/internal"], ids["blog/internal"], ids["shop/secret"]
	reader := mneme.WithScope(context.Background(), mneme.Scope{Name: "reader", Projects: []string{"shop"}, Clearance: mneme.Internal})
	writer := mneme.WithScope(context.Background(), mneme.Scope{Name: "writer", Projects: []string{"shop"}, Write: true, Clearance: mneme.Internal})
	cleared := mneme.WithScope(context.Background(), mneme.Scope{Name: "cleared", Projects: []string{"shop"}, Write: true, Clearance: mneme.Secret})
	text := "a new note"
	for _, c := range []struct {
		name string
		call func() error
		code string // "" for success
		msg  string
	}{
		{"reader remembers", func() error {
			_, err := eng.RememberRequests(reader, []mneme.RememberRequest{{Text: "x"}})
			return err
		}, mneme.EFORBIDDEN, `token "reader" is read-only and remember writes`},
		{"reader forgets", func() error {
			_, err := eng.Forget(reader, mneme.ForgetRequest{IDs: []string{shop}})
			return err
		}, mneme.EFORBIDDEN, "read-only"},
		{"reader patches", func() error {
			_, err := eng.Patch(reader, shop, mneme.Patch{Text: &text}, mneme.Internal)
			return err
		}, mneme.EFORBIDDEN, "read-only"},
		{"reader gets its project", func() error { _, err := eng.Get(reader, shop, mneme.Internal); return err }, "", ""},
		{"reader gets another project", func() error { _, err := eng.Get(reader, blog, mneme.Internal); return err }, mneme.ENOTFOUND, "no record with id"},
		{"reader asks for secrets", func() error { _, err := eng.Get(reader, secret, mneme.Secret); return err }, mneme.ENOTFOUND, "no record with id"},
		{"cleared reads secrets", func() error { _, err := eng.Get(cleared, secret, mneme.Secret); return err }, "", ""},
		{"reader lists another project", func() error {
			_, _, err := eng.List(reader, mneme.Filter{Project: "blog"}, 10, "")
			return err
		}, mneme.EFORBIDDEN, `does not cover project "blog"`},
		{"reader recalls another project", func() error {
			_, err := eng.Recall(reader, mneme.Query{Text: "deploys", K: 5, Filter: mneme.Filter{Project: "blog"}})
			return err
		}, mneme.EFORBIDDEN, "does not cover"},
		{"writer remembers elsewhere", func() error {
			_, err := eng.RememberRequests(writer, []mneme.RememberRequest{{Text: "x", Project: "blog"}})
			return err
		}, mneme.EFORBIDDEN, "does not cover"},
		{"writer forgets another project's id", func() error {
			_, err := eng.Forget(writer, mneme.ForgetRequest{IDs: []string{blog}, DryRun: true})
			return err
		}, mneme.ENOTFOUND, "no record with id"},
		{"writer forgets a secret it cannot read", func() error {
			_, err := eng.Forget(writer, mneme.ForgetRequest{IDs: []string{secret}, DryRun: true})
			return err
		}, mneme.ENOTFOUND, ""},
		{"writer forgets by filter elsewhere", func() error {
			_, err := eng.Forget(writer, mneme.ForgetRequest{ForgetFilter: mneme.ForgetFilter{Project: "blog"}, DryRun: true})
			return err
		}, mneme.EFORBIDDEN, "does not cover"},
		{"writer imports over another project's record", func() error {
			_, err := eng.Import(writer, []*mneme.Record{{ID: blog, Text: "taken over", Project: "shop"}}, mneme.WriteOptions{})
			return err
		}, mneme.EFORBIDDEN, "not a record \"writer\" may read"},
		{"writer prunes elsewhere", func() error {
			_, err := eng.Prune(writer, mneme.PruneRequest{ForgetFilter: mneme.ForgetFilter{Project: "blog"}, Expired: true})
			return err
		}, mneme.EFORBIDDEN, "does not cover"},
		{"reader prunes", func() error { _, err := eng.Prune(reader, mneme.PruneRequest{Expired: true}); return err }, mneme.EFORBIDDEN, "read-only"},
		{"reader promotes", func() error {
			_, err := eng.Promote(reader, mneme.PromoteRequest{IDs: []string{shop}, To: mneme.Procedural}, mneme.Internal)
			return err
		}, mneme.EFORBIDDEN, "read-only"},
		{"writer promotes another project's record", func() error {
			_, err := eng.Promote(writer, mneme.PromoteRequest{IDs: []string{blog}, To: mneme.Procedural}, mneme.Internal)
			return err
		}, mneme.ENOTFOUND, "no record with id"},
		{"writer promotes a secret it cannot read", func() error {
			_, err := eng.Promote(writer, mneme.PromoteRequest{IDs: []string{secret}, To: mneme.Procedural}, mneme.Secret)
			return err
		}, mneme.ENOTFOUND, "no record with id"},
		{"writer reindexes the store", func() error { _, err := eng.Reindex(writer); return err }, mneme.EFORBIDDEN, "only some projects"},
		{"writer ingests elsewhere", func() error {
			_, err := eng.Ingest(writer, []mneme.SourceFile{{URI: "a.md", Data: []byte("# A\n\ntext")}}, mneme.IngestOptions{Project: "blog"})
			return err
		}, mneme.EFORBIDDEN, "does not cover"},
	} {
		err := c.call()
		if mneme.ErrorCode(err) != c.code || (err != nil && !strings.Contains(mneme.ErrorMessage(err), c.msg)) {
			t.Errorf("%s: %v (code %q), want code %q with %q", c.name, err, mneme.ErrorCode(err), c.code, c.msg)
		}
	}
	// Refused writes changed nothing, and a scoped caller sees its own
	// counts: the secret record only with clearance secret.
	st, err := eng.Stats(reader)
	if err != nil || st.Total != 1 || len(st.Projects) != 1 || st.Secret != 0 {
		t.Errorf("reader stats = %+v, %v", st, err)
	}
	if st, err := eng.Stats(cleared); err != nil || st.Total != 2 || len(st.Projects) != 1 {
		t.Errorf("cleared stats = %+v, %v", st, err)
	}
	if st, _ := eng.Stats(context.Background()); st.Total != 3 {
		t.Errorf("owner stats = %+v, want the 3 records untouched", st)
	}
	// A scope limited to one project works in it without naming it.
	res, err := eng.RememberRequests(writer, []mneme.RememberRequest{{Text: "the shop moved to a new host"}})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := eng.Get(context.Background(), res.ID, mneme.Internal); r.Project != "shop" {
		t.Errorf("the write went to %q, want shop", r.Project)
	}
}

// TestRememberKeepsAbsentFields: remembering stored text again updates the
// fields it names and keeps the others.
func TestRememberKeepsAbsentFields(t *testing.T) {
	eng := engine(t)
	ctx := context.Background()
	first := mneme.RememberRequest{Text: "the release checklist lives in the wiki", Title: "Checklist", Kind: "decision",
		Tags: []string{"release"}, Key: "checklist", Sensitivity: mneme.Public, Provenance: mneme.Verified,
		Meta: []byte(`{"by":"ada"}`), Speaker: "ada", Status: mneme.Validated}
	res, err := eng.RememberRequests(ctx, []mneme.RememberRequest{first})
	if err != nil {
		t.Fatal(err)
	}
	again, err := eng.RememberRequests(ctx, []mneme.RememberRequest{{Text: first.Text, Tags: []string{"docs"}}})
	if err != nil || again.ID != res.ID || again.Updated != 1 {
		t.Fatalf("second remember = %+v, %v; want an update of %s", again, err, res.ID)
	}
	r, err := eng.Get(ctx, res.ID, mneme.Internal)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Tags, ",") != "docs" {
		t.Errorf("tags = %v, want the given [docs]", r.Tags)
	}
	if r.Title != "Checklist" || r.Kind != "decision" || r.Key != "checklist" || r.Sensitivity != mneme.Public ||
		r.Provenance != mneme.Verified || string(r.Meta) != `{"by":"ada"}` || r.Speaker != "ada" || r.Status != mneme.Validated {
		t.Errorf("fields left out were not kept: %+v", r)
	}
	// The same request once more changes nothing.
	if same, _ := eng.RememberRequests(ctx, []mneme.RememberRequest{{Text: first.Text, Tags: []string{"docs"}}}); same.SkippedDuplicates != 1 {
		t.Errorf("a repeat = %+v, want a skipped duplicate", same)
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	for _, c := range []struct{ in, want string }{
		{"short", "short"},
		{strings.Repeat("a", 80), strings.Repeat("a", 80)},
		{strings.Repeat("a", 81), strings.Repeat("a", 80) + "…"},
		{strings.Repeat("a", 79) + "é", strings.Repeat("a", 79) + "…"}, // no split rune
	} {
		if got := mneme.Clip(c.in); got != c.want {
			t.Errorf("Clip(%.20q…) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{`invalid value "ten" for flag -k: parse error`, `invalid value "ten" for flag -k: parse error`},
		{`invalid value "` + long + `" for flag -k: parse error`, `invalid value "` + strings.Repeat("x", 80) + `…" for flag -k: parse error`},
		{"enum: " + long + " does not equal any of: [a b]", "enum: " + strings.Repeat("x", 80) + "… does not equal any of: [a b]"},
		{`unknown parameters ["` + long + `"]`, `unknown parameters ["` + strings.Repeat("x", 80) + `…"]`},
	} {
		if got := mneme.ClipMessage(c.in); got != c.want {
			t.Errorf("ClipMessage(%.40q…) = %.200q, want %.200q", c.in, got, c.want)
		}
	}
	if got := mneme.ClipMessage(strings.Repeat("a ", 1<<19)); len(got) > 512+len("…") {
		t.Errorf("ClipMessage of a long message with spaces: %d bytes", len(got))
	}
}

// TestGetAllIsGetOfEach: GetAll answers as Get does for each id, in one
// call: the records in order, or Get's refusal for the first id the
// caller may not read (the same words for a secret, another project's
// record and a missing one), and a malformed id is invalid.
func TestGetAllIsGetOfEach(t *testing.T) {
	eng := engine(t,
		mneme.Record{Text: "the shop deploys on fridays", Project: "shop"},
		mneme.Record{Text: "the shop rolls back on saturdays", Project: "shop"},
		mneme.Record{Text: "the blog deploys on mondays", Project: "blog"},
		mneme.Record{Text: "the shop vault password rotates", Project: "shop", Sensitivity: mneme.Secret})
	ids := map[string]string{}
	eng.Each(context.Background(), mneme.Filter{Clearance: mneme.Secret}, func(r *mneme.Record) error {
		ids[r.Text] = r.ID
		return nil
	})
	fri, sat := ids["the shop deploys on fridays"], ids["the shop rolls back on saturdays"]
	blog, secret := ids["the blog deploys on mondays"], ids["the shop vault password rotates"]
	reader := mneme.WithScope(context.Background(), mneme.Scope{Name: "reader", Projects: []string{"shop"}, Clearance: mneme.Internal})
	recs, err := eng.GetAll(reader, []string{sat, fri}, mneme.Secret)
	if err != nil || len(recs) != 2 || recs[0].ID != sat || recs[1].ID != fri {
		t.Fatalf("GetAll(sat, fri) = %v, %v", recs, err)
	}
	for _, hidden := range []string{secret, blog, "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"} {
		_, want := eng.Get(reader, hidden, mneme.Secret)
		_, got := eng.GetAll(reader, []string{fri, hidden}, mneme.Secret)
		if mneme.ErrorCode(got) != mneme.ENOTFOUND || got.Error() != want.Error() {
			t.Errorf("GetAll with %s: %v, want Get's %v", hidden, got, want)
		}
	}
	if _, err := eng.GetAll(reader, []string{fri, "../etc"}, mneme.Internal); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Errorf("GetAll with a malformed id: %v, want EINVALID", err)
	}
}
