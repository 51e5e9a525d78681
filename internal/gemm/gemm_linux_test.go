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
