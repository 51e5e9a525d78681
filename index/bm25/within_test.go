package bm25

import (
	"bytes"
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

// TestSelectSpan: a filter with time bounds reads the documents of its span
// in event order and selects exactly the documents that pass it, checked
// one by one, before and after documents are added (placed in the order),
// replaced, deleted, compacted (the order built again), and in an index
// read back from its encoding.
func TestSelectSpan(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	ix, _ := randomIndex(rng, 2000)
	check := func(stage string, ix *Index) {
		t.Helper()
		for range 30 {
			f := Filter{Since: int64(rng.IntN(110)) - 5, Until: int64(rng.IntN(110)) - 5}
			switch rng.IntN(4) {
			case 0:
				f.Since = 0 // no lower bound
			case 1:
				f.Until = 0
			case 2:
				f.Project = "p1"
			}
			got := ix.Select(f)
			match, ok := ix.compile(f)
			want := 0
			for n, alive := range ix.alive {
				if !alive || !ok || !match(uint32(n)) {
					continue
				}
				want++
				if !got.Has(ix.keys[n]) {
					t.Fatalf("%s: %+v: key %d (event %d) passes but is not selected", stage, f, ix.keys[n], ix.attrs.at(n).event)
				}
			}
			if got.Len() != want {
				t.Fatalf("%s: %+v: %d selected, %d pass", stage, f, got.Len(), want)
			}
		}
	}
	check("built", ix)
	for i := range 500 { // new documents, and new versions of old ones
		ix.Put(randomDoc(rng, int64(1500+i)))
	}
	check("added", ix)
	for k := range int64(1800) {
		ix.Delete(k) // past a quarter dead: compacted
	}
	check("compacted", ix)
	for i := range 50 {
		ix.Put(randomDoc(rng, int64(5000+i)))
	}
	check("added after compaction", ix)
	var buf bytes.Buffer
	if _, err := ix.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(aligned(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	check("decoded", back)
}
