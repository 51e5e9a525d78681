package gemm

import (
	"fmt"
	"github.com/mneme-ai/mneme/internal/eval"
	"math"
	"math/rand/v2"
	"testing"
)

// checkPanels runs MulPanels with every epilogue on a (strided) and b
// packed, with and without b's rows kept, against naive.
func checkPanels(t *testing.T, r *rand.Rand, m, n, k int) {
	t.Helper()
	lda, ldc := k+r.IntN(3), n+r.IntN(3)
	a, w, bias := randMat(r, max(m*lda, 1)), halfMat(r, n*k), randMat(r, n)
	want := naive(compact(a, m, k, lda), w, m, n, k)
	for v := range 4 {
		p, rows := Pack(w, n, k), v%2 == 0
		if v >= 2 {
			if p = PackHalf(w, n, k); hasF16C != (p.Half != nil) {
				t.Fatalf("PackHalf of fp16 values: Half set %v on a CPU with F16C %v", p.Half != nil, hasF16C)
			}
		}
		if !rows {
			p.rows = nil
		}
		for _, flags := range []int{0, AddBias, Accumulate, Accumulate | AddBias} {
			c := make([]float32, m*ldc+8)
			init := make([]float32, len(c))
			for i := range c {
				c[i] = float32(math.NaN())
				if i < m*ldc && i%ldc < n {
					c[i] = float32(i%5) - 2
				}
				init[i] = c[i]
			}
			MulPanels(c, ldc, a, lda, p, m, bias, flags)
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					w := want[i*n+j]
					if flags&AddBias != 0 {
						w += float64(bias[j])
					}
					if flags&Accumulate != 0 {
						w += float64(init[i*ldc+j])
					}
					if got := float64(c[i*ldc+j]); !(math.Abs(got-w) <= 1e-5*float64(k+2)) {
						t.Fatalf("m=%d n=%d k=%d lda=%d ldc=%d rows=%v flags=%d: c[%d,%d] = %v, want %v", m, n, k, lda, ldc, rows, flags, i, j, got, w)
					}
				}
			}
			for i := range c { // gaps between rows and past the end are untouched
				if (i >= m*ldc || i%ldc >= n) && !sameBits(c[i], init[i]) {
					t.Fatalf("m=%d n=%d k=%d ldc=%d: wrote c[%d] outside the product", m, n, k, ldc, i)
				}
			}
		}
	}
}

// halfMat is a random matrix of values exact in fp16 (11-bit mantissas).
func halfMat(r *rand.Rand, size int) []float32 {
	x := make([]float32, size)
	for i := range x {
		x[i] = float32(r.IntN(4096)-2048) / 2048
	}
	return x
}

func TestHalf(t *testing.T) {
	sub := float32(math.Ldexp(1, -24)) // smallest fp16 subnormal
	for _, c := range []struct {
		v  float32
		ok bool
	}{
		{0, true}, {float32(math.Copysign(0, -1)), true}, {1, true}, {-2.5, true}, {65504, true}, {sub, true}, {3 * sub, true},
		{float32(math.Ldexp(1023, -24)), true}, {float32(math.Ldexp(1, -14)), true},
		{65520, false}, {1 + 1.0/4096, false}, {sub / 2, false}, {1e-30, false}, {float32(math.NaN()), false}, {float32(math.Inf(1)), false},
	} {
		h, ok := toHalf(c.v)
		if ok != c.ok {
			t.Errorf("toHalf(%g) exact = %v, want %v", c.v, ok, c.ok)
			continue
		}
		if ok && math.Float32bits(fromHalf(h)) != math.Float32bits(c.v) {
			t.Errorf("fromHalf(toHalf(%g)) = %g", c.v, fromHalf(h))
		}
	}
	if p := PackHalf([]float32{1, 0.1}, 2, 1); p.Half != nil || p.Data == nil {
		t.Error("PackHalf kept fp16 for a value (0.1) that is not one")
	}
}

func sameBits(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) }

// compact copies a (m rows of k at stride lda) to stride k.
func compact(a []float32, m, k, lda int) []float32 {
	out := make([]float32, m*k)
	for i := 0; i < m; i++ {
		copy(out[i*k:(i+1)*k], a[i*lda:])
	}
	return out
}

func TestMulPanels(t *testing.T) {
	withKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 10))
		for m := 1; m <= 13; m++ {
			for _, n := range []int{1, 5, 16, 17, 33, 48} {
				for _, k := range []int{1, 3, 4, 5, 8, 17, 32} {
					checkPanels(t, r, m, n, k)
				}
			}
		}
		for _, s := range [][3]int{{13, 1152, 384}, {100, 384, 1536}, {200, 1536, 384}, {7, 40, 600}, {97, 130, 257}} {
			checkPanels(t, r, s[0], s[1], s[2])
		}
	})
}

func TestMulPanelsCols(t *testing.T) {
	withKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(11, 12))
		const m, n, k = 13, 144, 64
		a, w := randMat(r, m*k), randMat(r, n*k)
		p := Pack(w, n, k)
		c := make([]float32, m*n)
		for j := 0; j < n; j += 48 {
			MulPanelsCols(c, n, a, k, p, m, nil, 0, j, j+48)
		}
		want := naive(a, w, m, n, k)
		for i, v := range want {
			if math.Abs(float64(c[i])-v) > 1e-4 {
				t.Fatalf("c[%d] = %v, want %v", i, c[i], v)
			}
		}
	})
}

func TestMulPanelsRejects(t *testing.T) {
	p := Pack(make([]float32, 32*8), 32, 8)
	for name, f := range map[string]func(){
		"short a":    func() { MulPanels(make([]float32, 64), 32, make([]float32, 15), 8, p, 2, nil, 0) },
		"short c":    func() { MulPanels(make([]float32, 63), 32, make([]float32, 16), 8, p, 2, nil, 0) },
		"short bias": func() { MulPanels(make([]float32, 64), 32, make([]float32, 16), 8, p, 2, make([]float32, 31), AddBias) },
		"bad cols":   func() { MulPanelsCols(make([]float32, 64), 32, make([]float32, 16), 8, p, 2, nil, 0, 8, 32) },
		"short b":    func() { Pack(make([]float32, 10), 2, 8) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// BenchmarkMulPanels runs MiniLM's linear shapes through the packed
// kernel and, alternately, through MatMulT.
func BenchmarkMulPanels(b *testing.B) {
	for _, s := range [][3]int{{512, 384, 1152}, {512, 384, 1536}, {512, 1536, 384}, {13, 384, 1152}, {13, 1536, 384}} {
		m, k, n := s[0], s[1], s[2]
		r := rand.New(rand.NewPCG(7, 8))
		a, w, c := randMat(r, m*k), halfMat(r, n*k), make([]float32, m*n)
		p, h := Pack(w, n, k), PackHalf(w, n, k)
		for _, v := range []string{"packed", "half", "matmult"} {
			b.Run(fmt.Sprintf("m=%d,k=%d,n=%d/%s", m, k, n, v), func(b *testing.B) {
				t0 := eval.CPUTime().Seconds()
				for b.Loop() {
					switch v {
					case "packed":
						MulPanels(c, n, a, k, p, m, nil, 0)
					case "half":
						MulPanels(c, n, a, k, h, m, nil, 0)
					default:
						MatMulT(c, a, w, m, n, k)
					}
				}
				b.ReportMetric(2*float64(m*n*k)*float64(b.N)/(eval.CPUTime().Seconds()-t0)/1e9, "GFLOP/cpu-s")
			})
		}
	}
}
