package bm25

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestSearchWithin: a search given its filter's selection (Query.Within)
// returns exactly what the search over the posting lists does, keys,
// scores and matched words, under time windows and other filters, with
// deleted documents, and with a write between the selection and the
// search (the filter is checked again).
func TestSearchWithin(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ix, _ := randomIndex(rng, 3000)
	for k := range int64(200) {
		ix.Delete(k * 7)
	}
	filters := []Filter{
		{Since: 40, Until: 41},
		{Since: 10, Until: 19, Project: "p1"},
		{Since: 0, Until: 99, Types: []string{"semantic"}, Now: 60},
		{Project: "p2", Tags: []string{"t1"}, ExcludeStatus: "superseded"},
		{Since: 90, Until: 200, Meta: [][]string{{"tenant=1"}}},
	}
	for _, f := range filters {
		sel := ix.Select(f)
		for range 20 {
			q := Query{Terms: strings.Fields(strings.Join(pick(rng, words, 1+rng.IntN(6)), " ")), K: 1 + rng.IntN(60), Filter: f}
			want := ix.Search(q)
			q.Within = sel
			if sel.Len() > WithinMax {
				t.Fatalf("%+v: %d documents pass, above WithinMax: the test reads the posting lists twice", f, sel.Len())
			}
			if got := ix.Search(q); !reflect.DeepEqual(got, want) {
				t.Fatalf("%+v %q: within %v, want %v", f, q.Terms, got, want)
			}
		}
	}
	f := Filter{Since: 40, Until: 41}
	sel := ix.Select(f)
	victim := sel.Keys()[0]
	ix.Delete(victim) // after the selection: the search still leaves it out
	q := Query{Terms: words, K: 1000, Filter: f, Within: sel}
	if got := ix.Search(q); slices.ContainsFunc(got, func(h Hit) bool { return h.Key == victim }) {
		t.Fatalf("key %d, deleted after the selection, is a hit", victim)
	}
}

// TestSelectTwo: a recall's two alternating filters (the whole home and
// the time a question names) are each answered from the last two
// selections.
func TestSelectTwo(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	ix, _ := randomIndex(rng, 500)
	all, window := Filter{ExcludeStatus: "superseded"}, Filter{ExcludeStatus: "superseded", Since: 40, Until: 41}
	a, w := ix.Select(all), ix.Select(window)
	if ix.Select(all) != a || ix.Select(window) != w {
		t.Fatal("one of the two alternating filters was selected anew")
	}
	ix.Select(Filter{Project: "p0"})
	if ix.Select(all) == a && ix.Select(window) == w {
		t.Fatal("three filters kept: want the last two")
	}
}

func pick(rng *rand.Rand, from []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = from[rng.IntN(len(from))]
	}
	return out
}
