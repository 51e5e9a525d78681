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
