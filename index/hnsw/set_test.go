package hnsw

import (
	"slices"
	"testing"
)

// keySet is a Set over a sorted list.
type keySet []int64

func (s keySet) Has(key int64) bool { _, ok := slices.BinarySearch(s, key); return ok }
func (s keySet) Len() int           { return len(s) }
func (s keySet) Keys() []int64      { return s }
func (s keySet) Bits() []uint64 {
	var out []uint64
	for _, key := range s {
		for key>>6 >= int64(len(out)) {
			out = append(out, 0)
		}
		out[key>>6] |= 1 << (key & 63)
	}
	return out
}

// TestSearchSet: SearchSet gives Search's hits, on the path that reads the
// set's keys (few of the index's) and on the others, with deleted keys,
// keys the index lacks, and ties (duplicate vectors).
func TestSearchSet(t *testing.T) {
	g := newGen(32, 20)
	vecs := g.points(4000, 21)
	for i := 100; i < 4000; i += 89 {
		vecs[i] = vecs[i-60] // ties
	}
	ix := build(t, Config{Dim: 32}, vecs, true)
	for i := int64(0); i < 4000; i += 11 {
		ix.Delete(i)
	}
	for _, tc := range []struct {
		name string
		k    int
		mod  int64 // the set: keys ≡ 3 mod mod, and some the index lacks
	}{
		{"k10-few", 10, 100},
		{"k50-few", 50, 20},
		{"k300-few", 300, 17},
		{"k10-many", 10, 3},
		{"k10-all", 10, 1},
	} {
		var set keySet
		for key := int64(0); key < 4100; key++ {
			if key%tc.mod == 3%tc.mod {
				set = append(set, key)
			}
		}
		for _, q := range append(g.points(6, 22), vecs[160]) {
			want := ix.Search(q, tc.k, set.Has)
			got := ix.SearchSet(q, tc.k, set)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: SearchSet\n%v\nSearch\n%v", tc.name, got, want)
			}
		}
	}
	if got := ix.SearchSet(vecs[0], 10, keySet{}); len(got) != 0 {
		t.Fatalf("empty set: %v", got)
	}
}
