package gemm

import "golang.org/x/sys/cpu"

// The kernel uses AVX2-era VMASKMOVPS/VHADDPS on YMM and FMA3; cpu.X86 also
// reports whether the OS saves YMM state.
var hasAVX2 = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasFMA

// kern3x4 is implemented in gemm_amd64.s; see the comment there.
//
//go:noescape
func kern3x4(a0, a1, a2, b *float32, ldb int, c0, c1, c2 *float32, kc, nc, acc int, kmask, nmask *int32)

// kernQ6x16, absMaxAVX2 and quantRowAVX2 are in int8_amd64.s.
//
//go:noescape
func kernQ6x16(a0, a1, a2, a3, a4, a5 *int16, b *int8, bstride int, c *float32, ldc, k, np int, sw *float32, sa *[6]float32, bias *float32, flags int)

//go:noescape
func absMaxAVX2(x *float32, n int) float32

//go:noescape
func quantRowAVX2(dst *int16, src *float32, n int, inv float32)

// kern6x16 is in packed_amd64.s; see the comment there.
//
//go:noescape
func kern6x16(a0, a1, a2, a3, a4, a5, b *float32, bstride int, c *float32, ldc, kc, np int, bias *float32, flags int)

// kern3x16 is kern6x16 for three rows (packed_amd64.s).
//
//go:noescape
func kern3x16(a0, a1, a2, a3, a4, a5, b *float32, bstride int, c *float32, ldc, kc, np int, bias *float32, flags int)

// hasF16C: the fp16 panels' kernels widen with VCVTPH2PS (CPUID leaf 1,
// ECX bit 29; golang.org/x/sys/cpu does not report it).
var hasF16C = hasAVX2 && cpuid1ECX()&(1<<29) != 0

// cpuid1ECX is in packed_amd64.s.
func cpuid1ECX() uint32

// kern6x16h and kern3x16h take fp16 panels (packed_amd64.s).
//
//go:noescape
func kern6x16h(a0, a1, a2, a3, a4, a5 *float32, b *uint16, bstride int, c *float32, ldc, kc, np int, bias *float32, flags int)

//go:noescape
func kern3x16h(a0, a1, a2, a3, a4, a5 *float32, b *uint16, bstride int, c *float32, ldc, kc, np int, bias *float32, flags int)
