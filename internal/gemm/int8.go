package gemm

import (
	"fmt"
	"math"
	"sync"
)

// QMatrix is a weight matrix (n rows of k) quantised to int8 with one
// symmetric scale per row: w[j][p] ≈ Scale[j]·W[j][p], W in [-127, 127].
// The values are kept widened to int16 because the kernels multiply int16
// pairs (VPMADDWD): that keeps the activations' quantisation free to use
// more than 8 bits and never saturates, unlike the u8×s8 VPMADDUBSW
// route, which overflows int16 on large products without VNNI.
type QMatrix struct {
	N, K  int
	W     []int16   // [N×K]
	Scale []float32 // [N]
}

// Quantize returns w (n×k, row-major) quantised per row. k must be a
// multiple of 16 and n of 3 (the kernel's steps); all of MiniLM's linear
// layers are.
func Quantize(w []float32, n, k int) *QMatrix {
	if k%16 != 0 || n%3 != 0 || len(w) < n*k {
		panic(fmt.Sprintf("gemm: cannot quantise %d×%d (k must be a multiple of 16, n of 3)", n, k))
	}
	q := &QMatrix{N: n, K: k, W: make([]int16, n*k), Scale: make([]float32, n, n+1)} // +1: the kernel reads scales 4 at a time
	for j := 0; j < n; j++ {
		row := w[j*k : (j+1)*k]
		var amax float32
		for _, v := range row {
			amax = max(amax, abs32(v))
		}
		if amax == 0 {
			continue
		}
		q.Scale[j] = amax / 127
		inv := 127 / amax
		for p, v := range row {
			q.W[j*k+p] = int16(math.RoundToEven(float64(v * inv)))
		}
	}
	return q
}

func abs32(v float32) float32 { return math.Float32frombits(math.Float32bits(v) &^ (1 << 31)) }

// ActBits is the precision of the dynamic quantisation of activations:
// each row of a is scaled so that its largest magnitude becomes
// 2^(ActBits-1)-1. With int8 weights and k ≤ 8192 the int32 sums cannot
// overflow for ActBits ≤ 12.
var ActBits = 12

// qBlockCols: column blocks are a multiple of 3, the kernel's width.
const qBlockCols = 96

// qbuf is the quantised copy of a (int16 rows and their scales).
type qbuf struct {
	a  []int16
	sa []float32
}

var qPool = sync.Pool{New: func() any { return new(qbuf) }}

// QMatMulT computes c ≈ a·wᵀ for a (m×k float32) and w quantised: every row
// of a is quantised symmetrically (dynamic quantisation, ActBits), the
// products are exact int32 sums, and c[i][j] = float32(sum)·Scale[j]·sa[i].
// The AVX2 and portable paths give identical results.
func QMatMulT(c, a []float32, w *QMatrix, m int) {
	n, k := w.N, w.K
	if m < 0 || len(a) < m*k || len(c) < m*n {
		panic("gemm: slice too short")
	}
	if m == 0 {
		return
	}
	qb := qPool.Get().(*qbuf)
	defer qPool.Put(qb)
	if cap(qb.a) < m*k {
		qb.a = make([]int16, m*k)
	}
	if cap(qb.sa) < m {
		qb.sa = make([]float32, m)
	}
	qa, sa := qb.a[:m*k], qb.sa[:m]
	qmax := float32(int(1)<<(ActBits-1) - 1)
	forEachBlock(m, 1, 64*k, avx2ParallelFlops, 64, 1, 1, 1, func(i0, i1, _, _ int) {
		for i := i0; i < i1; i++ {
			sa[i] = quantRow(qa[i*k:(i+1)*k], a[i*k:(i+1)*k], qmax)
		}
	})
	forEachBlock(m, n, k, avx2ParallelFlops, blockRows, qBlockCols, 3, 3, func(i0, i1, j0, j1 int) {
		if useAVX2 {
			qBlockAVX2(c, qa, sa, w, i0, i1, j0, j1)
		} else {
			qBlockGeneric(c, qa, sa, w, i0, i1, j0, j1)
		}
	})
}

// quantRow sets dst to src/scale rounded to the nearest integer (ties to
// even, as VCVTPS2DQ does) with scale = max|src|/qmax, and returns scale.
func quantRow(dst []int16, src []float32, qmax float32) float32 {
	var amax float32
	if useAVX2 {
		amax = absMaxAVX2(&src[0], len(src))
	} else {
		for _, v := range src {
			amax = max(amax, abs32(v))
		}
	}
	if !(amax > 0) || amax > math.MaxFloat32 { // zero, NaN or Inf row
		clear(dst)
		if amax == 0 {
			return 0
		}
		return float32(math.NaN())
	}
	inv := qmax / amax
	if useAVX2 {
		quantRowAVX2(&dst[0], &src[0], len(src), inv)
		return amax / qmax
	}
	for p, v := range src {
		dst[p] = int16(math.RoundToEven(float64(v * inv)))
	}
	return amax / qmax
}

func qBlockGeneric(c []float32, qa []int16, sa []float32, w *QMatrix, i0, i1, j0, j1 int) {
	n, k := w.N, w.K
	for i := i0; i < i1; i++ {
		ar := qa[i*k : (i+1)*k]
		for j := j0; j < j1; j++ {
			br := w.W[j*k : (j+1)*k]
			var s int32
			for p, v := range ar {
				s += int32(v) * int32(br[p])
			}
			c[i*n+j] = float32(s) * w.Scale[j] * sa[i]
		}
	}
}

// qBlockAVX2 runs kernQ3x3 over c[i0:i1, j0:j1]; j0 and j1 are multiples
// of 3. A ragged last tile of rows repeats row i and writes to scratch.
func qBlockAVX2(c []float32, qa []int16, sa []float32, w *QMatrix, i0, i1, j0, j1 int) {
	n, k := w.N, w.K
	var scratch [qBlockCols]float32
	var s [3]float32
	for i := i0; i < i1; i += 3 {
		a0, c0 := &qa[i*k], &c[i*n+j0]
		a1, c1, a2, c2 := a0, &scratch[0], a0, &scratch[0]
		s[0], s[1], s[2] = sa[i], 0, 0
		if i+1 < i1 {
			a1, c1, s[1] = &qa[(i+1)*k], &c[(i+1)*n+j0], sa[i+1]
		}
		if i+2 < i1 {
			a2, c2, s[2] = &qa[(i+2)*k], &c[(i+2)*n+j0], sa[i+2]
		}
		kernQ3x3(a0, a1, a2, &w.W[j0*k], k, c0, c1, c2, k, j1-j0, &w.Scale[j0], &s)
	}
}
