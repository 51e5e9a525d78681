// Package binfmt reads the project's derived binary files (index snapshots,
// the model load cache): little-endian arrays stored as-is and 8-byte
// aligned, so a reader turns mapped bytes into slices without copying.
package binfmt

import (
	"encoding/binary"
	"errors"
	"math"
	"unsafe"
)

// LittleEndian reports whether this host stores numbers in the files'
// order; elsewhere readers refuse the zero-copy formats and rebuild.
var LittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// Aligned reports whether b starts on an 8-byte boundary, as views need.
func Aligned(b []byte) bool {
	return len(b) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8 == 0
}

// Bytes returns the memory of s as bytes, for writing arrays as-is.
func Bytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}

// Decoder reads from a byte slice. After the first failure every read
// returns zero values and Failed stays true, so a reader checks once.
type Decoder struct {
	buf    []byte
	off    int
	failed bool
}

// NewDecoder reads b from its start.
func NewDecoder(b []byte) *Decoder { return &Decoder{buf: b} }

// Fail marks the data corrupt.
func (d *Decoder) Fail() { d.failed, d.buf = true, nil }

// Failed reports whether any read failed or Fail was called.
func (d *Decoder) Failed() bool { return d.failed }

// Rest is the number of bytes not read yet.
func (d *Decoder) Rest() int { return len(d.buf) }

// Take returns the next n bytes, with capacity n.
func (d *Decoder) Take(n int) []byte {
	if d.failed || n < 0 || n > len(d.buf) {
		d.Fail()
		return nil
	}
	b := d.buf[:n:n]
	d.buf, d.off = d.buf[n:], d.off+n
	return b
}

// Align skips padding up to the next multiple of n from the start.
func (d *Decoder) Align(n int) { d.Take((n - d.off%n) % n) }

// U32 reads a little-endian uint32.
func (d *Decoder) U32() uint32 {
	if b := d.Take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

// U64 reads a little-endian uint64.
func (d *Decoder) U64() uint64 {
	if b := d.Take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// Count reads a u64 length and checks it against the bytes left, at least
// minSize bytes per element, so corrupt data cannot force a huge allocation.
func (d *Decoder) Count(minSize int) int {
	n := d.U64()
	if n > uint64(len(d.buf)/minSize) {
		d.Fail()
		return 0
	}
	return int(n)
}

// View returns the next n elements as a []T over the decoder's bytes, with
// capacity n so that an append copies instead of writing past them (the
// bytes may be a read-only memory map).
func View[T any](d *Decoder, n int) []T {
	var zero T
	if n < 0 || uint64(n) > math.MaxInt/uint64(unsafe.Sizeof(zero)) {
		d.Fail()
		return nil
	}
	b := d.Take(n * int(unsafe.Sizeof(zero)))
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// Open checks that data can be read in place (a little-endian host, 8-byte
// aligned bytes) and starts with magic, and returns a decoder positioned
// after the magic's padding to 8 bytes.
func Open(data []byte, magic string) (*Decoder, error) {
	if !LittleEndian || !Aligned(data) {
		return nil, errors.New("unaligned data or big-endian host")
	}
	d := NewDecoder(data)
	if string(d.Take(len(magic))) != magic {
		return nil, errors.New("bad magic or version")
	}
	d.Align(8)
	return d, nil
}
