package mneme

import "testing"

// TestExplainAgreesWithItself: a candidate the lexical lane found, whose
// exact similarity beats a hit of the vector lane (the approximate index
// missed it), ranks in the vector lane too, so explain does not label it
// bm25 with vector_rank 0 beside a high vector_score. One below every
// vector hit keeps vector_rank 0.
func TestExplainAgreesWithItself(t *testing.T) {
	rec := func(id string) *Record { return &Record{ID: id} }
	found := []Candidate{
		{Record: rec("a"), LexicalRank: 2, BM25: 1, VectorRank: 1, Similarity: 0.9, HasVector: true},
		{Record: rec("b"), VectorRank: 2, Similarity: 0.5, HasVector: true},
		{Record: rec("c"), LexicalRank: 1, BM25: 2, Similarity: 0.76, HasVector: true},
		{Record: rec("d"), LexicalRank: 3, BM25: 0.5, Similarity: 0.3, HasVector: true},
	}
	for _, method := range []Fusion{Weighted, RRF} {
		got := map[string]*candidate{}
		for _, c := range fuse(found, method, DefaultAlpha, true, true) {
			got[c.rec.ID] = c
		}
		q := &Query{Mode: Hybrid, Fusion: method}
		for id, want := range map[string]struct {
			rank      int
			retrieval string
		}{"a": {1, "hybrid"}, "c": {2, "hybrid"}, "b": {3, "vector"}, "d": {0, "bm25"}} {
			x := got[id].explain(q, nil)
			if x.VectorRank != want.rank || x.Retrieval != want.retrieval {
				t.Errorf("%s: %s: vector_rank %d, retrieval %s, vector_score %v; want rank %d, %s", method, id, x.VectorRank, x.Retrieval, x.VectorScore, want.rank, want.retrieval)
			}
		}
	}
}
