package bm25

import (
	"sort"
	"strings"
)

// A decoded index keeps its terms in the sorted table it was loaded from
// (found by binary search, nothing built at load); terms written since live
// in the terms map, which overrides the table.
type baseTerm struct {
	name string
	p    plist
}

// postings returns the posting list of term t, or nil.
func (ix *Index) postings(t string) *plist {
	if p, ok := ix.terms[t]; ok {
		return p
	}
	i := sort.Search(len(ix.base), func(i int) bool { return ix.base[i].name >= t })
	if i < len(ix.base) && ix.base[i].name == t {
		return &ix.base[i].p
	}
	return nil
}

// writable returns t's posting list for appending, moving it from the table
// to the map first (its slices have capacity equal to length, so the first
// append copies them off the source bytes).
func (ix *Index) writable(t string) *plist {
	if p, ok := ix.terms[t]; ok {
		return p
	}
	p := &plist{}
	if b := ix.postings(t); b != nil {
		*p = *b
	}
	ix.terms[strings.Clone(t)] = p
	return p
}

// eachTerm calls fn for every term in sorted order.
func (ix *Index) eachTerm(fn func(t string, p *plist)) {
	names := make([]string, 0, len(ix.terms)+len(ix.base))
	for t := range ix.terms {
		names = append(names, t)
	}
	for _, b := range ix.base {
		if _, ok := ix.terms[b.name]; !ok {
			names = append(names, b.name)
		}
	}
	sort.Strings(names)
	for _, t := range names {
		fn(t, ix.postings(t))
	}
}
