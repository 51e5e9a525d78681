package gemm

import (
	"github.com/mneme-ai/mneme/internal/eval"
	"math"
	"math/rand/v2"
	"testing"
)

// TestQMatMulT: both paths give bit-identical results (integer sums, the
// same order of scaling), within quantisation error of the float product,
// for ragged row counts, single tiles and parallel sizes.
func TestQMatMulT(t *testing.T) {
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	r := rand.New(rand.NewPCG(7, 8))
	for _, s := range [][3]int{{1, 3, 16}, {2, 9, 32}, {3, 6, 48}, {4, 12, 16}, {5, 132, 384}, {7, 384, 1536}, {100, 384, 384}, {301, 1536, 384},
		{6, 16, 16}, {13, 17, 64}, {8, 33, 32}, {12, 1152, 384}} {
		m, n, k := s[0], s[1], s[2]
		a, w := randMat(r, m*k), randMat(r, n*k)
		a[0] = 0 // a zero in the first row does not disturb its scale
		q := Quantize(w, n, k)
		useAVX2 = false
		want := make([]float32, m*n)
		QMatMulT(want, a, q, m)
		exact := naive(a, w, m, n, k)
		for i, e := range exact {
			// Per product, error ≤ |a|·|Δw| + |Δa|·|w| with |Δ| ≤ half a step.
			if d := math.Abs(float64(want[i]) - e); d > float64(k)*(1.0/127+1.0/float64(int(1)<<(ActBits-1)-1)) {
				t.Fatalf("%v: c[%d] = %v, exact %v", s, i, want[i], e)
			}
		}
		if !saved {
			continue
		}
		useAVX2 = true
		got := make([]float32, m*n+4)
		got[m*n] = 42
		QMatMulT(got, a, q, m)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%v: avx2 c[%d] = %v, generic %v", s, i, got[i], want[i])
			}
		}
		if got[m*n] != 42 {
			t.Fatalf("%v: wrote past c", s)
		}
	}
}

func TestQuantizeRejectsShapes(t *testing.T) {
	for _, s := range [][2]int{{3, 15}, {0, 16}, {4, 8}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Quantize(%d×%d) did not panic", s[0], s[1])
				}
			}()
			Quantize(make([]float32, s[0]*s[1]), s[0], s[1])
		}()
	}
}

func BenchmarkQMatMulT(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	const m, n, k = 256, 1536, 384
	a, w := randMat(r, m*k), randMat(r, n*k)
	q := Quantize(w, n, k)
	c := make([]float32, m*n)
	b.Run("int8", func(b *testing.B) {
		t0 := eval.CPUTime().Seconds()
		for b.Loop() {
			QMatMulT(c, a, q, m)
		}
		b.ReportMetric(2*m*n*k*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		b.ReportMetric(2*m*n*k*float64(b.N)/(eval.CPUTime().Seconds()-t0)/1e9, "GFLOP/cpu-s")
	})
	b.Run("fp32", func(b *testing.B) {
		t0 := eval.CPUTime().Seconds()
		for b.Loop() {
			MatMulT(c, a, w, m, n, k)
		}
		b.ReportMetric(2*m*n*k*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		b.ReportMetric(2*m*n*k*float64(b.N)/(eval.CPUTime().Seconds()-t0)/1e9, "GFLOP/cpu-s")
	})
}

// TestQMul: the epilogue (bias, then the old c) gives the same bits on
// both paths and equals QMatMulT followed by the two additions.
func TestQMul(t *testing.T) {
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	r := rand.New(rand.NewPCG(9, 9))
	for _, s := range [][3]int{{1, 16, 16}, {7, 17, 32}, {13, 40, 64}, {100, 384, 384}} {
		m, n, k := s[0], s[1], s[2]
		a, w, bias, old := randMat(r, m*k), randMat(r, n*k), randMat(r, n), randMat(r, m*n)
		q := Quantize(w, n, k)
		useAVX2 = false
		plain := make([]float32, m*n)
		QMatMulT(plain, a, q, m)
		for _, avx := range []bool{false, true} {
			if avx && !saved {
				continue
			}
			useAVX2 = avx
			for _, flags := range []int{AddBias, Accumulate, AddBias | Accumulate} {
				c := append([]float32(nil), old...)
				QMul(c, a, q, m, bias, flags)
				for i := range c {
					want := plain[i]
					if flags&AddBias != 0 {
						want = float32(want) + bias[i%n]
					}
					if flags&Accumulate != 0 {
						want = float32(want) + old[i]
					}
					if c[i] != want {
						t.Fatalf("%v avx2=%v flags=%d: c[%d] = %v, want %v", s, avx, flags, i, c[i], want)
					}
				}
			}
		}
	}
}
