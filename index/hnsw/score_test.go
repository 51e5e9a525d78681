package hnsw

import "testing"

func TestScoreMatchesExact(t *testing.T) {
	g := newGen(16, 4)
	vecs := g.points(200, 1)
	ix := build(t, Config{Dim: 16}, vecs, true)
	ix.Delete(7)
	q := g.points(1, 2)[0]
	exact := ix.Exact(q, 10, nil)
	keys := []int64{7, 1000}
	for _, h := range exact {
		keys = append(keys, h.Key)
	}
	scores, ok := ix.Score(q, keys)
	if ok[0] || ok[1] || scores[0] != 0 {
		t.Fatalf("a deleted and an unknown key scored: %v %v", scores[:2], ok[:2])
	}
	for i, h := range exact {
		if !ok[i+2] || scores[i+2] != h.Score {
			t.Fatalf("key %d: Score %v (%v), Exact %v", h.Key, scores[i+2], ok[i+2], h.Score)
		}
	}
}

func TestCount(t *testing.T) {
	g := newGen(16, 4)
	ix := build(t, Config{Dim: 16}, g.points(200, 1), true)
	ix.Delete(7)
	ix.Delete(8)
	if n := ix.Count(func(int64) bool { return true }); n != 198 {
		t.Fatalf("count of every live key = %d, want 198", n)
	}
	even := func(k int64) bool { return k%2 == 0 }
	if n := ix.Count(even); n != 99 {
		t.Fatalf("count of the even live keys = %d, want 99", n)
	}
}
