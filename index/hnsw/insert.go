package hnsw

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Insertion works on chunks so that two cores can build one graph and the
// result is still deterministic:
//
//  1. In parallel, each new node searches the graph as it was before the
//     chunk (nodes < base) and also scores the chunk's earlier nodes
//     exactly, then picks its neighbours with the heuristic. Only its own
//     lists are written, and nobody reads them during this phase.
//  2. The reverse links are grouped by target list and, in parallel per
//     target, appended or pruned. Each target's outcome depends only on its
//     own list and the sorted incoming links, not on scheduling.
//
// A chunk of one node is exactly the classic HNSW insertion.

// chunkSize keeps chunks small while the graph is small, where missing each
// other in phase 1 would matter; 64 nodes amortise waking the second core.
func (ix *Index) chunkSize() int { return min(64, max(1, len(ix.keys)/32)) }

type cand struct {
	id    uint32
	score float32
}

func (ix *Index) insertChunk(keys []int64, vecs [][]float32) {
	ix.own()
	base := uint32(len(ix.keys))
	cfg := ix.cfg
	for i, key := range keys {
		if old, ok := ix.byKey[key]; ok {
			ix.kill(old) // replaced: the old node becomes a tombstone
		}
		id := uint32(len(ix.keys))
		lvl := ix.levelOf(int(id))
		ix.keys = append(ix.keys, key)
		ix.vecs = append(ix.vecs, vecs[i]...)
		ix.levels = append(ix.levels, uint8(lvl))
		ix.upperOff = append(ix.upperOff, uint32(len(ix.upper)))
		ix.links0 = slices.Grow(ix.links0, ix.m0+1)[:len(ix.links0)+ix.m0+1]
		clear(ix.links0[len(ix.links0)-ix.m0-1:])
		ix.upper = append(ix.upper, make([]uint32, lvl*(cfg.M+1))...)
		if int(id>>6) >= len(ix.dead) {
			ix.dead = append(ix.dead, 0)
		}
		ix.byKey[key] = id
	}

	// Phase 1: choose each new node's own neighbours.
	ix.parallel(len(keys), func(s *searcher, i int) {
		id := base + uint32(i)
		q := ix.vec(id)
		lvl := int(ix.levels[id])
		var eps []cand
		if ix.entry >= 0 {
			ep := cand{uint32(ix.entry), dot(q, ix.vec(uint32(ix.entry)))}
			for l := ix.maxLevel; l > lvl; l-- {
				ep = ix.greedy(s, q, ep, l, base)
			}
			eps = []cand{ep}
		}
		for l := lvl; l >= 0; l-- {
			var c []cand
			if ix.entry >= 0 && l <= ix.maxLevel {
				ix.searchLayer(s, q, eps, cfg.EfConstruction, l, base, nil)
				eps = slices.Clone(s.res) // next level starts from these (all < base)
				c = append(c, eps...)
			}
			for j := base; j < id; j++ {
				if int(ix.levels[j]) >= l {
					c = append(c, cand{j, dot(q, ix.vec(j))})
				}
			}
			sortDesc(c)
			sel := ix.selectNeighbours(s, c, cfg.M)
			sl := ix.slot(id, l)
			sl[0] = uint32(len(sel))
			for j, n := range sel {
				sl[1+j] = n.id
			}
		}
	})

	// Phase 2: reverse links, grouped by (level, target).
	type link struct {
		level       uint8
		target, src uint32
	}
	var links []link
	for id := base; id < uint32(len(ix.keys)); id++ {
		for l := int(ix.levels[id]); l >= 0; l-- {
			for _, nb := range ix.neighbours(id, l) {
				links = append(links, link{uint8(l), nb, id})
			}
		}
	}
	slices.SortFunc(links, func(a, b link) int {
		return cmp.Or(cmp.Compare(a.level, b.level), cmp.Compare(a.target, b.target), cmp.Compare(a.src, b.src))
	})
	var groups []int // start of each group in links, plus len(links)
	for i := range links {
		if i == 0 || links[i].level != links[i-1].level || links[i].target != links[i-1].target {
			groups = append(groups, i)
		}
	}
	groups = append(groups, len(links))
	ix.parallel(len(groups)-1, func(s *searcher, g int) {
		ls := links[groups[g]:groups[g+1]]
		srcs := s.ids[:0]
		for _, l := range ls {
			srcs = append(srcs, l.src)
		}
		s.ids = srcs
		ix.addLinks(s, ls[0].target, int(ls[0].level), srcs)
	})

	for id := base; id < uint32(len(ix.keys)); id++ {
		if ix.entry < 0 || int(ix.levels[id]) > ix.maxLevel {
			ix.entry, ix.maxLevel = int32(id), int(ix.levels[id])
		}
	}
}

// addLinks adds srcs to u's list at level, pruning with the heuristic when
// the list would overflow.
func (ix *Index) addLinks(s *searcher, u uint32, level int, srcs []uint32) {
	limit := ix.cfg.M
	if level == 0 {
		limit = ix.m0
	}
	sl := ix.slot(u, level)
	n := int(sl[0])
	if n+len(srcs) <= limit {
		copy(sl[1+n:], srcs)
		sl[0] = uint32(n + len(srcs))
		return
	}
	ids := append(append(s.ids2[:0], sl[1:1+n]...), srcs...)
	s.ids2 = ids
	c := s.cands2[:0]
	q := ix.vec(u)
	s.scores = ix.dots(q, ids, s.scores[:0])
	for i, id := range ids {
		c = append(c, cand{id, s.scores[i]})
	}
	s.cands2 = c
	sortDesc(c)
	sel := ix.selectNeighbours(s, c, limit)
	sl[0] = uint32(len(sel))
	for j, x := range sel {
		sl[1+j] = x.id
	}
}

// keepPruned refills a list the heuristic left short with the best of the
// candidates it rejected (Malkov & Yashunin's keepPrunedConnections).
const keepPruned = false

// selectNeighbours is the HNSW heuristic (Malkov & Yashunin, algorithm 4)
// over candidates sorted best first: a candidate is kept only if it is
// closer to the base than to every neighbour already kept, which spreads
// links across directions and keeps clusters connected to each other. The
// result is in s.sel, valid until the next call.
func (ix *Index) selectNeighbours(s *searcher, c []cand, m int) []cand {
	sel := s.sel[:0]
	rejected := s.rejected[:0]
	for _, x := range c {
		if len(sel) >= m {
			break
		}
		xv := ix.vec(x.id)
		ok := true
		for _, y := range sel {
			if dot(xv, ix.vec(y.id)) > x.score {
				ok = false
				break
			}
		}
		if ok {
			sel = append(sel, x)
		} else if keepPruned {
			rejected = append(rejected, x)
		}
	}
	for _, x := range rejected {
		if len(sel) >= m {
			break
		}
		sel = append(sel, x)
	}
	s.sel, s.rejected = sel, rejected
	return sel
}

// sortDesc sorts candidates best first; ties by id keep it deterministic.
func sortDesc(c []cand) {
	slices.SortFunc(c, func(a, b cand) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.id, b.id))
	})
}

// parallel runs f(i) for i < n on up to GOMAXPROCS goroutines, each with its
// own searcher. Callers make the results independent of scheduling.
func (ix *Index) parallel(n int, f func(s *searcher, i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		s := ix.getSearcher()
		for i := range n {
			f(s, i)
		}
		ix.searcher.Put(s)
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := ix.getSearcher()
			defer ix.searcher.Put(s)
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(s, i)
			}
		}()
	}
	wg.Wait()
}
