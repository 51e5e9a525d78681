package main_test

import "testing"

// TestExpandIncoming: through the binary, recall --expand 1 on a source
// brings the summary derived from it, marked incoming in explain and in a
// context package; a secret summary of it is not brought without
// clearance.
func TestExpandIncoming(t *testing.T) {
	home := t.TempDir()
	src := decode[writeJSON](t, ok(t, home, "remember", "--embedder", "hash", "ada said the freeze starts monday", "--json")).ID
	sum := decode[writeJSON](t, ok(t, home, "remember", "summary: the release calendar was agreed", "--json")).ID
	secret := decode[writeJSON](t, ok(t, home, "remember", "digest naming the signing key", "--sensitivity", "secret", "--json")).ID
	ok(t, home, "link", sum, src, "--rel", "derived_from")
	ok(t, home, "link", secret, src, "--rel", "derived_from", "--clearance", "secret")
	type hit struct {
		ID      string `json:"id"`
		Explain struct {
			Retrieval, Relation, Direction string
			ExpandedFrom                   string `json:"expanded_from"`
		} `json:"explain"`
	}
	for _, tc := range []struct {
		clearance string
		want      []string
	}{{"internal", []string{src, sum}}, {"secret", []string{src, secret}}} { // newest linker first
		got := decode[struct{ Hits []hit }](t, ok(t, home, "recall", "freeze monday", "--mode", "lexical",
			"--k", "1", "--expand", "1", "--explain", "--clearance", tc.clearance, "--json")).Hits
		if len(got) != len(tc.want) || got[0].ID != src {
			t.Fatalf("clearance %s: hits %+v, want %v", tc.clearance, got, tc.want)
		}
		e := got[1].Explain
		if got[1].ID != tc.want[1] || e.Retrieval != "expand" || e.Relation != "derived_from" || e.Direction != "incoming" || e.ExpandedFrom != src {
			t.Fatalf("clearance %s: expanded %+v, want %s derived_from, incoming, from %s", tc.clearance, got[1], tc.want[1], src)
		}
	}
	type item struct {
		ID, Relation, Direction string
		ExpandedFrom            string `json:"expanded_from"`
	}
	pkg := decode[struct{ Groups []struct{ Items []item } }](t, ok(t, home, "context", "freeze monday",
		"--mode", "lexical", "--k", "1", "--expand", "1", "--json"))
	var items []item
	for _, g := range pkg.Groups {
		items = append(items, g.Items...)
	}
	want := item{ID: sum, Relation: "derived_from", Direction: "incoming", ExpandedFrom: src}
	if len(items) != 2 || items[0].ID != src || items[1] != want {
		t.Fatalf("context package items %+v, want the source then %+v", items, want)
	}
}
