package hnsw

import (
	"math"
	"math/rand/v2"
	"testing"
)

func plainDot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// withKernels runs f with the assembly kernels (when the CPU has them) and
// with the portable fallback forced.
func withKernels(t *testing.T, f func(t *testing.T)) {
	saved := useAVX
	defer func() { useAVX = saved }()
	for _, avx := range []bool{true, false} {
		if avx && !hasAVX2 {
			continue
		}
		useAVX = avx
		name := "generic"
		if avx {
			name = "avx2"
		}
		t.Run(name, f)
	}
}

func TestDotKernels(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 1))
		for n := 0; n <= 400; n++ {
			vs := make([][]float32, 5)
			for j := range vs {
				// Offset the slice start so unaligned loads are covered too.
				buf := make([]float32, n+1+j)
				vs[j] = buf[1+j:]
				for i := range vs[j] {
					vs[j][i] = float32(rng.NormFloat64())
				}
			}
			tol := 1e-4 * (1 + math.Sqrt(float64(n)))
			if got, want := dot(vs[0], vs[1]), plainDot(vs[0], vs[1]); math.Abs(float64(got)-want) > tol {
				t.Fatalf("dot n=%d: got %v want %v", n, got, want)
			}
			got := dot4(vs[0], vs[1], vs[2], vs[3], vs[4])
			for j := range 4 {
				if want := plainDot(vs[0], vs[j+1]); math.Abs(float64(got[j])-want) > tol {
					t.Fatalf("dot4[%d] n=%d: got %v want %v", j, n, got[j], want)
				}
			}
		}
	})
}

func BenchmarkDot384(b *testing.B) {
	x, y := make([]float32, 384), make([]float32, 384)
	for i := range x {
		x[i], y[i] = float32(i%7), float32(i%5)
	}
	var s float32
	for b.Loop() {
		s += dot(x, y)
	}
	_ = s
}
