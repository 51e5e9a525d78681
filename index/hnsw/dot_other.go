//go:build !amd64

package hnsw

var hasAVX2 = false

func dotAVX(a, b *float32, n int) float32 { panic("hnsw: no assembly kernel") }

func dot4AVX(q, a, b, c, d *float32, n int, out *[4]float32) { panic("hnsw: no assembly kernel") }
