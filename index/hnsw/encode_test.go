package hnsw

import (
	"bytes"
	"errors"
	"slices"
	"testing"
	"unsafe"
)

// aligned copies b into 8-byte-aligned memory, as a memory map would be.
func aligned(b []byte) []byte {
	words := make([]uint64, (len(b)+7)/8)
	out := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(words)*8)[:len(b)]
	copy(out, b)
	return out
}

func encode(t testing.TB, ix *Index) []byte {
	var buf bytes.Buffer
	n, err := ix.WriteTo(&buf)
	if err != nil || n != int64(buf.Len()) {
		t.Fatalf("WriteTo: %d, %v (wrote %d)", n, err, buf.Len())
	}
	return aligned(buf.Bytes())
}

func TestRoundTrip(t *testing.T) {
	g := newGen(40, 20)
	vecs := g.points(2500, 20)
	ix := build(t, Config{Dim: 40, Seed: 9}, vecs, true)
	for i := int64(0); i < 300; i += 3 {
		ix.Delete(i)
	}
	data := encode(t, ix)
	frozen := slices.Clone(data)
	dx, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if dx.Len() != ix.Len() {
		t.Fatalf("Len %d want %d", dx.Len(), ix.Len())
	}
	qs := g.points(50, 21)
	same := func(a, b *Index) {
		t.Helper()
		for _, q := range qs {
			for _, acc := range []func(int64) bool{nil, func(k int64) bool { return k%4 == 1 }} {
				if x, y := a.Search(q, 10, acc), b.Search(q, 10, acc); !slices.Equal(x, y) {
					t.Fatalf("search differs:\n%v\n%v", x, y)
				}
			}
		}
	}
	same(ix, dx)
	// Mutating the decoded index must not write into data, and must grow
	// the graph exactly as the original does.
	more := g.points(200, 22)
	for i, v := range more {
		ix.Add(int64(10000+i), v)
		dx.Add(int64(10000+i), v)
	}
	ix.Delete(5)
	dx.Delete(5)
	ix.Add(7, more[0])
	dx.Add(7, more[0])
	if !bytes.Equal(data, frozen) {
		t.Fatal("Decode's input was modified")
	}
	same(ix, dx)
	if !bytes.Equal(encode(t, ix), encode(t, dx)) {
		t.Fatal("encodings differ after identical mutations")
	}
	// Empty index round trip.
	ex, err := Decode(encode(t, New(Config{Dim: 3})))
	if err != nil || ex.Len() != 0 || ex.Search([]float32{1, 0, 0}, 1, nil) != nil {
		t.Fatalf("empty: %v", err)
	}
}

func TestDecodeRejects(t *testing.T) {
	g := newGen(16, 5)
	ix := build(t, Config{Dim: 16, M: 4}, g.points(300, 30), false)
	data := encode(t, ix)
	for n := range len(data) {
		if _, err := Decode(aligned(data[:n])); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d: %v", n, err)
		}
	}
	if _, err := Decode(aligned(append(slices.Clone(data), make([]byte, 8)...))); err == nil {
		t.Fatal("trailing data accepted")
	}
	// Flip bytes one at a time: Decode may accept (a changed vector is
	// still an index) but must not panic, and accepted indexes must search.
	q := g.points(1, 31)[0]
	for i := range len(data) {
		b := slices.Clone(data)
		b[i] ^= 0xa5
		if dx, err := Decode(aligned(b)); err == nil {
			dx.Search(q, 5, nil)
			dx.Search(q, 5, func(k int64) bool { return k%2 == 0 })
		}
	}
	if _, err := Decode(aligned([]byte("garbage garbage garbage"))); err == nil {
		t.Fatal("garbage accepted")
	}
}

func FuzzDecode(f *testing.F) {
	g := newGen(8, 3)
	ix := build(f, Config{Dim: 8, M: 2}, g.points(40, 40), false)
	ix.Delete(3)
	var buf bytes.Buffer
	ix.WriteTo(&buf)
	f.Add(buf.Bytes())
	q := g.points(1, 41)[0]
	f.Fuzz(func(t *testing.T, data []byte) {
		dx, err := Decode(aligned(data))
		if err != nil {
			return
		}
		dx.Search(q, 3, nil)
		dx.Search(q, 3, func(k int64) bool { return k%2 == 0 })
		dx.Add(1, q)
		dx.Delete(2)
		dx.Search(q, 3, nil)
	})
}
