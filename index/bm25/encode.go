package bm25

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unsafe"
)

// magic starts an encoded index; the last byte is the format version.
const magic = "MNEMEBM25\x03"

// The format is built for loading without decoding: after a small header and
// the interned strings, every array is stored as-is (little-endian, 8-byte
// aligned), so Decode turns the bytes into slices without copying. Layout:
//
//	magic, padding to 8
//	u64 counts: strings, docs, tag arena, terms
//	strings: u32 length + bytes each, padding to 8
//	keys [docs]int64, lens [docs]float32, padding, attrs [docs]attrs,
//	tag arena [tags]uint32, padding
//	terms: u32 length + bytes, u64 postings count n, padding to 4,
//	       docs [n]uint32, tfs [n]float32
const attrsSize = 56

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
	for _, n := range []int{len(ix.strs.strs), len(ix.keys), len(ix.tags), nterms} {
		e.u64(uint64(n))
	}
	for _, s := range ix.strs.strs {
		e.str(s)
	}
	e.pad(8)
	e.raw(sliceBytes(ix.keys))
	e.raw(sliceBytes(ix.lens))
	e.pad(8)
	e.raw(sliceBytes(ix.attrs))
	e.raw(sliceBytes(ix.tags))
	e.pad(8)
	ix.eachTerm(func(t string, p *plist) { // sorted: Decode binary-searches the table
		e.str(t)
		e.u64(uint64(len(p.docs)))
		e.pad(4)
		e.raw(sliceBytes(p.docs))
		e.raw(sliceBytes(p.tfs))
	})
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

// littleEndian: the arrays are stored in the host's order only on
// little-endian hosts; elsewhere Decode refuses and callers rebuild.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// Decode returns an index over data, which it keeps using: data must stay
// unchanged while the index is in use (it may be a read-only memory map;
// the index never writes to it). data must be 8-byte aligned.
func Decode(data []byte) (*Index, error) {
	if !littleEndian || (len(data) > 0 && uintptr(unsafe.Pointer(&data[0]))%8 != 0) {
		return nil, fmt.Errorf("%w: unaligned data or big-endian host", ErrCorrupt)
	}
	d := &decoder{buf: data}
	if string(d.take(len(magic))) != magic {
		return nil, fmt.Errorf("%w: bad magic or version", ErrCorrupt)
	}
	d.align(8)
	nstr, ndocs, ntags, nterms := d.count(4), d.count(68), d.count(4), d.count(8)
	ix := New()
	for range nstr {
		ix.strs.id(string(d.take(int(d.u32()))))
	}
	d.align(8)
	ix.keys = view[int64](d, ndocs)
	ix.lens = view[float32](d, ndocs)
	d.align(8)
	ix.attrs = view[attrs](d, ndocs)
	ix.tags = view[uint32](d, ntags)
	d.align(8)
	if d.err != nil {
		return nil, fmt.Errorf("%w: truncated document section", ErrCorrupt)
	}
	ix.alive = make([]bool, ndocs)
	for n := range ndocs {
		a := &ix.attrs[n]
		for _, v := range []uint32{a.project, a.typ, a.kind, a.status, a.sens, a.key} {
			if v >= uint32(nstr) {
				d.fail()
			}
		}
		if uint64(a.tagOff)+uint64(a.tagLen) > uint64(ntags) {
			d.fail()
		}
		ix.alive[n] = true
		ix.totalLen += float64(ix.lens[n])
	}
	for _, t := range ix.tags {
		if t >= uint32(nstr) {
			d.fail()
		}
	}
	ix.byKey = nil // built on the first mutation; searches do not need it
	// Posting doc numbers are not checked here (that would read every
	// page): Search bounds-checks them as it reads.
	ix.base = make([]baseTerm, 0, nterms)
	for range nterms {
		b := d.take(int(d.u32()))
		term := unsafe.String(unsafe.SliceData(b), len(b))
		n := d.count(8)
		d.align(4)
		docs, tfs := view[uint32](d, n), view[float32](d, n)
		if d.err != nil || n == 0 || (len(ix.base) > 0 && ix.base[len(ix.base)-1].name >= term) {
			d.fail()
			break
		}
		ix.base = append(ix.base, baseTerm{name: term, p: plist{docs: docs, tfs: tfs}})
	}
	if d.err != nil || len(d.buf) != 0 {
		return nil, fmt.Errorf("%w: truncated, inconsistent or trailing data", ErrCorrupt)
	}
	ix.live = ndocs
	return ix, nil
}

// sliceBytes returns the memory of s as bytes.
func sliceBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}

// view returns the next n elements of d as a []T over d's bytes, with
// capacity n so that an append copies instead of writing past them.
func view[T any](d *decoder, n int) []T {
	var zero T
	b := d.take(n * int(unsafe.Sizeof(zero)))
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// decoder reads from buf; after the first error every read returns zero
// values and err stays set.
type decoder struct {
	buf []byte
	off int
	err error
}

func (d *decoder) fail() {
	d.err = ErrCorrupt
	d.buf = nil
}

func (d *decoder) take(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.buf) {
		d.fail()
		return nil
	}
	b := d.buf[:n:n]
	d.buf, d.off = d.buf[n:], d.off+n
	return b
}

func (d *decoder) align(n int) { d.take((n - d.off%n) % n) }

func (d *decoder) u32() uint32 {
	if b := d.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

// count reads a u64 length and checks it against the bytes left, at least
// minSize bytes per element, so corrupt data cannot force a huge allocation.
func (d *decoder) count(minSize int) int {
	b := d.take(8)
	if b == nil {
		return 0
	}
	n := binary.LittleEndian.Uint64(b)
	if n > uint64(len(d.buf)/minSize) {
		d.fail()
		return 0
	}
	return int(n)
}
