// Package gemm provides the dense matrix products of the transformer
// forward pass, each with an AVX2 kernel on amd64 and a portable Go
// fallback giving the same products elsewhere: MatMulT (c = a·bᵀ, both
// operands read in place), MulPanels (b packed once into panels, fp32 or
// fp16, with a bias and residual epilogue: the model's weights) and QMul
// (int8 weights, dynamically quantised activations).
//
// Callers need no alignment or padding. The products are safe for
// concurrent use on distinct outputs; a single call uses up to GOMAXPROCS
// goroutines once the product is large (≥ 16 MFLOP on the AVX2 path). When
// k is not a multiple of 8, MatMulT's AVX2 path copies b into a padded
// scratch buffer first.
package gemm

import (
	"runtime"
	"sync/atomic"
)

// useAVX2 selects the assembly path. It is a variable (not a constant) so
// tests can force the generic path on AVX2 machines.
var useAVX2 = hasAVX2

// MatMulT computes c = a · bᵀ for row-major dense matrices:
// a is m×k, b is n×k (so bᵀ is k×n), c is m×n. c is overwritten.
// It panics if a slice is too short.
func MatMulT(c, a, b []float32, m, n, k int) {
	if m < 0 || n < 0 || k < 0 {
		panic("gemm: negative dimension")
	}
	if len(a) < m*k || len(b) < n*k || len(c) < m*n {
		panic("gemm: slice too short")
	}
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		clear(c[:m*n])
		return
	}
	if useAVX2 {
		avx2MatMulT(c, a, b, m, n, k)
	} else {
		genericMatMulT(c, a, b, m, n, k)
	}
}

// Kernel names the implementation in use ("avx2-fma" or "generic").
func Kernel() string {
	if useAVX2 {
		return "avx2-fma"
	}
	return "generic"
}

// forEachBlock calls fn on every block of c, cut into rowStep × colStep
// pieces (the last ones ragged), spread over up to GOMAXPROCS goroutines
// when the product has at least parallelFlops (2·m·n·k). Steps are only
// halved, never below minRows/minCols, so the callers' alignment is kept.
//
// Blocks are handed out dynamically and the calling goroutine starts at
// once: waking an idle core can take 50 µs–1 ms on a VM, so a static split
// would make the caller wait for a late helper. Here a late helper just
// finds less (or no) work left, and the result is never slower than serial.
func forEachBlock(m, n, k, parallelFlops, rowStep, colStep, minRows, minCols int, fn func(i0, i1, j0, j1 int)) {
	nw := 1
	if 2*float64(m)*float64(n)*float64(k) >= float64(parallelFlops) {
		nw = runtime.GOMAXPROCS(0)
	}
	// With several workers, shrink blocks (keeping their alignment) until
	// there are a few per worker, so a late helper can still take a share.
	for nw > 1 && ceilDiv(m, rowStep)*ceilDiv(n, colStep) < 4*nw {
		switch {
		case colStep >= 2*minCols && colStep >= rowStep:
			colStep /= 2
		case rowStep >= 2*minRows:
			rowStep /= 2
		case colStep >= 2*minCols:
			colStep /= 2
		default:
			nw = 1 // too small to share
		}
	}
	rows, cols := ceilDiv(m, rowStep), ceilDiv(n, colStep)
	total := rows * cols
	nw = min(nw, total)
	if nw == 1 {
		for t := range total {
			i0, j0 := t/cols*rowStep, t%cols*colStep
			fn(i0, min(i0+rowStep, m), j0, min(j0+colStep, n))
		}
		return
	}
	// The caller waits for finished blocks, not for helpers: a helper that
	// starts after all blocks are claimed touches nothing and nobody waits
	// for it.
	var next, done atomic.Int64
	last := make(chan struct{}, 1)
	work := func(helper bool) {
		for {
			t := int(next.Add(1)) - 1
			if t >= total {
				return
			}
			// Column blocks vary fastest so one worker's consecutive blocks
			// share rows of a.
			i0, j0 := t/cols*rowStep, t%cols*colStep
			fn(i0, min(i0+rowStep, m), j0, min(j0+colStep, n))
			if int(done.Add(1)) == total && helper {
				last <- struct{}{}
			}
		}
	}
	for range nw - 1 {
		go work(true)
	}
	work(false)
	if int(done.Load()) < total {
		<-last
	}
}

func ceilDiv(x, y int) int { return (x + y - 1) / y }

// SetGeneric forces the portable kernels (true) or restores the detected
// ones (false), so that callers' tests can check both paths end to end.
// Not safe while products run.
func SetGeneric(on bool) {
	useAVX2 = hasAVX2 && !on
}
