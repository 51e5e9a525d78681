package storetest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mneme-ai/mneme"
)

// testMetaFilters: a meta condition selects the records whose top-level
// meta has the value, in List and in each of recall's lanes; a record
// without the key, or with an object there, does not pass.
func testMetaFilters(t *testing.T, f *fixture) {
	em := withEmbedder(t, f, 16)
	metas := []string{
		`{"tenant":"acme","document_version":3}`,
		`{"tenant":"acme","document_version":"3"}`,
		`{"tenant":"globex","document_version":3.0}`,
		`{"tenant":"acme","published_at":"2025-01-03","draft":true}`,
		``,
		`{"tenant":{"name":"acme"}}`,
		`{"tenant":"ACME","phase":"beta"}`,
		`{"tenant":null,"draft":"true"}`,
		`{"path":"C:\\0"}`,    // a backslash and a zero
		`{"path":"C:\u0000"}`, // a NUL, which a store must keep apart from the above
	}
	var recs []*mneme.Record
	for i, m := range metas {
		recs = append(recs, &mneme.Record{Text: fmt.Sprintf("release notes for the billing service, part %d", i), Meta: json.RawMessage(m)})
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	vec, err := em.Embed(f.ctx, []string{"release notes"})
	if err != nil {
		t.Fatal(err)
	}
	m := func(kv ...string) []mneme.MetaMatch {
		var out []mneme.MetaMatch
		for i := 0; i < len(kv); i += 2 {
			out = append(out, mneme.MetaMatch{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	cases := []struct {
		name string
		meta []mneme.MetaMatch
		want []int
	}{
		{"string", m("tenant", "acme"), []int{0, 1, 3}},
		{"case matters", m("tenant", "ACME"), []int{6}},
		{"number or its text", m("document_version", "3"), []int{0, 1, 2}},
		{"number by value", m("document_version", "3.0"), []int{0, 2}},
		{"all must hold", m("tenant", "acme", "document_version", "3"), []int{0, 1}},
		{"boolean or its text", m("draft", "true"), []int{3, 7}},
		{"date as text", m("published_at", "2025-01-03"), []int{3}},
		{"no such value", m("tenant", "initech"), nil},
		{"no such key", m("domain", "billing"), nil},
		{"empty value", m("tenant", ""), nil},
		{"one condition fails", m("tenant", "acme", "phase", "beta"), nil},
		{"backslash is not NUL", m("path", `C:\0`), []int{8}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var want []string
			for _, i := range c.want {
				want = append(want, recs[i].ID)
			}
			fl := f.filter(mneme.Filter{Meta: c.meta})
			listed, _, err := f.eng.List(f.ctx, fl, 100, "")
			if err != nil {
				t.Fatal(err)
			}
			sameIDs(t, "list", listed, want)
			var ref []*mneme.Record
			for _, r := range recs {
				if fl.Match(f.get(r.ID)) {
					ref = append(ref, r)
				}
			}
			sameIDs(t, "reference", ref, want)
			sameInLanes(t, f, fl, "billing", vec[0], want)
		})
	}
	// A changed meta moves the record in and out of the filter.
	changed := *f.get(recs[4].ID)
	changed.Meta = json.RawMessage(`{"tenant":"acme"}`)
	if _, err := f.eng.Import(f.ctx, []*mneme.Record{&changed}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	fl := f.filter(mneme.Filter{Meta: m("tenant", "acme")})
	listed, _, err := f.eng.List(f.ctx, fl, 100, "")
	if err != nil {
		t.Fatal(err)
	}
	sameIDs(t, "list after update", listed, []string{recs[0].ID, recs[1].ID, recs[3].ID, recs[4].ID})
	got, err := f.eng.Store().Candidates(f.ctx, mneme.CandidateQuery{Terms: []string{"billing"}, K: 10, Filter: fl})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.List) != 4 {
		t.Fatalf("lexical lane after update: %d candidates, want 4", len(got.List))
	}
	// forget by meta deletes exactly what the filter selects.
	res, err := f.eng.Forget(f.ctx, mneme.ForgetRequest{ForgetFilter: mneme.ForgetFilter{Meta: m("tenant", "ACME")}})
	if err != nil || res.Forgotten != 1 || res.IDs[0] != recs[6].ID {
		t.Fatalf("forget by meta = %+v, %v; want %s alone", res, err, recs[6].ID)
	}
}

// testMetaTopK: the meta filter is inside both lanes, so records that pass
// it but rank below many that do not still fill the top k.
func testMetaTopK(t *testing.T, f *fixture) {
	em := withEmbedder(t, f, 16)
	var recs []*mneme.Record
	for i := range 40 {
		recs = append(recs, &mneme.Record{Text: fmt.Sprintf("deploy deploy deploy pipeline %d", i), Meta: json.RawMessage(`{"tenant":"loud"}`)})
	}
	for i := range 4 {
		recs = append(recs, &mneme.Record{Text: fmt.Sprintf("a long note that mentions deploy once among many other words, number %d", i),
			Meta: json.RawMessage(`{"tenant":"quiet"}`)})
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	quiet := []mneme.MetaMatch{{Key: "tenant", Value: "quiet"}}
	for _, mode := range []mneme.Mode{mneme.Lexical, mneme.Vector, mneme.Hybrid} {
		t.Run(string(mode), func(t *testing.T) {
			hits := f.recall(mneme.Query{Text: "deploy pipeline", K: 3, Mode: mode, IncludeUnmatched: true, Filter: mneme.Filter{Meta: quiet}})
			if len(hits) != 3 {
				t.Fatalf("filtered top-3 = %d hits, want 3", len(hits))
			}
			for _, h := range hits {
				if string(h.Record.Meta) != `{"tenant":"quiet"}` {
					t.Fatalf("hit with meta %s", h.Record.Meta)
				}
			}
		})
	}
	vec, err := em.Embed(f.ctx, []string{"deploy pipeline"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.eng.Store().Candidates(f.ctx, mneme.CandidateQuery{Vector: vec[0], K: 3, Filter: f.filter(mneme.Filter{Meta: quiet})})
	if err != nil || len(got.List) != 3 {
		t.Fatalf("vector lane under the filter: %d candidates, %v; want 3", len(got.List), err)
	}
}
