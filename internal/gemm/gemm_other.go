//go:build !amd64

package gemm

const hasAVX2 = false

func kern3x4(a0, a1, a2, b *float32, ldb int, c0, c1, c2 *float32, kc, nc, acc int, kmask, nmask *int32) {
	panic("gemm: no assembly kernel on this architecture")
}
