package bm25

import (
	"slices"
	"sort"
)

// The documents in order of event time let a filter with time bounds (a
// recall's search of the day a question names, since and until) read the
// documents of its span instead of every document: the order is built on
// the first such Select, kept as documents are added (an insertion), and
// dropped by a compaction, which renumbers the documents.

// eventOrder returns the documents, dead ones too, by event time (ties by
// number), building it if need be. ix.mu is held for reading: no write
// runs meanwhile, and evMu keeps two readers from building it at once.
func (ix *Index) eventOrder() []uint32 {
	if ev := ix.byEvent.Load(); ev != nil {
		return *ev
	}
	ix.evMu.Lock()
	defer ix.evMu.Unlock()
	if ev := ix.byEvent.Load(); ev != nil {
		return *ev
	}
	docs := make([]uint32, len(ix.keys))
	for n := range docs {
		docs[n] = uint32(n)
	}
	slices.SortStableFunc(docs, func(a, b uint32) int {
		ea, eb := ix.attrs.at(int(a)).event, ix.attrs.at(int(b)).event
		switch {
		case ea < eb:
			return -1
		case ea > eb:
			return 1
		}
		return 0
	})
	ix.byEvent.Store(&docs)
	return docs
}

// addEvent places document n, the newest, in the order if it is built;
// ix.mu is held for writing.
func (ix *Index) addEvent(n uint32) {
	ev := ix.byEvent.Load()
	if ev == nil {
		return
	}
	e := ix.attrs.at(int(n)).event
	docs := *ev
	i := sort.Search(len(docs), func(j int) bool { return ix.attrs.at(int(docs[j])).event > e })
	docs = slices.Insert(docs, i, n)
	ix.byEvent.Store(&docs)
}

// spanDocs returns the documents whose event time may pass f's bounds
// (inclusive; 0: none), in event order; all documents when f has none.
func (ix *Index) spanDocs(f Filter) ([]uint32, bool) {
	if f.Since == 0 && f.Until == 0 {
		return nil, false
	}
	docs := ix.eventOrder()
	event := func(j int) int64 { return ix.attrs.at(int(docs[j])).event }
	lo, hi := 0, len(docs)
	if f.Since != 0 {
		lo = sort.Search(len(docs), func(j int) bool { return event(j) >= f.Since })
	}
	if f.Until != 0 {
		hi = sort.Search(len(docs), func(j int) bool { return event(j) > f.Until })
	}
	return docs[lo:max(lo, hi)], true
}
