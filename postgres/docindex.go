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

var docTables sync.Pool

func newDocIndex() *docIndex {
	x := &docIndex{}
	if t, ok := docTables.Get().(*[]int32); ok {
		x.table = *t
	}
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
	docTables.Put(&x.table)
	x.table = nil
}
