package hnsw

// Score returns the dot product of q with the vector of each live key in
// keys, in order; ok[i] is false for a key the index does not hold. Hybrid
// recall uses it for the records only the lexical lane found.
func (ix *Index) Score(q []float32, keys []int64) (scores []float32, ok []bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	scores, ok = make([]float32, len(keys)), make([]bool, len(keys))
	if len(q) != ix.cfg.Dim {
		return scores, ok
	}
	for i, k := range keys {
		if id, found := ix.byKey[k]; found {
			scores[i], ok[i] = ix.score(q, id), true
		}
	}
	return scores, ok
}

// Count returns how many live keys accept passes: with the filter of a
// search, how many of the keys it selects have a vector here.
func (ix *Index) Count(accept func(key int64) bool) int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	n := 0
	for id, key := range ix.keys {
		if !ix.isDead(uint32(id)) && accept(key) {
			n++
		}
	}
	return n
}
