package gemm

import (
	"syscall"
	"testing"
	"unsafe"

	"github.com/mneme-ai/mneme/internal/skips"
)

// guarded returns a slice of n floats that ends exactly at an inaccessible
// page, so any read past its end faults.
func guarded(t *testing.T, n int) []float32 {
	page := syscall.Getpagesize()
	size := (n*4+page-1)/page*page + page
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		skips.Skip(t, "", "mmap: "+err.Error())
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[size-page:], syscall.PROT_NONE); err != nil {
		skips.Skip(t, "", "mprotect: "+err.Error())
	}
	end := size - page
	return unsafe.Slice((*float32)(unsafe.Pointer(&mem[end-n*4])), n)
}

// TestNoOverRead places a, b and c against guard pages; ragged k, n and m
// exercise the masked loads, the padded copy of b and the scratch rows.
func TestNoOverRead(t *testing.T) {
	withKernel(t, func(t *testing.T) {
		for _, s := range [][3]int{{1, 1, 1}, {4, 5, 7}, {7, 6, 13}, {37, 37, 64}, {38, 61, 384}, {5, 3, 1539}} {
			m, n, k := s[0], s[1], s[2]
			a, b, c := guarded(t, m*k), guarded(t, n*k), guarded(t, m*n)
			for i := range a {
				a[i] = float32(i%7) - 3
			}
			for i := range b {
				b[i] = float32(i%5) - 2
			}
			MatMulT(c, a, b, m, n, k)
			want := naive(a, b, m, n, k)
			for i, w := range want {
				if float64(c[i]) != w { // small integers: exact
					t.Fatalf("m=%d n=%d k=%d: c[%d] = %v, want %v", m, n, k, i, c[i], w)
				}
			}
		}
	})
}

// TestMulPanelsNoOverRead puts a, the panels, the bias and c against guard
// pages (ragged rows, columns and depth).
func TestMulPanelsNoOverRead(t *testing.T) {
	withKernel(t, func(t *testing.T) {
		for _, s := range [][3]int{{1, 1, 1}, {4, 5, 7}, {7, 17, 13}, {13, 40, 384}, {5, 3, 1539}} {
			m, n, k := s[0], s[1], s[2]
			a, w, bias, c := guarded(t, m*k), make([]float32, n*k), guarded(t, n), guarded(t, m*n)
			for i := range a {
				a[i] = float32(i%7) - 3
			}
			for i := range w {
				w[i] = float32(i%5) - 2
			}
			p := Pack(w, n, k)
			data := guarded(t, len(p.Data))
			copy(data, p.Data)
			p.Data = data
			MulPanels(c, n, a, k, p, m, bias, AddBias)
			if h := PackHalf(w, n, k); h.Half != nil {
				half := unsafe.Slice((*uint16)(unsafe.Pointer(&guarded(t, (len(h.Half)+1)/2)[0])), len(h.Half)+len(h.Half)%2)
				half = half[len(half)-len(h.Half):] // ends at the guard page
				copy(half, h.Half)
				h.Half = half
				c2 := guarded(t, m*n)
				MulPanels(c2, n, a, k, h, m, bias, AddBias)
				for i := range c2 {
					if c2[i] != c[i] {
						t.Fatalf("m=%d n=%d k=%d: fp16 panels c[%d] = %v, fp32 panels %v", m, n, k, i, c2[i], c[i])
					}
				}
			}
			want := naive(a, w, m, n, k)
			for i, v := range want {
				if float64(c[i]) != v { // small integers and a zero bias: exact
					t.Fatalf("m=%d n=%d k=%d: c[%d] = %v, want %v", m, n, k, i, c[i], v)
				}
			}
		}
	})
}

// TestQMulNoOverRead puts a, the bias and c against guard pages (ragged
// rows and columns: the bias and scales are read 16 at a time).
func TestQMulNoOverRead(t *testing.T) {
	withKernel(t, func(t *testing.T) {
		for _, s := range [][3]int{{1, 1, 16}, {7, 17, 32}, {13, 40, 64}} {
			m, n, k := s[0], s[1], s[2]
			a, bias, c := guarded(t, m*k), guarded(t, n), guarded(t, m*n)
			w := make([]float32, n*k)
			for i := range a {
				a[i] = float32(i%7) - 3
			}
			for i := range w {
				w[i] = float32(i%5) - 2
			}
			QMul(c, a, Quantize(w, n, k), m, bias, AddBias|Accumulate)
		}
	})
}
