package gemm

import "sync"

// Blocking for kern3x4 (sized for Zen: 32–48 KiB L1d, ≥ 512 KiB L2):
//   - kcMax: depth per pass; deeper products run several passes that
//     accumulate into c.
//   - panelFloats: a kernel call walks a panel of nb rows of b (nb·kc ≤
//     panelFloats, 24 KiB) plus 3 rows of a, all of which stay in L1 while
//     it steps across its tiles. Small k thus gets wide calls, which
//     amortise the Go-side loop and call overhead.
//   - blockRows × blockCols: the unit of work handed to a goroutine
//     (blockRows a multiple of 3); its slab of a stays in L2.
//
// Measured on the target (Zen 5 VM) these sizes are not critical: kcMax
// 256–768, panels of 16–48 KiB and blocks of 48–192 × 64–256 all run within
// noise of each other.
const (
	kcMax       = 384
	panelFloats = 6144
	maxPanel    = 128 // widest kernel call, in columns
	blockRows   = 96
	blockCols   = 128
)

// avx2ParallelFlops: below ~16 MFLOP (≈150 µs on one core) a second core
// does not pay: waking an idle vCPU took ~100 µs (median) on the target VM,
// so the helper arrives after the caller has done most of the work.
const avx2ParallelFlops = 1 << 24

// maskTab[8-r:] begins with r all-ones lanes: kernel masks for a partial
// load or store of r floats.
var maskTab = [16]int32{-1, -1, -1, -1, -1, -1, -1, -1}

func mask(r int) *int32 { return &maskTab[8-r] }

var padPool = sync.Pool{New: func() any { return new([]float32) }}

// avx2MatMulT runs kern3x4 over c. The kernel reads b in place when each
// row's length k is a multiple of 8; otherwise b is copied into a buffer
// with rows zero padded to a multiple of 8, because the kernel's last
// partial load of b is unmasked. Columns past the last multiple of 4 (fewer
// than 4 rows of b) are read from a zero-padded copy of those rows so the
// kernel never reads past b.
func avx2MatMulT(c, a, b []float32, m, n, k int) {
	ldb := (k + 7) &^ 7
	nFull := n &^ 3
	padRows := 4
	if ldb != k {
		padRows = (n + 3) &^ 3 // pad all of b
		nFull = 0
	}
	var pad []float32
	if nFull < n {
		bufp := padPool.Get().(*[]float32)
		defer padPool.Put(bufp)
		if cap(*bufp) < padRows*ldb {
			*bufp = make([]float32, padRows*ldb)
		}
		pad = (*bufp)[:padRows*ldb]
		clear(pad)
		for j := nFull; j < n; j++ {
			copy(pad[(j-nFull)*ldb:], b[j*k:j*k+k])
		}
	}
	passes := (k + kcMax - 1) / kcMax
	kc := ((k+passes-1)/passes + 7) &^ 7 // depth of all but the last pass
	forEachBlock(m, n, k, avx2ParallelFlops, blockRows, blockCols, 3, 16, func(i0, i1, j0, j1 int) {
		avx2Block(c, a, b, pad, n, k, ldb, nFull, kc, i0, i1, j0, j1)
	})
}

// avx2Block computes c[i0:i1, j0:j1]. Columns below nFull come from b in
// place (stride k); the rest from pad (stride ldb), whose first row is
// column nFull.
func avx2Block(c, a, b, pad []float32, n, k, ldb, nFull, kcStep, i0, i1, j0, j1 int) {
	// In a ragged last 3-row tile the missing rows re-read row i of a (in
	// bounds, harmless) and write their results here.
	var scratch [maxPanel]float32
	nb := min(max(panelFloats/kcStep&^3, 4), maxPanel)
	for pc := 0; pc < k; pc += kcStep {
		kc := min(kcStep, k-pc)
		kmask, acc := mask(kc&7), min(pc, 1)
		for jb := j0; jb < j1; jb += nb {
			je := min(jb+nb, j1)
			jm := max(jb, min(je, nFull)) // [jb,jm) from b, [jm,je) from pad
			nmask := mask((je - jm) & 3)
			for i := i0; i < i1; i += 3 {
				a0, c0 := &a[i*k+pc], i*n
				a1, c1, a2, c2 := a0, -1, a0, -1
				if i+1 < i1 {
					a1, c1 = &a[(i+1)*k+pc], c0+n
				}
				if i+2 < i1 {
					a2, c2 = &a[(i+2)*k+pc], c0+2*n
				}
				if jm > jb {
					kern3x4(a0, a1, a2, &b[jb*k+pc], k, &c[c0+jb], at(c, c1, jb, &scratch), at(c, c2, jb, &scratch),
						kc, jm-jb, acc, kmask, nmask)
				}
				if je > jm {
					kern3x4(a0, a1, a2, &pad[(jm-nFull)*ldb+pc], ldb, &c[c0+jm], at(c, c1, jm, &scratch), at(c, c2, jm, &scratch),
						kc, je-jm, acc, kmask, nmask)
				}
			}
		}
	}
}

// at is &c[row+j], or the scratch row when row < 0.
func at(c []float32, row, j int, scratch *[maxPanel]float32) *float32 {
	if row < 0 {
		return &scratch[0]
	}
	return &c[row+j]
}
