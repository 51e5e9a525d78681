package cl100k

import "math"

// The merges below are github.com/tiktoken-go/tokenizer's (codec.go,
// MIT licence), counting the parts instead of returning them: the same
// order of merges, so the same count.

const noRank = math.MaxUint32

// heapFrom is the piece length from which merged uses a heap.
const heapFrom = 96

// merged counts the tokens byte-pair encoding merges piece into.
func merged(t *tab, piece string) int {
	if len(piece) < heapFrom {
		return mergeScan(t, piece)
	}
	return mergeHeap(t, piece)
}

type part struct {
	offset int
	rank   uint32
}

// mergeScan merges the leftmost lowest-ranked pair until none is left,
// finding it by a scan: O(n²), for short pieces.
func mergeScan(t *tab, piece string) int {
	parts := make([]part, len(piece)+1)
	for i := range parts {
		parts[i] = part{i, noRank}
	}
	rankOf := func(i, skip int) uint32 {
		if i+skip+2 < len(parts) {
			if r, ok := t.rank(piece[parts[i].offset:parts[i+skip+2].offset]); ok {
				return r
			}
		}
		return noRank
	}
	for i := 0; i < len(parts)-2; i++ {
		parts[i].rank = rankOf(i, 0)
	}
	for len(parts) > 1 {
		low, at := uint32(noRank), 0
		for i, p := range parts[:len(parts)-1] {
			if p.rank < low {
				low, at = p.rank, i
			}
		}
		if low == noRank {
			break
		}
		parts[at].rank = rankOf(at, 1)
		if at > 0 {
			parts[at-1].rank = rankOf(at-1, 1)
		}
		parts = append(parts[:at+1], parts[at+2:]...)
	}
	return len(parts) - 1
}

type node struct {
	prev, next int32
	rank       uint32 // of the token this part and the next merge into
}

type candidate struct {
	rank   uint32
	offset int32
}

// mergeHeap merges as mergeScan does in O(n log n).
func mergeHeap(t *tab, piece string) int {
	n := int32(len(piece))
	nodes := make([]node, n+1)
	for i := range nodes {
		nodes[i] = node{prev: int32(i) - 1, next: int32(i) + 1, rank: noRank}
	}
	nodes[n].next = -1
	rankOf := func(i int32) uint32 {
		j := nodes[i].next
		if j < 0 {
			return noRank
		}
		k := nodes[j].next
		if k < 0 {
			return noRank
		}
		if r, ok := t.rank(piece[i:k]); ok {
			return r
		}
		return noRank
	}
	h := make(candidates, 0, n)
	for i := int32(0); i+2 <= n; i++ {
		if r := rankOf(i); r != noRank {
			nodes[i].rank = r
			h = append(h, candidate{r, i})
		}
	}
	h.init()
	for len(h) > 0 {
		top := h.pop()
		i := top.offset
		if nodes[i].rank != top.rank {
			continue
		}
		j := nodes[i].next
		k := nodes[j].next
		nodes[j].rank = noRank
		nodes[i].next = k
		if k >= 0 {
			nodes[k].prev = i
		}
		for _, b := range [2]int32{i, nodes[i].prev} {
			if b < 0 {
				continue
			}
			if nodes[b].rank = rankOf(b); nodes[b].rank != noRank {
				h.push(candidate{nodes[b].rank, b})
			}
		}
	}
	count := 0
	for i := int32(0); i >= 0; i = nodes[i].next {
		count++
	}
	return count - 1
}

// candidates is a min-heap of candidates by rank, then offset (the
// leftmost of equal ranks merges first).
type candidates []candidate

func (h candidates) less(a, b int) bool {
	if h[a].rank != h[b].rank {
		return h[a].rank < h[b].rank
	}
	return h[a].offset < h[b].offset
}

func (h candidates) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *candidates) push(c candidate) {
	*h = append(*h, c)
	h.up(len(*h) - 1)
}

func (h *candidates) pop() candidate {
	old := *h
	top := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*h = old[:last]
	h.down(0)
	return top
}

func (h candidates) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (h candidates) down(i int) {
	for {
		child := 2*i + 1
		if child >= len(h) {
			return
		}
		if right := child + 1; right < len(h) && h.less(right, child) {
			child = right
		}
		if !h.less(child, i) {
			return
		}
		h[i], h[child] = h[child], h[i]
		i = child
	}
}
