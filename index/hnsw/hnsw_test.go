package hnsw

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// gen makes clustered unit vectors: fixed random centres, each point a
// centre plus Gaussian noise, normalised. The same seed gives the same
// vectors, so benchmarks and tests are repeatable.
type gen struct {
	dim     int
	centres [][]float32
}

func newGen(dim, centres int) *gen {
	rng := rand.New(rand.NewPCG(42, 0))
	g := &gen{dim: dim}
	for range centres {
		g.centres = append(g.centres, g.unit(rng, nil, 1))
	}
	return g
}

// unit returns normalise(base + sigma·N(0,1)/√dim per coordinate).
func (g *gen) unit(rng *rand.Rand, base []float32, sigma float64) []float32 {
	v := make([]float32, g.dim)
	var n float64
	s := sigma / math.Sqrt(float64(g.dim))
	for i := range v {
		x := rng.NormFloat64() * s
		if base != nil {
			x += float64(base[i])
		}
		v[i] = float32(x)
		n += x * x
	}
	n = math.Sqrt(n)
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
	return v
}

// points returns n points around the centres from the given stream.
func (g *gen) points(n int, stream uint64) [][]float32 {
	rng := rand.New(rand.NewPCG(7, stream))
	out := make([][]float32, n)
	for i := range out {
		out[i] = g.unit(rng, g.centres[rng.IntN(len(g.centres))], 0.8)
	}
	return out
}

func build(t testing.TB, cfg Config, vecs [][]float32, batch bool) *Index {
	ix := New(cfg)
	keys := make([]int64, len(vecs))
	for i := range keys {
		keys[i] = int64(i)
	}
	if batch {
		if err := ix.AddBatch(keys, vecs); err != nil {
			t.Fatal(err)
		}
		return ix
	}
	for i, v := range vecs {
		if err := ix.Add(keys[i], v); err != nil {
			t.Fatal(err)
		}
	}
	return ix
}

// recall is the mean fraction of Exact's top k that Search finds.
func recall(ix *Index, queries [][]float32, k int, accept func(int64) bool) float64 {
	total := 0.0
	for _, q := range queries {
		want := ix.Exact(q, k, accept)
		got := ix.Search(q, k, accept)
		in := map[int64]bool{}
		for _, h := range got {
			in[h.Key] = true
		}
		hit := 0
		for _, h := range want {
			if in[h.Key] {
				hit++
			}
		}
		if len(want) > 0 {
			total += float64(hit) / float64(len(want))
		} else {
			total++
		}
	}
	return total / float64(len(queries))
}

func size(short, long int) int {
	if testing.Short() {
		return short
	}
	return long
}

func TestRecall(t *testing.T) {
	g := newGen(384, 100)
	vecs, queries := g.points(size(2000, 5000), 1), g.points(200, 2)
	for _, batch := range []bool{false, true} {
		ix := build(t, Config{Dim: 384}, vecs, batch)
		if ix.Len() != len(vecs) {
			t.Fatalf("Len %d", ix.Len())
		}
		r := recall(ix, queries, 10, nil)
		t.Logf("batch=%v recall@10 %.4f", batch, r)
		if r < 0.95 {
			t.Errorf("batch=%v recall@10 %.4f < 0.95", batch, r)
		}
	}
}

func TestDeterministic(t *testing.T) {
	g := newGen(32, 20)
	vecs := g.points(1500, 3)
	for _, batch := range []bool{false, true} {
		a, b := build(t, Config{Dim: 32, Seed: 5}, vecs, batch), build(t, Config{Dim: 32, Seed: 5}, vecs, batch)
		if !slices.Equal(a.links0, b.links0) || !slices.Equal(a.upper, b.upper) || a.entry != b.entry {
			t.Fatalf("batch=%v: same input, different graphs", batch)
		}
	}
}

func TestFiltered(t *testing.T) {
	g := newGen(64, 50)
	vecs, queries := g.points(4000, 4), g.points(50, 5)
	ix := build(t, Config{Dim: 64}, vecs, true)
	for _, mod := range []int64{2, 10, 100, 1000} {
		accept := func(k int64) bool { return k%mod == 3%mod }
		for _, q := range queries {
			got := ix.Search(q, 10, accept)
			for _, h := range got {
				if !accept(h.Key) {
					t.Fatalf("mod %d: key %d not accepted", mod, h.Key)
				}
			}
			want := ix.Exact(q, 10, accept)
			if len(got) != len(want) {
				t.Fatalf("mod %d: %d hits, want %d", mod, len(got), len(want))
			}
			if mod >= 100 && !slices.Equal(got, want) {
				t.Fatalf("mod %d: selective filter differs from Exact:\n%v\n%v", mod, got, want)
			}
		}
		r := recall(ix, queries, 10, accept)
		t.Logf("filter 1/%d: recall %.4f", mod, r)
		if r < 0.95 {
			t.Errorf("filter 1/%d: recall %.4f", mod, r)
		}
	}
	if hits := ix.Search(queries[0], 10, func(int64) bool { return false }); len(hits) != 0 {
		t.Fatalf("reject-all filter returned %v", hits)
	}
}

// TestExactScan checks the scan against a plain loop over every live,
// accepted key: k within one chunk of ids and beyond it, deleted keys, a
// filter and none, and ties (duplicate vectors) to the lower key.
func TestExactScan(t *testing.T) {
	g := newGen(48, 20)
	vecs := g.points(3000, 11)
	for i := 100; i < 3000; i += 97 {
		vecs[i] = vecs[i-50] // ties
	}
	ix := build(t, Config{Dim: 48}, vecs, true)
	for i := int64(0); i < 3000; i += 7 {
		ix.Delete(i)
	}
	dot := func(a, b []float32) (s float32) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	for _, tc := range []struct {
		name   string
		k      int
		accept func(int64) bool
	}{
		{"k1", 1, nil},
		{"k10-tenth", 10, func(k int64) bool { return k%10 == 3 }},
		{"k700-third", 700, func(k int64) bool { return k%3 != 0 }},
		{"k5000-all", 5000, nil},
		{"none-pass", 10, func(int64) bool { return false }},
	} {
		for _, q := range append(g.points(5, 12), vecs[150]) {
			var want []Hit
			for key, v := range vecs {
				if key%7 != 0 && (tc.accept == nil || tc.accept(int64(key))) {
					want = append(want, Hit{int64(key), dot(q, v)})
				}
			}
			slices.SortFunc(want, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
			want = want[:min(tc.k, len(want))]
			got := ix.Exact(q, tc.k, tc.accept)
			if len(got) != len(want) {
				t.Fatalf("%s: %d hits, want %d", tc.name, len(got), len(want))
			}
			seen := map[int64]bool{}
			for i, h := range got {
				ok := h.Key%7 != 0 && (tc.accept == nil || tc.accept(h.Key)) && !seen[h.Key]
				seen[h.Key] = true
				near := func(a, b float32) bool { return math.Abs(float64(a-b)) <= 1e-5 }
				if !ok || !near(h.Score, dot(q, vecs[h.Key])) || !near(h.Score, want[i].Score) {
					t.Fatalf("%s: hit %d is %v, want a live accepted key scoring %v", tc.name, i, h, want[i].Score)
				}
				if i > 0 && h.Score == got[i-1].Score && h.Key < got[i-1].Key {
					t.Fatalf("%s: tie %v after %v: want the lower key first", tc.name, h, got[i-1])
				}
			}
		}
	}
}

func TestDeleteReplace(t *testing.T) {
	g := newGen(32, 10)
	vecs := g.points(3000, 6)
	ix := build(t, Config{Dim: 32}, vecs, true)
	for i := int64(0); i < 3000; i += 2 {
		ix.Delete(i)
	}
	ix.Delete(99999) // absent: no-op
	if ix.Len() != 1500 {
		t.Fatalf("Len %d after deletes", ix.Len())
	}
	for _, q := range g.points(20, 7) {
		for _, h := range ix.Search(q, 10, nil) {
			if h.Key%2 == 0 {
				t.Fatalf("deleted key %d returned", h.Key)
			}
		}
	}
	// Re-adding a live key replaces its vector: searching for the new vector
	// finds it, and the key appears once.
	nv := g.points(1, 8)[0]
	if err := ix.Add(1, nv); err != nil {
		t.Fatal(err)
	}
	hits := ix.Search(nv, 5, nil)
	if hits[0].Key != 1 || hits[0].Score < 0.999 {
		t.Fatalf("replaced key not found first: %v", hits)
	}
	seen := 0
	for _, h := range ix.Search(nv, 100, nil) {
		if h.Key == 1 {
			seen++
		}
	}
	if seen != 1 || ix.Len() != 1500 {
		t.Fatalf("key 1 seen %d times, Len %d", seen, ix.Len())
	}
	// Deleting most keys compacts; the survivors stay searchable.
	for i := int64(1); i < 2900; i += 2 {
		ix.Delete(i)
	}
	if ix.nDead > len(ix.byKey) || ix.Len() != 50 {
		t.Fatalf("after compaction: %d dead, %d live", ix.nDead, ix.Len())
	}
	if r := recall(ix, g.points(20, 9), 10, nil); r < 0.99 {
		t.Fatalf("recall after compaction %.3f", r)
	}
}

func TestDimension(t *testing.T) {
	ix := New(Config{Dim: 8})
	if err := ix.Add(1, make([]float32, 7)); !errors.Is(err, ErrDim) {
		t.Fatalf("got %v", err)
	}
	if ix.Search(make([]float32, 9), 3, nil) != nil || ix.Len() != 0 {
		t.Fatal("wrong-dimension query or failed add had an effect")
	}
	if ix.Search(make([]float32, 8), 3, nil) != nil {
		t.Fatal("empty index returned hits")
	}
}

// TestConcurrent runs searches while another goroutine adds and deletes;
// run with -race.
func TestConcurrent(t *testing.T) {
	g := newGen(32, 10)
	vecs := g.points(size(1000, 3000), 10)
	ix := build(t, Config{Dim: 32}, vecs[:200], false)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 200; i < len(vecs); i++ {
			ix.Add(int64(i), vecs[i])
			if i%7 == 0 {
				ix.Delete(int64(i - 100))
			}
		}
	}()
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, q := range g.points(300, uint64(11+w)) {
				ix.Search(q, 5, func(k int64) bool { return k%3 != 0 })
				if i%50 == 0 {
					ix.AddBatch([]int64{int64(10000*(w+1) + i)}, [][]float32{q})
				}
			}
		}()
	}
	wg.Wait()
}

func TestFallbackKernel(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		g := newGen(48, 10)
		vecs := g.points(1000, 12)
		ix := build(t, Config{Dim: 48}, vecs, true)
		if r := recall(ix, g.points(30, 13), 10, nil); r < 0.95 {
			t.Fatalf("recall %.3f", r)
		}
	})
}
