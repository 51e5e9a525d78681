package hnsw

// useAVX selects the assembly kernels; tests clear it to cover the
// portable path.
var useAVX = hasAVX2

// dot returns a·b over len(a) elements (b must be at least as long).
func dot(a, b []float32) float32 {
	n := len(a)
	b = b[:n]
	if useAVX && n >= 8 {
		s := dotAVX(&a[0], &b[0], n)
		for i := n &^ 7; i < n; i++ {
			s += a[i] * b[i]
		}
		return s
	}
	return dotGeneric(a, b)
}

// dotGeneric is the portable kernel; four partial sums let the CPU overlap
// the additions.
func dotGeneric(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// dot4 returns q·a, q·b, q·c, q·d; all four must be at least len(q) long.
func dot4(q, a, b, c, d []float32) (out [4]float32) {
	n := len(q)
	a, b, c, d = a[:n], b[:n], c[:n], d[:n]
	if useAVX && n >= 8 {
		dot4AVX(&q[0], &a[0], &b[0], &c[0], &d[0], n, &out)
		for i := n &^ 7; i < n; i++ {
			out[0] += q[i] * a[i]
			out[1] += q[i] * b[i]
			out[2] += q[i] * c[i]
			out[3] += q[i] * d[i]
		}
		return out
	}
	return [4]float32{dotGeneric(q, a), dotGeneric(q, b), dotGeneric(q, c), dotGeneric(q, d)}
}
