package bm25

import "slices"

// compileMeta interns a filter's meta conditions: each the ids of the
// values that satisfy it. ok is false when no document has any value of
// some condition, so nothing can match.
func (ix *Index) compileMeta(conds [][]string) (out [][]uint32, ok bool) {
	for _, c := range conds {
		var ids []uint32
		for _, v := range c {
			if id, ok := ix.strs.ids[v]; ok {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			return nil, false
		}
		out = append(out, ids)
	}
	return out, true
}

// hasMeta reports whether document n satisfies every condition.
func (ix *Index) hasMeta(n uint32, conds [][]uint32) bool {
	a := ix.attrs.at(int(n))
	have := ix.metas.span(a.metaOff, a.metaLen)
	for _, c := range conds {
		if !slices.ContainsFunc(have, func(v uint32) bool { return slices.Contains(c, v) }) {
			return false
		}
	}
	return true
}
