package postgres

import "sync"

// docIndex finds the records a top-k search has met by rid: their number
// (from 1) among the records met. The lexical lane under a filter most
// records fail meets tens of thousands, each looked up again for every
// posting of it read; rids are dense from 1 (a sequence), so a table by
// rid costs a fraction of a map's lookup and nothing for the collector to
// scan. The tables are reused (cleared of what they held) across searches.
type docIndex struct {
	table []int32         // by rid, for rids below denseRids
	other map[int64]int32 // the rest
}

// denseRids bounds a table: 16 MiB.
const denseRids = 1 << 22

var docTables = keep[[]int32]{most: 4}

func newDocIndex() *docIndex {
	x := &docIndex{}
	x.table, _ = docTables.get()
	return x
}

// get returns rid's number, 0 if not met.
func (x *docIndex) get(rid int64) int32 {
	if rid >= 0 && rid < int64(len(x.table)) {
		return x.table[rid]
	}
	return x.other[rid]
}

// put sets rid's number.
func (x *docIndex) put(rid int64, n int32) {
	if rid >= 0 && rid < denseRids {
		if rid >= int64(len(x.table)) {
			grown := make([]int32, min(denseRids, max(2*len(x.table), int(rid)+1, 1<<16)))
			copy(grown, x.table)
			x.table = grown
		}
		x.table[rid] = n
		return
	}
	if x.other == nil {
		x.other = map[int64]int32{}
	}
	x.other[rid] = n
}

// free clears the table of the records met (met yields them) and keeps it
// for another search.
func (x *docIndex) free(met func(func(*taDoc) bool)) {
	if x.table == nil {
		return
	}
	for d := range met {
		if d.rid >= 0 && d.rid < int64(len(x.table)) {
			x.table[d.rid] = 0
		}
	}
	docTables.put(x.table)
	x.table = nil
}

// taSpare is what finished searches left for the next: blocks of records
// and arenas of term sets (the lexical lane under a filter meets tens of
// thousands of records; reusing their memory spares the collector).
type taSpare struct {
	docs   [][]taDoc
	arenas [][]uint64
	cs     []contender
}

// spareBlocks bounds what is kept: 128 blocks of records (with their
// arenas) hold 131,072 records, about 9 MiB.
const spareBlocks = 128

var taSpares = keep[*taSpare]{most: 4}

func takeSpare() *taSpare {
	if sp, ok := taSpares.get(); ok {
		return sp
	}
	return &taSpare{}
}

// newBlock returns an empty block of records.
func (t *ta) newBlock() []taDoc {
	if n := len(t.spare.docs); n > 0 {
		b := t.spare.docs[n-1]
		t.spare.docs = t.spare.docs[:n-1]
		return b[:0]
	}
	return make([]taDoc, 0, docBlock)
}

// newArena returns size zero words to cut term sets from.
func (t *ta) newArena(size int) []uint64 {
	var a []uint64
	if n := len(t.spare.arenas); n > 0 && len(t.spare.arenas[n-1]) == size {
		a = t.spare.arenas[n-1]
		t.spare.arenas = t.spare.arenas[:n-1]
		clear(a)
	} else {
		a = make([]uint64, size)
	}
	t.arenas = append(t.arenas, a)
	return a
}

// release gives what the search used to the next one. Nothing it returns
// points into it (result clones the term sets).
func (t *ta) release() {
	t.at.free(t.met)
	sp := t.spare
	for _, b := range t.docs {
		if len(sp.docs) < spareBlocks {
			sp.docs = append(sp.docs, b[:0])
		}
	}
	for _, a := range t.arenas {
		if len(sp.arenas) < spareBlocks {
			sp.arenas = append(sp.arenas, a)
		}
	}
	sp.cs = t.cs[:0]
	t.docs, t.arenas, t.spare, t.cs = nil, nil, nil, nil
	taSpares.put(sp)
}

// keep is a small free list. Unlike a sync.Pool, what it holds outlives
// garbage collections, which come every few searches: with a pool, most
// searches allocated their table and blocks anew.
type keep[T any] struct {
	mu   sync.Mutex
	free []T
	most int // how many it holds at most
}

func (k *keep[T]) get() (T, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	var x T
	n := len(k.free)
	if n == 0 {
		return x, false
	}
	x, k.free[n-1] = k.free[n-1], x
	k.free = k.free[:n-1]
	return x, true
}

func (k *keep[T]) put(x T) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.free) < k.most {
		k.free = append(k.free, x)
	}
}
