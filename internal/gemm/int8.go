package gemm

import (
	"fmt"
	"math"
	"sync"
)

// QMatrix is a weight matrix (n rows of k) quantised to int8 with one
// symmetric scale per row: w[j][p] ≈ Scale[j]·W[j][p], W in [-127, 127].
// The kernels multiply int16 pairs (VPMADDWD), widening the int8 panels
// as they load them: that keeps the activations' quantisation free to use
// more than 8 bits and never saturates, unlike the u8×s8 VPMADDUBSW
// route, which overflows int16 on large products without VNNI.
type QMatrix struct {
	N, K  int
	W     []int16   // [N×K], for the portable path
	P     []int8    // the same in panels for kernQ6x16, see qPack
	Scale []float32 // [N], zero padded to whole panels (the kernel reads 16 at a time)
}

// Quantize returns w (n×k, row-major) quantised per row. k must be a
// multiple of 16 (the activations' quantisation steps); all of MiniLM's
// linear layers' are.
func Quantize(w []float32, n, k int) *QMatrix {
	if k%16 != 0 || n < 1 || len(w) < n*k {
		panic(fmt.Sprintf("gemm: cannot quantise %d×%d (k must be a multiple of 16)", n, k))
	}
	np := (n + PanelWidth - 1) / PanelWidth * PanelWidth
	q := &QMatrix{N: n, K: k, W: make([]int16, n*k), Scale: make([]float32, n, np)}
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
	q.P = qPack(q.W, n, k)
	return q
}

// qPack lays w (n×k) out in panels of 16 columns for kernQ6x16: per pair
// of depths (2t, 2t+1), the 16 columns' pairs in order, so that one
// VPMADDWD multiplies 8 columns by a broadcast pair of activations.
// Columns past n are zero.
func qPack(w []int16, n, k int) []int8 {
	p := make([]int8, (n+PanelWidth-1)/PanelWidth*PanelWidth*k)
	for j := 0; j < n; j++ {
		base := j/PanelWidth*PanelWidth*k + j%PanelWidth*2
		for x, v := range w[j*k : (j+1)*k] {
			p[base+x/2*2*PanelWidth+x%2] = int8(v) // |v| ≤ 127
		}
	}
	return p
}

func abs32(v float32) float32 { return math.Float32frombits(math.Float32bits(v) &^ (1 << 31)) }

// ActBits is the precision of the dynamic quantisation of activations:
// each row of a is scaled so that its largest magnitude becomes
// 2^(ActBits-1)-1. With int8 weights and k ≤ 8192 the int32 sums cannot
// overflow for ActBits ≤ 12.
var ActBits = 12

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
func QMatMulT(c, a []float32, w *QMatrix, m int) { QMul(c, a, w, m, nil, 0) }

// QMul is QMatMulT with MulPanels' epilogue: with AddBias, bias[j] is
// added to column j, then with Accumulate the old c.
func QMul(c, a []float32, w *QMatrix, m int, bias []float32, flags int) {
	n, k := w.N, w.K
	if m < 0 || len(a) < m*k || len(c) < m*n || flags&AddBias != 0 && len(bias) < n {
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
	forEachBlock(m, n, k, avx2ParallelFlops, pRows, pCols, 6, PanelWidth, func(i0, i1, j0, j1 int) {
		if useAVX2 {
			qBlockAVX2(c, qa, sa, w, bias, flags, i0, i1, j0, j1)
		} else {
			qBlockGeneric(c, qa, sa, w, bias, flags, i0, i1, j0, j1)
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

func qBlockGeneric(c []float32, qa []int16, sa []float32, w *QMatrix, bias []float32, flags, i0, i1, j0, j1 int) {
	n, k := w.N, w.K
	for i := i0; i < i1; i++ {
		ar := qa[i*k : (i+1)*k]
		for j := j0; j < j1; j++ {
			br := w.W[j*k : (j+1)*k]
			var s int32
			for p, v := range ar {
				s += int32(v) * int32(br[p])
			}
			// float32() rounds each step, as the kernel does (no fusing).
			v := float32(float32(s)*w.Scale[j]) * sa[i]
			if flags&AddBias != 0 {
				v = float32(v) + bias[j]
			}
			if flags&Accumulate != 0 {
				v = float32(v) + c[i*n+j]
			}
			c[i*n+j] = v
		}
	}
}

// qBlockAVX2 runs kernQ6x16 over c[i0:i1, j0:j1] (j0 a multiple of 16).
// A ragged tile (rows past i1, columns past j1) goes through a scratch
// tile; its missing rows repeat row i1-1.
func qBlockAVX2(c []float32, qa []int16, sa []float32, w *QMatrix, bias []float32, flags, i0, i1, j0, j1 int) {
	n, k := w.N, w.K
	var tail [PanelWidth]float32
	for i := i0; i < i1; i += 6 {
		var ap [6]*int16
		var s [6]float32
		for r := range ap {
			ap[r], s[r] = &qa[min(i+r, i1-1)*k], sa[min(i+r, i1-1)]
		}
		jr := j0
		if i+6 <= i1 {
			jr = j0 + (j1-j0)&^(PanelWidth-1)
			if jr > j0 {
				kernQ6x16(ap[0], ap[1], ap[2], ap[3], ap[4], ap[5], &w.P[j0*k], PanelWidth*k, &c[i*n+j0], n, k,
					(jr-j0)/PanelWidth, &w.Scale[j0 : j0+PanelWidth][0], &s, biasAt(bias, flags, j0, &tail), flags)
			}
		}
		for j := jr; j < j1; j += PanelWidth {
			var t [6 * PanelWidth]float32
			rows, cols := min(6, i1-i), min(PanelWidth, j1-j)
			if flags&Accumulate != 0 {
				for r := range rows {
					copy(t[r*PanelWidth:r*PanelWidth+cols], c[(i+r)*n+j:])
				}
			}
			kernQ6x16(ap[0], ap[1], ap[2], ap[3], ap[4], ap[5], &w.P[j*k], PanelWidth*k, &t[0], PanelWidth, k,
				1, &w.Scale[j : j+PanelWidth][0], &s, biasAt(bias, flags, j, &tail), flags)
			for r := range rows {
				copy(c[(i+r)*n+j:(i+r)*n+j+cols], t[r*PanelWidth:])
			}
		}
	}
}
