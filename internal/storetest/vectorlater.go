package storetest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// testVectorLater: a vector that arrives while the search runs
// (CandidateQuery.VectorLater) finds exactly what the same vector given at
// once finds, under every filter, with and without words; one that cannot
// be made (nil) finds what a search without a vector lane finds; one of
// the wrong dimension is refused as the same given at once is.
func testVectorLater(t *testing.T, f *fixture) {
	e := withEmbedder(t, f, 16)
	vocab := strings.Fields("cache deploy release rollback postgres index vector memory agent session budget token")
	var recs []*mneme.Record
	for i := range 120 {
		r := &mneme.Record{Text: fmt.Sprintf("%s %s %s (%d)", vocab[i%12], vocab[(i*5)%12], vocab[(i*7+3)%12], i),
			Project: fmt.Sprintf("p%d", i%3), Meta: fmt.Appendf(nil, `{"tenant":"t%d"}`, i%4)}
		if i%25 == 0 {
			r.Sensitivity = mneme.Secret
		}
		recs = append(recs, r)
	}
	if _, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	store := f.eng.Store()
	for _, fl := range []mneme.Filter{{}, {Project: "p1"}, {Meta: []mneme.MetaMatch{{Key: "tenant", Value: "t1"}}}, {Clearance: mneme.Secret}} {
		for _, terms := range [][]string{{"cache", "deploy"}, {"session", "token", "budget"}, nil} {
			vec, _ := e.Embed(f.ctx, []string{strings.Join(terms, " ") + " rollback"})
			q := mneme.CandidateQuery{Terms: terms, K: 5, Filter: f.filter(fl)}
			now, later := q, q
			now.Vector = vec[0]
			later.VectorLater = func() []float32 {
				time.Sleep(5 * time.Millisecond) // the lexical lane runs meanwhile
				return vec[0]
			}
			want, werr := store.Candidates(f.ctx, now)
			got, gerr := store.Candidates(f.ctx, later)
			if werr != nil || gerr != nil || !sameCandidates(got, want) {
				t.Fatalf("filter %+v, terms %v: later %d candidates (%v), at once %d (%v)", fl, terms, len(got.List), gerr, len(want.List), werr)
			}
			if terms == nil {
				continue
			}
			none := q
			none.VectorLater = func() []float32 { return nil }
			got, gerr = store.Candidates(f.ctx, none)
			want, werr = store.Candidates(f.ctx, q)
			if werr != nil || gerr != nil || !sameCandidates(got, want) || got.Unembedded != 0 {
				t.Fatalf("filter %+v, terms %v: no vector after all: %d candidates (%v), without a vector lane %d (%v)", fl, terms, len(got.List), gerr, len(want.List), werr)
			}
		}
	}
	_, err := store.Candidates(f.ctx, mneme.CandidateQuery{Terms: []string{"cache"}, VectorLater: func() []float32 { return make([]float32, 8) }, K: 3, Filter: f.filter(mneme.Filter{})})
	if mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), "dimensions") {
		t.Fatalf("wrong dimension, later: %v", err)
	}
}

// sameCandidates compares two searches' candidates, in any order.
func sameCandidates(a, b mneme.Candidates) bool {
	if a.Unembedded != b.Unembedded || len(a.List) != len(b.List) {
		return false
	}
	byID := func(x, y mneme.Candidate) int { return strings.Compare(x.Record.ID, y.Record.ID) }
	la, lb := slices.Clone(a.List), slices.Clone(b.List)
	slices.SortFunc(la, byID)
	slices.SortFunc(lb, byID)
	return reflect.DeepEqual(la, lb)
}
