package hnsw

import (
	"cmp"
	"slices"
)

// searcher holds one search's scratch space; pooled per index.
type searcher struct {
	marks    []uint32 // visited[i] == gen
	gen      uint32
	cands    []cand // min-heap on negated score: best candidate on top
	res      []cand // min-heap on score: worst result on top
	ids      []uint32
	ids2     []uint32
	scores   []float32
	cands2   []cand
	sel      []cand
	rejected []cand
	idSet    []uint64 // exactIn's ids, a bit each; left all zero
}

func (ix *Index) getSearcher() *searcher {
	s, _ := ix.searcher.Get().(*searcher)
	if s == nil {
		s = &searcher{}
	}
	if n := len(ix.keys); len(s.marks) < n {
		s.marks = make([]uint32, n+n/4+64)
		s.gen = 0
	}
	return s
}

func (s *searcher) reset() {
	s.gen++
	if s.gen == 0 {
		clear(s.marks)
		s.gen = 1
	}
}

func push(h *[]cand, c cand) {
	*h = append(*h, c)
	a := *h
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if a[p].score <= a[i].score {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func pop(h *[]cand) cand {
	a := *h
	top := a[0]
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	siftDown(a)
	*h = a
	return top
}

// siftDown restores the heap after a[0] changed.
func siftDown(a []cand) {
	n := len(a)
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		if r := l + 1; r < n && a[r].score < a[l].score {
			l = r
		}
		if a[i].score <= a[l].score {
			break
		}
		a[i], a[l] = a[l], a[i]
		i = l
	}
}

// dots appends q·vec(id) for each id to out. Every score a search returns
// comes from dot4, whose sum for one vector does not depend on the other
// three, so a key scores the same bits whichever path (graph, scan, Score)
// reads it.
func (ix *Index) dots(q []float32, ids []uint32, out []float32) []float32 {
	i := 0
	for ; i+4 <= len(ids); i += 4 {
		r := dot4(q, ix.vec(ids[i]), ix.vec(ids[i+1]), ix.vec(ids[i+2]), ix.vec(ids[i+3]))
		out = append(out, r[:]...)
	}
	if rest := len(ids) - i; rest > 0 {
		var v [4][]float32
		for j := range v {
			v[j] = ix.vec(ids[i+min(j, rest-1)])
		}
		r := dot4(q, v[0], v[1], v[2], v[3])
		out = append(out, r[:rest]...)
	}
	return out
}

// score is q·vec(id) as dots computes it.
func (ix *Index) score(q []float32, id uint32) float32 {
	v := ix.vec(id)
	return dot4(q, v, v, v, v)[0]
}

// greedy walks level towards q from ep, moving to the best neighbour until
// none improves. Nodes ≥ limit are invisible.
func (ix *Index) greedy(s *searcher, q []float32, ep cand, level int, limit uint32) cand {
	for changed := true; changed; {
		changed = false
		ids := s.ids[:0]
		for _, v := range ix.neighbours(ep.id, level) {
			if v < limit {
				ids = append(ids, v)
			}
		}
		s.ids = ids
		s.scores = ix.dots(q, ids, s.scores[:0])
		for i, v := range ids {
			if sc := s.scores[i]; sc > ep.score {
				ep, changed = cand{v, sc}, true
			}
		}
	}
	return ep
}

// searchLayer is the HNSW beam search at one level, leaving up to ef results
// in s.res (a heap, worst on top). Nodes ≥ limit are invisible. ok, when not
// nil, decides which nodes may be results; rejected nodes are still
// traversed. While fewer than ef results are found every visited node is a
// candidate, so a selective ok widens the search until ef results turn up or
// the reachable graph is exhausted.
func (ix *Index) searchLayer(s *searcher, q []float32, eps []cand, ef, level int, limit uint32, ok func(uint32) bool) {
	s.reset()
	s.cands, s.res = s.cands[:0], s.res[:0]
	for _, e := range eps {
		if s.marks[e.id] == s.gen {
			continue
		}
		s.marks[e.id] = s.gen
		push(&s.cands, cand{e.id, -e.score})
		if ok == nil || ok(e.id) {
			push(&s.res, e)
			if len(s.res) > ef {
				pop(&s.res)
			}
		}
	}
	for len(s.cands) > 0 {
		c := pop(&s.cands)
		if len(s.res) >= ef && -c.score < s.res[0].score {
			break
		}
		ids := s.ids[:0]
		for _, v := range ix.neighbours(c.id, level) {
			if v < limit && s.marks[v] != s.gen {
				s.marks[v] = s.gen
				ids = append(ids, v)
			}
		}
		s.ids = ids
		s.scores = ix.dots(q, ids, s.scores[:0])
		for i, v := range ids {
			sc := s.scores[i]
			if len(s.res) < ef || sc > s.res[0].score {
				push(&s.cands, cand{v, -sc})
				if ok == nil || ok(v) {
					push(&s.res, cand{v, sc})
					if len(s.res) > ef {
						pop(&s.res)
					}
				}
			}
		}
	}
}

// Search returns up to k live keys with the highest dot product with q,
// best first. accept, if not nil, restricts results to keys it accepts. A
// selective filter (estimated from a sample) is answered by an exact scan;
// otherwise the graph is searched, routing through rejected nodes. A
// graph search that finds fewer than k results falls back to the scan, so
// a filtered query never comes back short while matches exist.
func (ix *Index) Search(q []float32, k int, accept func(key int64) bool) []Hit {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if k <= 0 || len(q) != ix.cfg.Dim || len(ix.byKey) == 0 {
		return nil
	}
	ef := max(ix.cfg.EfSearch, k)
	if accept != nil && ix.preferExact(accept, ef) {
		return ix.exact(q, k, accept)
	}
	var ok func(uint32) bool
	switch {
	case accept != nil:
		ok = func(id uint32) bool { return !ix.isDead(id) && accept(ix.keys[id]) }
	case ix.nDead > 0:
		ok = func(id uint32) bool { return !ix.isDead(id) }
	}
	s := ix.getSearcher()
	defer ix.searcher.Put(s)
	n := uint32(len(ix.keys))
	ep := cand{uint32(ix.entry), ix.score(q, uint32(ix.entry))}
	for l := ix.maxLevel; l > 0; l-- {
		ep = ix.greedy(s, q, ep, l, n)
	}
	ix.searchLayer(s, q, []cand{ep}, ef, 0, n, ok)
	if len(s.res) < k && len(s.res) < len(ix.byKey) {
		return ix.exact(q, k, accept) // part of the graph was unreachable
	}
	return ix.hits(s.res, k)
}

// preferExact estimates the fraction f of live keys accept passes from a
// fixed sample and compares costs in units of one vector score in the
// graph: the graph search costs about 9·ef/f of them (fitted on 100k
// MiniLM vectors). The scan calls accept on every live key (about 1/64 of
// a score) and scores the f·live that pass in id order, four at a time,
// at about 0.4 of a graph score each (measured at 100k, 384 dimensions:
// BenchmarkFilteredSearch100k; the paths cross near 15% passing, and a
// 10% filter scans in about half the graph's time).
func (ix *Index) preferExact(accept func(int64) bool, ef int) bool {
	n := len(ix.keys)
	samples := min(n, 256)
	live, pass := 0, 0
	for j := range samples {
		id := uint32(j * n / samples)
		if !ix.isDead(id) {
			live++
			if accept(ix.keys[id]) {
				pass++
			}
		}
	}
	f := (float64(pass) + 0.5) / (float64(live) + 1)
	nLive := float64(len(ix.byKey))
	return nLive/64+0.4*f*nLive < 9*float64(ef)/f
}

// Exact returns the true top k by brute force (see Search).
func (ix *Index) Exact(q []float32, k int, accept func(key int64) bool) []Hit {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if k <= 0 || len(q) != ix.cfg.Dim {
		return nil
	}
	return ix.exact(q, k, accept)
}

func (ix *Index) exact(q []float32, k int, accept func(int64) bool) []Hit {
	return ix.exactBy(q, k, func(ids []uint32, from, to uint32) []uint32 {
		for id := from; id < to; id++ {
			if !ix.isDead(id) && (accept == nil || accept(ix.keys[id])) {
				ids = append(ids, id)
			}
		}
		return ids
	})
}

// exactBy is the scan: pass appends to ids the live ids in [from, to)
// that pass, ascending, a chunk of exactChunk at a time.
func (ix *Index) exactBy(q []float32, k int, pass func(ids []uint32, from, to uint32) []uint32) []Hit {
	s := ix.getSearcher()
	defer ix.searcher.Put(s)
	h := s.res[:0]
	n := uint32(len(ix.keys))
	for start := uint32(0); start < n; start += exactChunk {
		s.ids = pass(s.ids[:0], start, min(start+exactChunk, n))
		s.scores = ix.dots(q, s.ids, s.scores[:0])
		h = s.keep(h, s.ids, k)
	}
	s.res = h
	return ix.hits(h, k)
}

// exactChunk is how many ids the scan checks before scoring those passing,
// four at a time (dot4 reads the query once for four vectors).
const exactChunk = 512

// keep adds ids, scored s.scores, to the heap h of the best k (worst on
// top; an equal score does not displace an earlier id).
func (s *searcher) keep(h []cand, ids []uint32, k int) []cand {
	for i, id := range ids {
		if sc := s.scores[i]; len(h) < k {
			push(&h, cand{id, sc})
		} else if sc > h[0].score {
			h[0] = cand{id, sc}
			siftDown(h)
		}
	}
	return h
}

// hits sorts results best first (ties by key) and keeps k.
func (ix *Index) hits(res []cand, k int) []Hit {
	out := make([]Hit, len(res))
	for i, c := range res {
		out[i] = Hit{ix.keys[c.id], c.score}
	}
	slices.SortFunc(out, func(a, b Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Key, b.Key))
	})
	return out[:min(k, len(out))]
}
