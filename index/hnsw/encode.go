package hnsw

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/mneme-ai/mneme/internal/binfmt"
)

// magic starts an encoded index; the last byte is the format version.
const magic = "MNEMEHNSW\x01"

// The format is the in-memory arrays as-is (little-endian, 8-byte aligned)
// so Decode can use the bytes without copying. Tombstones are kept (the
// graph routes through them), so an index grows identically after a round
// trip. Layout:
//
//	magic, padding to 8
//	u64: dim, M, efConstruction, efSearch, seed, nodes, entry+1, maxLevel, upper length
//	keys [n]int64, vecs [n·dim]float32, padding to 8, dead [⌈n/64⌉]uint64,
//	levels [n]uint8, padding to 4, links0 [n·(2M+1)]uint32,
//	upper [upper length]uint32, padding to 8
func (ix *Index) WriteTo(w io.Writer) (int64, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	e := &encoder{}
	e.buf = append(e.buf, magic...)
	e.pad(8)
	c := ix.cfg
	for _, v := range []uint64{uint64(c.Dim), uint64(c.M), uint64(c.EfConstruction), uint64(c.EfSearch), c.Seed,
		uint64(len(ix.keys)), uint64(ix.entry + 1), uint64(ix.maxLevel), uint64(len(ix.upper))} {
		e.buf = binary.LittleEndian.AppendUint64(e.buf, v)
	}
	var total int64
	flush := func(b []byte) error { // large arrays go straight to w
		if err := e.write(w, &total); err != nil {
			return err
		}
		n, err := w.Write(b)
		total += int64(n)
		return err
	}
	for _, b := range [][]byte{binfmt.Bytes(ix.keys), binfmt.Bytes(ix.vecs)} {
		if err := flush(b); err != nil {
			return total, err
		}
	}
	e.pad2(total, 8)
	e.buf = append(e.buf, binfmt.Bytes(ix.dead)...)
	e.buf = append(e.buf, ix.levels...)
	e.pad2(total, 4)
	for _, b := range [][]byte{binfmt.Bytes(ix.links0), binfmt.Bytes(ix.upper)} {
		if err := flush(b); err != nil {
			return total, err
		}
	}
	e.pad2(total, 8)
	err := e.write(w, &total)
	return total, err
}

type encoder struct{ buf []byte }

func (e *encoder) pad(n int) { e.pad2(0, n) }

// pad2 pads to a multiple of n counting written bytes too.
func (e *encoder) pad2(written int64, n int) {
	for (written+int64(len(e.buf)))%int64(n) != 0 {
		e.buf = append(e.buf, 0)
	}
}

func (e *encoder) write(w io.Writer, total *int64) error {
	n, err := w.Write(e.buf)
	*total += int64(n)
	e.buf = e.buf[:0]
	return err
}

// ErrCorrupt reports encoded data that cannot be read.
var ErrCorrupt = errors.New("hnsw: corrupt index data")

// Decode returns an index over data, which it keeps using: data must stay
// unchanged while the index is in use. It may be a read-only memory map:
// the index copies an array before its first in-place write. data must be
// 8-byte aligned. Every link and count is checked, so a corrupt input is
// rejected rather than crashing later searches.
func Decode(data []byte) (*Index, error) {
	d, err := binfmt.Open(data, magic)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	var h [9]uint64
	for i := range h {
		h[i] = d.U64()
	}
	dim, m, efc, efs, n, entry1, maxLevel, nUpper := h[0], h[1], h[2], h[3], h[5], h[6], h[7], h[8]
	if d.Failed() || dim == 0 || dim > 1<<16 || m < 2 || m > 1<<10 || efc == 0 || efc > 1<<20 ||
		efs == 0 || efs > 1<<20 || maxLevel >= maxLevels || entry1 > n ||
		n > uint64(d.Rest())/(8+4*dim+1+4*(2*m+1)) || nUpper > uint64(d.Rest())/4 {
		return nil, fmt.Errorf("%w: bad header", ErrCorrupt)
	}
	ix := New(Config{Dim: int(dim), M: int(m), EfConstruction: int(efc), EfSearch: int(efs), Seed: h[4]})
	ix.owned = false
	ix.keys = binfmt.View[int64](d, int(n))
	ix.vecs = binfmt.View[float32](d, int(n*dim))
	d.Align(8)
	ix.dead = binfmt.View[uint64](d, int((n+63)/64))
	ix.levels = binfmt.View[uint8](d, int(n))
	d.Align(4)
	ix.links0 = binfmt.View[uint32](d, int(n)*(ix.m0+1))
	ix.upper = binfmt.View[uint32](d, int(nUpper))
	d.Align(8)
	if d.Failed() || d.Rest() != 0 {
		return nil, fmt.Errorf("%w: truncated or trailing data", ErrCorrupt)
	}
	if err := ix.check(uint32(n), int(entry1)-1, int(maxLevel)); err != nil {
		return nil, err
	}
	return ix, nil
}

// check validates the decoded graph and rebuilds the derived tables.
func (ix *Index) check(n uint32, entry, maxLevel int) error {
	bad := func(what string) error { return fmt.Errorf("%w: %s", ErrCorrupt, what) }
	if (n == 0) != (entry < 0) || (n == 0 && maxLevel != 0) {
		return bad("entry point")
	}
	ix.entry, ix.maxLevel = int32(entry), maxLevel
	if n%64 != 0 && ix.dead[n/64]>>(n%64) != 0 {
		return bad("tombstone bits past the end")
	}
	ix.upperOff = make([]uint32, n)
	off := uint64(0)
	for id := range n {
		l := int(ix.levels[id])
		if l > maxLevel {
			return bad("node level above the top")
		}
		ix.upperOff[id] = uint32(off)
		off += uint64(l) * uint64(ix.cfg.M+1)
		if off > uint64(len(ix.upper)) {
			return bad("upper lists overrun")
		}
	}
	if off != uint64(len(ix.upper)) || (entry >= 0 && int(ix.levels[entry]) != maxLevel) {
		return bad("levels inconsistent")
	}
	for id := range n {
		for l := int(ix.levels[id]); l >= 0; l-- {
			s := ix.slot(id, l)
			if int(s[0]) >= len(s) {
				return bad("neighbour count")
			}
			for _, v := range s[1 : 1+s[0]] {
				if v >= n || int(ix.levels[v]) < l { // slot(v, l) must exist
					return bad("neighbour out of range")
				}
			}
		}
		if ix.isDead(id) {
			ix.nDead++
		} else if _, dup := ix.byKey[ix.keys[id]]; dup {
			return bad("duplicate live key")
		} else {
			ix.byKey[ix.keys[id]] = id
		}
	}
	return nil
}
