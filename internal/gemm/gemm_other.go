//go:build !amd64

package gemm

const hasAVX2 = false

func kern3x4(a0, a1, a2, b *float32, ldb int, c0, c1, c2 *float32, kc, nc, acc int, kmask, nmask *int32) {
	panic("gemm: no assembly kernel on this architecture")
}

func kernQ6x16(a0, a1, a2, a3, a4, a5 *int16, b *int8, bstride int, c *float32, ldc, k, np int, sw *float32, sa *[6]float32, bias *float32, flags int) {
	panic("gemm: no assembly kernel on this architecture")
}

func absMaxAVX2(x *float32, n int) float32 { panic("gemm: no assembly kernel on this architecture") }

func quantRowAVX2(dst *int16, src *float32, n int, inv float32) {
	panic("gemm: no assembly kernel on this architecture")
}

func kern6x16(a0, a1, a2, a3, a4, a5, b *float32, bstride int, c *float32, ldc, kc, np int, bias *float32, flags int) {
	panic("gemm: no assembly kernel on this architecture")
}

func kern3x16(a0, a1, a2, a3, a4, a5, b *float32, bstride int, c *float32, ldc, kc, np int, bias *float32, flags int) {
	panic("gemm: no assembly kernel on this architecture")
}

const hasF16C = false

func kern6x16h(a0, a1, a2, a3, a4, a5 *float32, b *uint16, bstride int, c *float32, ldc, kc, np int, bias *float32, flags int) {
	panic("gemm: no assembly kernel on this architecture")
}

func kern3x16h(a0, a1, a2, a3, a4, a5 *float32, b *uint16, bstride int, c *float32, ldc, kc, np int, bias *float32, flags int) {
	panic("gemm: no assembly kernel on this architecture")
}
