package rank

import "testing"

// TestVectorRanksAgreeWithScores: a candidate the lexical lane found,
// whose exact similarity beats a hit of the vector lane (the approximate
// index missed it), ranks in the vector lane too, so explain does not
// label it bm25 with vector_rank 0 beside a high vector_score. One below
// every vector hit keeps vector_rank 0.
func TestVectorRanksAgreeWithScores(t *testing.T) {
	found := []Found{
		{Doc: Doc{ID: "a"}, LexicalRank: 2, BM25: 1, VectorRank: 1, Similarity: 0.9, HasVector: true},
		{Doc: Doc{ID: "b"}, VectorRank: 2, Similarity: 0.5, HasVector: true},
		{Doc: Doc{ID: "c"}, LexicalRank: 1, BM25: 2, Similarity: 0.76, HasVector: true},
		{Doc: Doc{ID: "d"}, LexicalRank: 3, BM25: 0.5, Similarity: 0.3, HasVector: true},
	}
	p := Default()
	for _, method := range []Fusion{Weighted, RRF} {
		got := map[string]*Candidate{}
		for _, c := range p.Fuse(found, method, p.Alpha, true, true) {
			got[c.Doc.ID] = c
		}
		for id, want := range map[string]struct {
			rank      int
			retrieval string
		}{"a": {1, "hybrid"}, "c": {2, "hybrid"}, "b": {3, "vector"}, "d": {0, "bm25"}} {
			if c := got[id]; c.VecRank != want.rank || c.Retrieval() != want.retrieval {
				t.Errorf("%s: %s: vector_rank %d, retrieval %s, vector_score %v; want rank %d, %s", method, id, c.VecRank, c.Retrieval(), c.VecScore, want.rank, want.retrieval)
			}
		}
	}
}
