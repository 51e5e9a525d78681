package hnsw

import "math/bits"

// Set is a filter's selection of keys, such as bm25.KeySet.
type Set interface {
	Has(key int64) bool
	Len() int
	Keys() []int64  // ascending
	Bits() []uint64 // key k is in the set if bit k%64 of word k/64 is set
}

// SearchSet is Search(q, k, set.Has), with the same hits. When the scan is
// chosen, a set of few of the index's keys (a recall's search of the day
// a question names: 270 of 100,000) is read key by key; a larger one (a
// month: 8,300) is tested as a bitmap in the scan's loop, not through a
// call for each of the index's keys.
func (ix *Index) SearchSet(q []float32, k int, set Set) []Hit {
	ix.mu.RLock()
	if k > 0 && len(q) == ix.cfg.Dim && len(ix.byKey) > 0 && ix.preferExact(set.Has, max(ix.cfg.EfSearch, k)) {
		defer ix.mu.RUnlock()
		if set.Len() <= len(ix.byKey)/fewShare {
			return ix.exactIn(q, k, set.Keys())
		}
		return ix.exactBits(q, k, set.Bits())
	}
	ix.mu.RUnlock()
	return ix.Search(q, k, set.Has)
}

// fewShare: a set of at most 1/fewShare of the keys is read key by key (a
// map lookup each, against a bit test for every key of the index).
const fewShare = 16

// exactIn is exact over the live nodes of keys, in id order as exact reads
// them (which decides among equal scores), so its hits are exact's.
func (ix *Index) exactIn(q []float32, k int, keys []int64) []Hit {
	s := ix.getSearcher()
	defer ix.searcher.Put(s)
	words := (len(ix.keys) + 63) / 64
	if cap(s.idSet) < words {
		s.idSet = make([]uint64, words)
	}
	set := s.idSet[:words]
	for _, key := range keys {
		if id, ok := ix.byKey[key]; ok { // byKey holds live nodes only
			set[id>>6] |= 1 << (id & 63)
		}
	}
	h := s.res[:0]
	for w0 := 0; w0 < words; w0 += exactChunk / 64 {
		ids := s.ids[:0]
		for w := w0; w < min(w0+exactChunk/64, words); w++ {
			for b := set[w]; b != 0; b &= b - 1 {
				ids = append(ids, uint32(w<<6|bits.TrailingZeros64(b)))
			}
			set[w] = 0
		}
		s.ids = ids
		s.scores = ix.dots(q, ids, s.scores[:0])
		h = s.keep(h, ids, k)
	}
	s.res = h
	return ix.hits(h, k)
}

// exactBits is exact with the keys of the bitmap bits passing: the bit
// tested in the loop, not through a call for each of the index's keys.
func (ix *Index) exactBits(q []float32, k int, bits []uint64) []Hit {
	return ix.exactBy(q, k, func(ids []uint32, from, to uint32) []uint32 {
		for id := from; id < to; id++ {
			key := ix.keys[id]
			if key >= 0 && key>>6 < int64(len(bits)) && bits[key>>6]&(1<<(key&63)) != 0 && !ix.isDead(id) {
				ids = append(ids, id)
			}
		}
		return ids
	})
}
