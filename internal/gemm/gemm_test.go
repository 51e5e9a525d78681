package gemm

import (
	"fmt"
	"github.com/mneme-ai/mneme/internal/eval"
	"math"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

// naive is the reference: a plain triple loop accumulated in float64.
func naive(a, b []float32, m, n, k int) []float64 {
	c := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for p := 0; p < k; p++ {
				s += float64(a[i*k+p]) * float64(b[j*k+p])
			}
			c[i*n+j] = s
		}
	}
	return c
}

func randMat(r *rand.Rand, size int) []float32 {
	x := make([]float32, size)
	for i := range x {
		x[i] = r.Float32()*2 - 1
	}
	return x
}

// withKernel runs f once per available kernel, restoring the selection.
func withKernel(t *testing.T, f func(t *testing.T)) {
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	kernels := []bool{false}
	if hasAVX2 {
		kernels = append(kernels, true)
	}
	for _, avx := range kernels {
		useAVX2 = avx
		t.Run(Kernel(), f)
	}
}

// check multiplies and compares against naive. NaN guards after c catch
// over-writes; gemm_linux_test.go catches over-reads.
func check(t *testing.T, r *rand.Rand, m, n, k int) {
	t.Helper()
	a, b := randMat(r, m*k), randMat(r, n*k)
	c := make([]float32, m*n+8)
	for i := range c {
		c[i] = float32(math.NaN()) // must be overwritten, not accumulated
	}
	MatMulT(c[:m*n], a, b, m, n, k)
	want := naive(a, b, m, n, k)
	// Error bound scales with Σ|a||b|, which for entries in [-1,1] is ≤ k;
	// relative 1e-5 of that magnitude plus a few ulps of accumulation.
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			got, w := float64(c[i*n+j]), want[i*n+j]
			var mag float64
			for p := 0; p < k; p++ {
				mag += math.Abs(float64(a[i*k+p]) * float64(b[j*k+p]))
			}
			if !(math.Abs(got-w) <= 1e-5*math.Max(mag, 1)) {
				t.Fatalf("m=%d n=%d k=%d: c[%d,%d] = %v, want %v", m, n, k, i, j, got, w)
			}
		}
	}
	for i := m * n; i < len(c); i++ {
		if !math.IsNaN(float64(c[i])) {
			t.Fatalf("m=%d n=%d k=%d: wrote past c[%d]", m, n, k, m*n)
		}
	}
}

func TestSmallShapes(t *testing.T) {
	withKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for m := 1; m <= 9; m++ {
			for n := 1; n <= 9; n++ {
				for _, k := range []int{1, 2, 7, 8, 9, 15, 16, 17, 24, 31, 33} {
					check(t, r, m, n, k)
				}
			}
		}
	})
}

func TestRandomShapes(t *testing.T) {
	withKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		for range 300 {
			check(t, r, 1+r.IntN(70), 1+r.IntN(70), 1+r.IntN(70))
		}
	})
}

// TestModelShapes covers the MiniLM shapes, including multi-pass depths
// (k > kcMax), ragged sequence lengths, and both parallel split modes.
func TestModelShapes(t *testing.T) {
	shapes := [][3]int{ // m, n, k
		{16, 384, 384}, {16, 1152, 384}, {130, 1536, 384}, {67, 384, 1536},
		{257, 384, 1536}, {128, 128, 64}, {37, 37, 64}, {37, 64, 37},
		{256, 256, 64}, {256, 64, 256}, {200, 50, 1000}, {1, 1536, 1537},
		{1000, 3, 5}, {5, 1000, 391}, {300, 16, 2000}, {40, 1536, 384},
	}
	withKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, s := range shapes {
			check(t, r, s[0], s[1], s[2])
		}
	})
}

// TestSingleThread repeats large shapes with one worker, the other split.
func TestSingleThread(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	TestModelShapes(t)
}

// TestForEachBlock checks the scheduler covers every cell exactly once with
// aligned blocks, for worker counts and shapes that force block shrinking.
func TestForEachBlock(t *testing.T) {
	for _, procs := range []int{1, 2, 3, 8} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for _, s := range [][2]int{{1, 1}, {7, 5}, {16, 1152}, {300, 16}, {97, 129}, {2048, 1536}} {
			m, n := s[0], s[1]
			hits := make([]atomic.Int32, m*n)
			forEachBlock(m, n, 1, 0, 96, 128, 3, 16, func(i0, i1, j0, j1 int) {
				if i0%3 != 0 || j0%16 != 0 || i0 >= i1 || j0 >= j1 {
					t.Errorf("bad block [%d,%d)×[%d,%d)", i0, i1, j0, j1)
				}
				for i := i0; i < i1; i++ {
					for j := j0; j < j1; j++ {
						hits[i*n+j].Add(1)
					}
				}
			})
			for i := range hits {
				if h := hits[i].Load(); h != 1 {
					t.Fatalf("procs=%d m=%d n=%d: cell %d visited %d times", procs, m, n, i, h)
				}
			}
		}
	}
}

func TestDegenerate(t *testing.T) {
	withKernel(t, func(t *testing.T) {
		MatMulT(nil, nil, make([]float32, 15), 0, 5, 3)
		c := []float32{1, 2, 3, 4}
		MatMulT(c, nil, nil, 2, 2, 0)
		for _, v := range c {
			if v != 0 {
				t.Fatalf("k=0 left %v in c", c)
			}
		}
		defer func() {
			if recover() == nil {
				t.Fatal("short slice did not panic")
			}
		}()
		MatMulT(make([]float32, 4), make([]float32, 6), make([]float32, 5), 2, 2, 3)
	})
}

func TestAVX2Selected(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		skips.Skip(t, "", "amd64 only")
	}
	if !hasAVX2 {
		skips.Skip(t, "", "CPU lacks AVX2/FMA")
	}
	if Kernel() != "avx2-fma" {
		t.Fatalf("Kernel() = %q on an AVX2+FMA CPU", Kernel())
	}
}

func BenchmarkMatMulT(b *testing.B) {
	shapes := [][3]int{{512, 384, 1152}, {512, 384, 1536}, {512, 1536, 384}, {128, 64, 128}, {13, 384, 1152}, {13, 1536, 384}} // m, k, n
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	kernels := []bool{false}
	if hasAVX2 {
		kernels = append(kernels, true)
	}
	for _, avx := range kernels {
		useAVX2 = avx
		for _, s := range shapes {
			m, k, n := s[0], s[1], s[2]
			r := rand.New(rand.NewPCG(7, 8))
			a, bb, c := randMat(r, m*k), randMat(r, n*k), make([]float32, m*n)
			b.Run(fmt.Sprintf("%s/m=%d,k=%d,n=%d", Kernel(), m, k, n), func(b *testing.B) {
				t0 := eval.CPUTime().Seconds()
				for b.Loop() {
					MatMulT(c, a, bb, m, n, k)
				}
				b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				b.ReportMetric(2*float64(m*n*k)*float64(b.N)/(eval.CPUTime().Seconds()-t0)/1e9, "GFLOP/cpu-s")
			})
		}
	}
}
