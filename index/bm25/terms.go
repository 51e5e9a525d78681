package bm25

import (
	"encoding/binary"
	"sort"
	"strings"
	"unsafe"
)

// A decoded index keeps its terms in the sorted table it was loaded from
// (found by binary search); terms written since live in the terms map,
// which overrides the table. The table is offsets into the loaded bytes,
// without pointers: a process that loads a 100,000-record index to answer
// one session start reads its 30,000 terms' headers and builds nothing
// else (a slice header per term cost more than the search).
type baseTerm struct {
	name, nameLen int // the term's bytes in Index.raw
	docs, n       int // its n postings: n uint32 doc numbers at docs, then n float32 frequencies
}

// loadTerms reads the term table of data from off: nterms entries, each
// a u32 length and the term's bytes, a u64 count n, padding to 4, n doc
// numbers and n frequencies; terms strictly ascending, none empty of
// postings, and nothing after the last. false: corrupt.
func (ix *Index) loadTerms(data []byte, off, nterms int) bool {
	ix.raw = data
	base, prev := make([]baseTerm, 0, nterms), "" // a local slice: no write barrier a term
	defer func() { ix.base = base }()
	for range nterms {
		if off > len(data)-4 {
			return false
		}
		l := int(binary.LittleEndian.Uint32(data[off:]))
		if off += 4; l > len(data)-off-8 {
			return false
		}
		at := off
		off += l
		n := binary.LittleEndian.Uint64(data[off:])
		off = (off + 8 + 3) &^ 3 // data starts 8-aligned (binfmt.Open)
		if n == 0 || off > len(data) || n > uint64(len(data)-off)/8 {
			return false
		}
		b := baseTerm{name: at, nameLen: l, docs: off, n: int(n)}
		name := ix.nameOf(b)
		if len(base) > 0 && prev >= name {
			return false
		}
		base, prev = append(base, b), name
		off += 8 * b.n
	}
	return off == len(data)
}

// nameOf is b's term, over the loaded bytes.
func (ix *Index) nameOf(b baseTerm) string {
	if b.nameLen == 0 {
		return ""
	}
	return unsafe.String(&ix.raw[b.name], b.nameLen)
}

// plistOf is b's postings, over the loaded bytes (capacity equal to
// length: an append copies them off the bytes, which may be a read-only
// memory map).
func (ix *Index) plistOf(b baseTerm) *plist {
	docs := unsafe.Slice((*uint32)(unsafe.Pointer(&ix.raw[b.docs])), b.n)
	tfs := unsafe.Slice((*float32)(unsafe.Pointer(&ix.raw[b.docs+4*b.n])), b.n)
	return &plist{docs: docs[:b.n:b.n], tfs: tfs[:b.n:b.n]}
}

// postings returns the posting list of term t, or nil.
func (ix *Index) postings(t string) *plist {
	if p, ok := ix.terms[t]; ok {
		return p
	}
	i := sort.Search(len(ix.base), func(i int) bool { return ix.nameOf(ix.base[i]) >= t })
	if i < len(ix.base) && ix.nameOf(ix.base[i]) == t {
		return ix.plistOf(ix.base[i])
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
		if name := ix.nameOf(b); ix.terms[name] == nil {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, t := range names {
		fn(t, ix.postings(t))
	}
}
