package gemm

import (
	"fmt"
	"math"
)

// PanelWidth is the number of columns of c (rows of b) in one panel.
const PanelWidth = 16

// Panels is a matrix b (N rows of K) packed for the broadcast kernel:
// ⌈N/16⌉ panels one after another, each K rows of 16 floats, where row p
// of panel q holds b[16q+0..16q+15][p] (zero past N). A product then reads
// its panel sequentially and needs no horizontal sums; weights are packed
// once, at load.
type Panels struct {
	N, K int
	Data []float32 // PanelsLen(N, K) floats
	Half []uint16  // or the same as IEEE fp16 (PackHalf), Data then nil
	rows []float32 // b itself (N×K row-major) for the portable path, when known
}

// PanelsLen is the length of the packed form of an n×k matrix.
func PanelsLen(n, k int) int { return (n + PanelWidth - 1) / PanelWidth * PanelWidth * k }

// Pack returns b (n×k, row-major) packed. b is kept (not copied) for the
// portable path, so it must not change while the Panels are in use.
func Pack(b []float32, n, k int) *Panels {
	if n < 0 || k < 0 || len(b) < n*k {
		panic(fmt.Sprintf("gemm: cannot pack %d×%d from %d floats", n, k, len(b)))
	}
	p := &Panels{N: n, K: k, Data: make([]float32, PanelsLen(n, k)), rows: b[:n*k]}
	for j := 0; j < n; j++ {
		q, jj := j/PanelWidth, j%PanelWidth
		dst := p.Data[q*PanelWidth*k+jj:]
		for x, v := range b[j*k : (j+1)*k] {
			dst[x*PanelWidth] = v
		}
	}
	return p
}

// PackHalf is Pack storing the panels as fp16 when every value of b is
// exactly an fp16 (weights stored as fp16, like MiniLM's), so that products
// are unchanged and read half the bytes; otherwise it is Pack.
func PackHalf(b []float32, n, k int) *Panels {
	if !hasF16C || n < 0 || k < 0 || len(b) < n*k {
		return Pack(b, n, k)
	}
	half := make([]uint16, PanelsLen(n, k))
	for j := 0; j < n; j++ {
		dst := half[j/PanelWidth*PanelWidth*k+j%PanelWidth:]
		for x, v := range b[j*k : (j+1)*k] {
			h, ok := toHalf(v)
			if !ok {
				return Pack(b, n, k)
			}
			dst[x*PanelWidth] = h
		}
	}
	return &Panels{N: n, K: k, Half: half, rows: b[:n*k]}
}

// HalfPanels wraps half, fp16 panels of an n×k matrix as PackHalf makes
// them (from a cache, say), with b's rows for the portable path. It returns
// nil when the lengths do not match or the CPU cannot widen fp16.
func HalfPanels(half []uint16, b []float32, n, k int) *Panels {
	if !hasF16C || n < 0 || k < 0 || len(half) != PanelsLen(n, k) || len(b) < n*k {
		return nil
	}
	return &Panels{N: n, K: k, Half: half, rows: b[:n*k]}
}

// toHalf converts v to IEEE fp16 bits when that is exact.
func toHalf(v float32) (uint16, bool) {
	bits := math.Float32bits(v)
	sign := uint16(bits>>16) & 0x8000
	exp := int(bits>>23&0xff) - 127
	mant := bits & 0x7fffff
	switch {
	case bits&0x7fffffff == 0:
		return sign, true
	case exp > 15 || exp == 128: // too large, Inf or NaN
		return 0, false
	case exp >= -14: // normal
		if mant&0x1fff != 0 {
			return 0, false
		}
		return sign | uint16(exp+15)<<10 | uint16(mant>>13), true
	case exp >= -24: // subnormal: v = m·2⁻²⁴
		full := mant | 0x800000 // 1.mant as 24 bits
		shift := uint(-exp - 14 + 13)
		if full&(1<<shift-1) != 0 {
			return 0, false
		}
		return sign | uint16(full>>shift), true
	}
	return 0, false
}

// Epilogue options of MulPanels.
const (
	Accumulate = 1 << iota // c += a·bᵀ (+ bias) instead of c = …
	AddBias                // add bias[j] to column j
)

// packedParallelFlops: as avx2ParallelFlops.
const packedParallelFlops = 1 << 24

// Blocking of MulPanels: a block of c handed to one goroutine is
// pRows × pCols (pRows a multiple of 6, pCols of 16); depth runs in passes
// of at most pKc so that a 6-row slice of a (6·pKc floats) stays in L1 and
// the block's panels (pCols·pKc floats, 256 KiB) in L2 while the kernel
// walks them, row tile after row tile. Measured (GFLOP per CPU-second,
// one thread, interleaved): pKc 384–512 beat 192–256 by ~5%, and walking
// all the block's panels per row tile beat reusing 1–2 panels over every
// row tile (the BLIS order) by 5–10%.
const (
	pRows = 96
	pCols = 128
	pKc   = 512
)

var pGroup = 128

// MulPanels computes c = a·bᵀ (+ bias) for a (m×b.K, row stride lda) and
// b packed, into c (m×b.N, row stride ldc); with Accumulate it adds to c.
// bias (b.N floats) is used only with AddBias. Large products run on up to
// GOMAXPROCS goroutines.
func MulPanels(c []float32, ldc int, a []float32, lda int, b *Panels, m int, bias []float32, flags int) {
	b.check(c, ldc, a, lda, m, bias, flags)
	forEachBlock(m, b.N, b.K, packedParallelFlops, pRows, pCols, 6, PanelWidth, func(i0, i1, j0, j1 int) {
		b.mulBlock(c, ldc, a, lda, bias, flags, i0, i1, j0, j1)
	})
}

// MulPanelsCols is MulPanels restricted to columns [j0, j1) of c (j0 a
// multiple of 16), on the calling goroutine only: callers that split a
// small product across cores themselves use it.
func MulPanelsCols(c []float32, ldc int, a []float32, lda int, b *Panels, m int, bias []float32, flags, j0, j1 int) {
	b.check(c, ldc, a, lda, m, bias, flags)
	if j0%PanelWidth != 0 || j0 < 0 || j1 > b.N || j0 > j1 {
		panic(fmt.Sprintf("gemm: columns [%d,%d) of %d", j0, j1, b.N))
	}
	if m > 0 && j1 > j0 {
		b.mulBlock(c, ldc, a, lda, bias, flags, 0, m, j0, j1)
	}
}

func (b *Panels) check(c []float32, ldc int, a []float32, lda, m int, bias []float32, flags int) {
	if m < 0 || lda < b.K || ldc < b.N {
		panic(fmt.Sprintf("gemm: bad shape m=%d lda=%d ldc=%d for %d×%d panels", m, lda, ldc, b.N, b.K))
	}
	if m > 0 && (len(a) < (m-1)*lda+b.K || len(c) < (m-1)*ldc+b.N) || max(len(b.Data), len(b.Half)) < PanelsLen(b.N, b.K) ||
		flags&AddBias != 0 && len(bias) < b.N {
		panic("gemm: slice too short")
	}
}

func (b *Panels) mulBlock(c []float32, ldc int, a []float32, lda int, bias []float32, flags, i0, i1, j0, j1 int) {
	if !useAVX2 {
		b.genericBlock(c, ldc, a, lda, bias, flags, i0, i1, j0, j1)
		return
	}
	k := b.K
	if k == 0 {
		b.genericBlock(c, ldc, a, lda, bias, flags, i0, i1, j0, j1)
		return
	}
	passes := (k + pKc - 1) / pKc
	kcStep := ((k+passes-1)/passes + 3) &^ 3
	for pc := 0; pc < k; pc += kcStep {
		kc := min(kcStep, k-pc)
		f := flags
		if pc > 0 {
			f = Accumulate // bias went in with the first pass
		}
		for i := i0; i < i1; i += 6 {
			b.tiles(c, ldc, a, lda, bias, f, pc, kc, i, i1, j0, j1)
		}
	}
}

// tiles runs the kernel over rows [i, i+6) and columns [j0, j1) at depth
// [pc, pc+kc); a last tile of 3 rows or fewer runs the 3-row kernel. Rows
// or columns that the kernel would write past (a ragged tile's missing
// rows repeat its last row of a) go through a scratch tile.
func (b *Panels) tiles(c []float32, ldc int, a []float32, lda int, bias []float32, f, pc, kc, i, i1, j0, j1 int) {
	k := b.K
	kr := 6
	if i1-i <= 3 {
		kr = 3
	}
	kern := func(ap *[6]*float32, j int, c *float32, ldc, np int, bias *float32, f int) {
		switch {
		case b.Half != nil && kr == 6:
			kern6x16h(ap[0], ap[1], ap[2], ap[3], ap[4], ap[5], &b.Half[j*k+pc*PanelWidth], PanelWidth*k, c, ldc, kc, np, bias, f)
		case b.Half != nil:
			kern3x16h(ap[0], ap[1], ap[2], ap[3], ap[4], ap[5], &b.Half[j*k+pc*PanelWidth], PanelWidth*k, c, ldc, kc, np, bias, f)
		case kr == 6:
			kern6x16(ap[0], ap[1], ap[2], ap[3], ap[4], ap[5], &b.Data[j*k+pc*PanelWidth], PanelWidth*k, c, ldc, kc, np, bias, f)
		default:
			kern3x16(ap[0], ap[1], ap[2], ap[3], ap[4], ap[5], &b.Data[j*k+pc*PanelWidth], PanelWidth*k, c, ldc, kc, np, bias, f)
		}
	}
	var ap [6]*float32
	for r := range ap {
		ap[r] = &a[min(i+r, i1-1)*lda+pc]
	}
	var tail [PanelWidth]float32
	jr := j0
	if i+kr <= i1 {
		jr = j0 + (j1-j0)&^(PanelWidth-1) // whole panels straight into c
		if jr > j0 {
			kern(&ap, j0, &c[i*ldc+j0], ldc, (jr-j0)/PanelWidth, biasAt(bias, f, j0, &tail), f)
		}
	}
	for j := jr; j < j1; j += PanelWidth {
		var t [6 * PanelWidth]float32
		rows, cols := min(kr, i1-i), min(PanelWidth, j1-j)
		if f&Accumulate != 0 {
			for r := range rows {
				copy(t[r*PanelWidth:r*PanelWidth+cols], c[(i+r)*ldc+j:])
			}
		}
		kern(&ap, j, &t[0], PanelWidth, 1, biasAt(bias, f, j, &tail), f)
		for r := range rows {
			copy(c[(i+r)*ldc+j:(i+r)*ldc+j+cols], t[r*PanelWidth:])
		}
	}
}

// biasAt is &bias[j], or nil without AddBias. The kernel reads 16 floats
// of bias, so a ragged last panel's are copied into tail first.
func biasAt(bias []float32, flags, j int, tail *[PanelWidth]float32) *float32 {
	if flags&AddBias == 0 {
		return nil
	}
	if j+PanelWidth > len(bias) {
		copy(tail[:], bias[j:])
		return &tail[0]
	}
	return &bias[j]
}
