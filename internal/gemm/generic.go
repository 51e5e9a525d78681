package gemm

// Generic blocking: a block of c is genericRows × genericCols, so the slab
// of b it revisits for every row pair (64 × k floats, ≤ 384 KiB) stays in L2.
// At ~8 GFLOP/s the fallback reaches the ~200 µs that a helper needs to
// pay off at a much smaller size than the AVX2 path.
const (
	genericRows          = 64
	genericCols          = 64
	genericParallelFlops = 1 << 21
)

// genericMatMulT is the portable path: 2×4 tiles of dot products, so every
// element of a and b loaded into a register is used several times.
func genericMatMulT(c, a, b []float32, m, n, k int) {
	forEachBlock(m, n, k, genericParallelFlops, genericRows, genericCols, 2, 4, func(i0, i1, j0, j1 int) {
		genericBlock(c, a, b, n, k, i0, i1, j0, j1)
	})
}

// genericBlock computes c[i0:i1, j0:j1].
func genericBlock(c, a, b []float32, n, k, i0, i1, j0, j1 int) {
	i := i0
	for ; i+2 <= i1; i += 2 {
		a0, a1 := a[i*k:i*k+k], a[(i+1)*k:(i+1)*k+k]
		c0, c1 := c[i*n:i*n+n], c[(i+1)*n:(i+1)*n+n]
		j := j0
		for ; j+4 <= j1; j += 4 {
			b0, b1, b2, b3 := b[j*k:j*k+k], b[(j+1)*k:(j+1)*k+k], b[(j+2)*k:(j+2)*k+k], b[(j+3)*k:(j+3)*k+k]
			var s00, s01, s02, s03, s10, s11, s12, s13 float32
			for p := range a0 {
				x, y := a0[p], a1[p]
				v0, v1, v2, v3 := b0[p], b1[p], b2[p], b3[p]
				s00 += x * v0
				s01 += x * v1
				s02 += x * v2
				s03 += x * v3
				s10 += y * v0
				s11 += y * v1
				s12 += y * v2
				s13 += y * v3
			}
			c0[j], c0[j+1], c0[j+2], c0[j+3] = s00, s01, s02, s03
			c1[j], c1[j+1], c1[j+2], c1[j+3] = s10, s11, s12, s13
		}
		for ; j < j1; j++ {
			c0[j] = dot(a0, b[j*k:j*k+k])
			c1[j] = dot(a1, b[j*k:j*k+k])
		}
	}
	if i < i1 {
		ai, ci := a[i*k:i*k+k], c[i*n:i*n+n]
		for j := j0; j < j1; j++ {
			ci[j] = dot(ai, b[j*k:j*k+k])
		}
	}
}

// dot uses four accumulators to hide floating-point add latency.
func dot(x, y []float32) float32 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float32
	p := 0
	for ; p+4 <= len(x); p += 4 {
		s0 += x[p] * y[p]
		s1 += x[p+1] * y[p+1]
		s2 += x[p+2] * y[p+2]
		s3 += x[p+3] * y[p+3]
	}
	for ; p < len(x); p++ {
		s0 += x[p] * y[p]
	}
	return (s0 + s1) + (s2 + s3)
}
