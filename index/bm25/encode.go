package bm25

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/mneme-ai/mneme/internal/binfmt"
)

// magic starts an encoded index; the last byte is the format version.
const magic = "MNEMEBM25\x06"

// magic5 is version 5: the same but the term directory, which Decode
// builds by walking the table (an upgraded home's hooks keep working
// until a process saves the index again).
const magic5 = "MNEMEBM25\x05"

// The format is built for loading without decoding: after a small header and
// the interned strings, every array is stored as-is (little-endian, 8-byte
// aligned), so Decode turns the bytes into slices without copying. Layout:
//
//	magic, padding to 8
//	u64 counts: strings, docs, tag arena, meta arena, terms
//	strings: u32 length + bytes each, padding to 8
//	keys [docs]int64, lens [docs]float32, padding, attrs [docs]attrs,
//	tag arena [tags]uint32, meta arena [metas]uint32, padding
//	terms: u32 length + bytes, u64 postings count n, padding to 4,
//	       docs [n]uint32, tfs [n]float32; padding to 8
//	directory: [terms]u64, each term's offset, in term order
const attrsSize = 72

func init() {
	if unsafe.Sizeof(attrs{}) != attrsSize {
		panic("bm25: attrs layout changed; update the encoding")
	}
}

// WriteTo writes the index (dead documents dropped). The caller adds
// framing: checksum, generation.
func (ix *Index) WriteTo(w io.Writer) (int64, error) {
	ix.mu.Lock() // compaction mutates
	defer ix.mu.Unlock()
	if ix.live < len(ix.keys) {
		ix.compact()
	}
	e := &encoder{}
	e.buf = append(e.buf, magic...)
	e.pad(8)
	nterms := 0
	ix.eachTerm(func(string, *plist) { nterms++ })
	for _, n := range []int{len(ix.strs.strs), len(ix.keys), ix.tags.len(), ix.metas.len(), nterms} {
		e.u64(uint64(n))
	}
	for _, s := range ix.strs.strs {
		e.str(s)
	}
	e.pad(8)
	e.raw(binfmt.Bytes(ix.keys))
	e.raw(binfmt.Bytes(ix.lens))
	e.pad(8)
	for _, b := range [][]byte{binfmt.Bytes(ix.attrs.base), binfmt.Bytes(ix.attrs.more), binfmt.Bytes(ix.tags.base),
		binfmt.Bytes(ix.tags.more), binfmt.Bytes(ix.metas.base), binfmt.Bytes(ix.metas.more)} {
		e.raw(b)
	}
	e.pad(8)
	var dir []uint64
	ix.eachTerm(func(t string, p *plist) { // sorted: Decode binary-searches the directory
		dir = append(dir, uint64(len(e.buf)))
		e.str(t)
		e.u64(uint64(len(p.docs)))
		e.pad(4)
		e.raw(binfmt.Bytes(p.docs))
		e.raw(binfmt.Bytes(p.tfs))
	})
	e.pad(8)
	e.raw(binfmt.Bytes(dir))
	n, err := w.Write(e.buf)
	return int64(n), err
}

type encoder struct{ buf []byte }

func (e *encoder) raw(b []byte) { e.buf = append(e.buf, b...) }
func (e *encoder) u32(v uint32) { e.buf = binary.LittleEndian.AppendUint32(e.buf, v) }
func (e *encoder) u64(v uint64) { e.buf = binary.LittleEndian.AppendUint64(e.buf, v) }
func (e *encoder) str(s string) { e.u32(uint32(len(s))); e.buf = append(e.buf, s...) }
func (e *encoder) pad(n int) {
	for len(e.buf)%n != 0 {
		e.buf = append(e.buf, 0)
	}
}

// ErrCorrupt reports an encoded index that cannot be read.
var ErrCorrupt = errors.New("bm25: corrupt index data")

// Decode returns an index over data, which it keeps using: data must stay
// unchanged while the index is in use (it may be a read-only memory map;
// the index never writes to it). data must be 8-byte aligned.
func Decode(data []byte) (*Index, error) {
	d, err := binfmt.Open(data, magic)
	v5 := false
	if err != nil { // version 5, without the term directory: homes saved before it
		d, v5 = binfmt.NewDecoder(nil), true
		if d5, err5 := binfmt.Open(data, magic5); err5 == nil {
			d, err = d5, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	nstr, ndocs, ntags, nmetas, nterms := d.Count(4), d.Count(8+4+attrsSize), d.Count(4), d.Count(4), d.Count(8)
	ix := New()
	for range nstr {
		ix.strs.id(string(d.Take(int(d.U32()))))
	}
	d.Align(8)
	ix.keys = binfmt.View[int64](d, ndocs)
	ix.lens = binfmt.View[float32](d, ndocs)
	d.Align(8)
	ix.attrs.load(binfmt.View[attrs](d, ndocs))
	ix.tags.load(binfmt.View[uint32](d, ntags))
	ix.metas.load(binfmt.View[uint32](d, nmetas))
	d.Align(8)
	if d.Failed() {
		return nil, fmt.Errorf("%w: truncated document section", ErrCorrupt)
	}
	ix.alive = make([]bool, ndocs)
	for n := range ndocs {
		a := &ix.attrs.base[n]
		for _, v := range []uint32{a.project, a.typ, a.kind, a.status, a.sens, a.key, a.session, a.run} {
			if v >= uint32(nstr) {
				d.Fail()
			}
		}
		if uint64(a.tagOff)+uint64(a.tagLen) > uint64(ntags) || uint64(a.metaOff)+uint64(a.metaLen) > uint64(nmetas) {
			d.Fail()
		}
		ix.alive[n] = true
		ix.totalLen += float64(ix.lens[n])
		ix.maxKey = max(ix.maxKey, ix.keys[n])
		if ix.sorted == n && (n == 0 || ix.keys[n] > ix.keys[n-1]) {
			ix.sorted++
		}
	}
	for _, arena := range [][]uint32{ix.tags.base, ix.metas.base} {
		for _, t := range arena {
			if t >= uint32(nstr) {
				d.Fail()
			}
		}
	}
	ix.byKey = nil // built on the first mutation; searches do not need it
	// Posting doc numbers are not checked here (that would read every
	// page): Search bounds-checks them as it reads.
	load := ix.loadDir
	if v5 {
		load = ix.walkTable
	}
	if !load(data, len(data)-d.Rest(), nterms) {
		return nil, fmt.Errorf("%w: truncated, inconsistent or trailing data", ErrCorrupt)
	}
	ix.live = ndocs
	return ix, nil
}
