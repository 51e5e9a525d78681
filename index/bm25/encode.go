package bm25

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
)

// magic starts an encoded index; the last byte is the format version.
const magic = "MNEMEBM25\x02"

// WriteTo writes the index in a compact binary form (dead documents
// dropped). The caller adds framing: checksum, generation.
func (ix *Index) WriteTo(w io.Writer) (int64, error) {
	ix.mu.Lock() // compaction mutates
	defer ix.mu.Unlock()
	if ix.live < len(ix.keys) {
		ix.compact()
	}
	e := &encoder{}
	e.bytes([]byte(magic))
	e.u32(uint32(len(ix.strs.strs)))
	for _, s := range ix.strs.strs {
		e.str(s)
	}
	e.u32(uint32(len(ix.keys)))
	for n, key := range ix.keys {
		a := ix.attrs[n]
		e.u64(uint64(key))
		e.u32(math.Float32bits(ix.lens[n]))
		for _, v := range []uint32{a.project, a.typ, a.kind, a.status, a.sens, a.key, a.tagLen} {
			e.u32(v)
		}
		for _, t := range ix.docTags(uint32(n)) {
			e.u32(t)
		}
		for _, v := range []int64{a.expires, a.event, a.created} {
			e.u64(uint64(v))
		}
	}
	names := make([]string, 0, len(ix.terms))
	for t := range ix.terms {
		names = append(names, t)
	}
	sort.Strings(names) // deterministic output
	e.u32(uint32(len(names)))
	for _, t := range names {
		p := ix.terms[t]
		e.str(t)
		e.u32(uint32(len(p.docs)))
		for _, d := range p.docs {
			e.u32(d)
		}
		for _, f := range p.tfs {
			e.u32(math.Float32bits(f))
		}
	}
	n, err := w.Write(e.buf)
	return int64(n), err
}

type encoder struct{ buf []byte }

func (e *encoder) bytes(b []byte) { e.buf = append(e.buf, b...) }
func (e *encoder) u32(v uint32)   { e.buf = binary.LittleEndian.AppendUint32(e.buf, v) }
func (e *encoder) u64(v uint64)   { e.buf = binary.LittleEndian.AppendUint64(e.buf, v) }
func (e *encoder) str(s string)   { e.u32(uint32(len(s))); e.buf = append(e.buf, s...) }

// ErrCorrupt reports an encoded index that cannot be read.
var ErrCorrupt = errors.New("bm25: corrupt index data")

// Decode reads an index written by WriteTo.
func Decode(data []byte) (ix *Index, err error) {
	d := &decoder{buf: data}
	if string(d.take(len(magic))) != magic {
		return nil, fmt.Errorf("%w: bad magic or version", ErrCorrupt)
	}
	ix = New()
	for range d.count(4) {
		ix.strs.id(d.str())
	}
	nstr := uint32(len(ix.strs.strs))
	ndocs := d.count(48)
	for i := range ndocs {
		key, length := int64(d.u64()), math.Float32frombits(d.u32())
		var a attrs
		a.project, a.typ, a.kind, a.status, a.sens, a.key = d.u32(), d.u32(), d.u32(), d.u32(), d.u32(), d.u32()
		a.tagOff, a.tagLen = uint32(len(ix.tags)), uint32(d.count(4))
		for range a.tagLen {
			ix.tags = append(ix.tags, d.u32())
		}
		a.expires, a.event, a.created = int64(d.u64()), int64(d.u64()), int64(d.u64())
		for _, v := range append([]uint32{a.project, a.typ, a.kind, a.status, a.sens, a.key}, ix.tags[a.tagOff:]...) {
			if v >= nstr {
				d.fail()
			}
		}
		if _, dup := ix.byKey[key]; dup {
			d.fail()
		}
		ix.byKey[key] = uint32(i)
		ix.totalLen += float64(length)
		ix.appendDoc(key, length, a)
	}
	ix.live = len(ix.keys)
	for range d.count(8) {
		t := d.str()
		n := d.count(8)
		p := &plist{docs: make([]uint32, n), tfs: make([]float32, n)}
		for i := range p.docs {
			if p.docs[i] = d.u32(); p.docs[i] >= uint32(len(ix.keys)) {
				d.fail()
			}
		}
		for i := range p.tfs {
			p.tfs[i] = math.Float32frombits(d.u32())
		}
		ix.terms[t] = p
	}
	if d.err != nil || len(d.buf) != 0 {
		return nil, fmt.Errorf("%w: truncated or trailing data", ErrCorrupt)
	}
	return ix, nil
}

// decoder reads little-endian values; after the first error every read
// returns zero values and err stays set.
type decoder struct {
	buf []byte
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
	b := d.buf[:n]
	d.buf = d.buf[n:]
	return b
}

func (d *decoder) u32() uint32 {
	if len(d.buf) < 4 {
		d.fail()
		return 0
	}
	return binary.LittleEndian.Uint32(d.take(4))
}

func (d *decoder) u64() uint64 {
	if len(d.buf) < 8 {
		d.fail()
		return 0
	}
	return binary.LittleEndian.Uint64(d.take(8))
}

func (d *decoder) str() string { return string(d.take(int(d.u32()))) }

// count reads a length and checks it against the bytes left, at least
// minSize bytes per element, so corrupt data cannot force a huge allocation.
func (d *decoder) count(minSize int) int {
	n := int(d.u32())
	if n > len(d.buf)/minSize {
		d.fail()
		return 0
	}
	return n
}
