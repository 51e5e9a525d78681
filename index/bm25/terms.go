package bm25

import (
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"unsafe"
)

// A decoded index keeps its terms in the table it was loaded from, found
// by binary search in the table's directory (an offset a term, in term
// order); terms written since live in the terms map, which overrides the
// table. Nothing of the table is read at load: a process that loads a
// 100,000-record index to answer one session start reads the directory
// entries its binary searches touch and the terms it looks up (walking
// 30,000 terms' headers cost more than the search).
type baseTerm struct {
	name, nameLen int // the term's bytes in Index.raw
	docs, n       int // its n postings: n uint32 doc numbers at docs, then n float32 frequencies
}

// loadDir takes the term table of data, from off: nterms entries (each a
// u32 length and the term's bytes, a u64 count n, padding to 4, n doc
// numbers and n frequencies), padding to 8, then the directory, nterms
// u64 offsets, ending data. An entry is checked when it is read (see
// termAt); false: the sections do not fit.
func (ix *Index) loadDir(data []byte, off, nterms int) bool {
	ix.raw, ix.dir, ix.tableEnd = data, nil, off
	end := len(data) - 8*nterms
	if nterms == 0 || end < off || end%8 != 0 {
		return nterms == 0 && off == len(data)
	}
	ix.dir = unsafe.Slice((*uint64)(unsafe.Pointer(&data[end])), nterms)
	ix.tableEnd = end
	first, ok1 := ix.termAt(0)
	last, ok2 := ix.termAt(nterms - 1)
	return ok1 && ok2 && first.name-4 == off && (last.docs+8*last.n+7)&^7 == end
}

// walkTable is loadDir for a table without a directory (version 5): it
// builds one by walking the entries, which must ascend strictly and end
// data.
func (ix *Index) walkTable(data []byte, off, nterms int) bool {
	ix.raw, ix.tableEnd = data, len(data)
	ix.dir = make([]uint64, 0, nterms)
	prev := ""
	for i := range nterms {
		ix.dir = append(ix.dir, uint64(off))
		b, ok := ix.termAt(i)
		if !ok || i > 0 && ix.nameOf(b) <= prev {
			return false
		}
		prev, off = ix.nameOf(b), b.docs+8*b.n
	}
	return off == len(data)
}

// termAt is directory entry i, bounds-checked against the table: false
// when it points outside it (a corrupt file).
func (ix *Index) termAt(i int) (baseTerm, bool) {
	off, end := ix.dir[i], uint64(ix.tableEnd)
	if off > end-4 || end < 4 {
		return baseTerm{}, false
	}
	l := uint64(binary.LittleEndian.Uint32(ix.raw[off:]))
	if off+12 > end || l > end-off-12 { // the length, the term, its count
		return baseTerm{}, false
	}
	at := off + 4
	n := binary.LittleEndian.Uint64(ix.raw[at+l:])
	docs := (at + l + 8 + 3) &^ 3 // the table starts 8-aligned (binfmt.Open)
	if n == 0 || docs > end || n > (end-docs)/8 {
		return baseTerm{}, false
	}
	return baseTerm{name: int(at), nameLen: int(l), docs: int(docs), n: int(n)}, true
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
	i := sort.Search(len(ix.dir), func(i int) bool { return ix.dirName(i) >= t })
	if i < len(ix.dir) {
		if b, ok := ix.termAt(i); ok && ix.nameOf(b) == t {
			return ix.plistOf(b)
		}
	}
	return nil
}

// dirName is the term of directory entry i, "" when it is corrupt.
func (ix *Index) dirName(i int) string {
	b, _ := ix.termAt(i)
	return ix.nameOf(b)
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
	names := make([]string, 0, len(ix.terms)+len(ix.dir))
	for t := range ix.terms {
		names = append(names, t)
	}
	for i := range ix.dir {
		if b, ok := ix.termAt(i); ok {
			if name := ix.nameOf(b); ix.terms[name] == nil {
				names = append(names, name)
			}
		}
	}
	sort.Strings(names)
	names = slices.Compact(names) // a corrupt directory may repeat a term
	for _, t := range names {
		if p := ix.postings(t); p != nil {
			fn(t, p)
		}
	}
}
