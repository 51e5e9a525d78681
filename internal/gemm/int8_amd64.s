#include "textflag.h"

// func absMaxAVX2(x *float32, n int) float32
//
// max |x[i]| for n a multiple of 16.
TEXT ·absMaxAVX2(SB), NOSPLIT, $0-20
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHLQ $2, CX
	ADDQ CX, SI
	NEGQ CX
	VPCMPEQD Y15, Y15, Y15
	VPSRLD   $1, Y15, Y15 // 0x7fffffff: clears the sign
	VXORPS   Y0, Y0, Y0
	VXORPS   Y1, Y1, Y1

amloop:
	VANDPS (SI)(CX*1), Y15, Y2
	VANDPS 32(SI)(CX*1), Y15, Y3
	VMAXPS Y2, Y0, Y0
	VMAXPS Y3, Y1, Y1
	ADDQ   $64, CX
	JNE    amloop
	VMAXPS       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS       X1, X0, X0
	VPERMILPS    $0x4e, X0, X1
	VMAXPS       X1, X0, X0
	VPERMILPS    $0xb1, X0, X1
	VMAXPS       X1, X0, X0
	MOVSS        X0, ret+16(FP)
	VZEROUPPER
	RET

// func quantRowAVX2(dst *int16, src *float32, n int, inv float32)
//
// dst[i] = int16(round-to-even(src[i]·inv)) for n a multiple of 16; the
// caller keeps |src[i]·inv| within int16.
TEXT ·quantRowAVX2(SB), NOSPLIT, $0-28
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS inv+24(FP), Y15
	LEAQ (SI)(CX*4), SI
	LEAQ (DI)(CX*2), DI
	NEGQ CX

qloop:
	VMULPS    (SI)(CX*4), Y15, Y0
	VMULPS    32(SI)(CX*4), Y15, Y1
	VCVTPS2DQ Y0, Y0
	VCVTPS2DQ Y1, Y1
	VPACKSSDW Y1, Y0, Y0  // lanes: 0-3 8-11 | 4-7 12-15
	VPERMQ    $0xd8, Y0, Y0
	VMOVDQU   Y0, (DI)(CX*2)
	ADDQ      $16, CX
	JNE       qloop
	VZEROUPPER
	RET

// func kernQ6x16(a0, a1, a2, a3, a4, a5 *int16, b *int8, bstride int, c *float32, ldc, k, np int, sw *float32, sa *[6]float32, bias *float32, flags int)
//
// The int8 model's kernel: kern6x16's broadcast scheme over panels of
// int8 weights (QMatrix.P: per pair of depths, 16 columns × 2), widened to
// int16 by VPMOVSXBW as they are loaded (a query streams 10.5 MB of
// weights instead of 21). VBROADCASTSS spreads a pair of a row's int16
// activations (32 bits: the float broadcast is a pure load), VPMADDWD
// multiplies it with 8 columns' pairs and adds each pair (exact), VPADDD
// accumulates in int32: twelve accumulators for a 6×16 tile, no horizontal
// sums. k is a multiple of 4. The epilogue is the portable path's, in its
// order: c = ((float32(sum)·sw[j])·sa[i] + bias[j]) + c (flags as
// MulPanels: bit 0 accumulate, bit 1 bias); sw and bias are read 16 at a
// time per panel, sa holds the six rows' scales.
#define QSTEP(boff, aoff) \
	VPMOVSXBW    boff(BX), Y12        \
	VPMOVSXBW    boff+16(BX), Y13     \
	VBROADCASTSS aoff(R8)(AX*1), Y14  \
	VPMADDWD     Y12, Y14, Y15        \
	VPADDD       Y15, Y0, Y0          \
	VPMADDWD     Y13, Y14, Y15        \
	VPADDD       Y15, Y1, Y1 \
	VBROADCASTSS aoff(R9)(AX*1), Y14  \
	VPMADDWD     Y12, Y14, Y15        \
	VPADDD       Y15, Y2, Y2          \
	VPMADDWD     Y13, Y14, Y15        \
	VPADDD       Y15, Y3, Y3 \
	VBROADCASTSS aoff(R10)(AX*1), Y14  \
	VPMADDWD     Y12, Y14, Y15        \
	VPADDD       Y15, Y4, Y4          \
	VPMADDWD     Y13, Y14, Y15        \
	VPADDD       Y15, Y5, Y5 \
	VBROADCASTSS aoff(R11)(AX*1), Y14  \
	VPMADDWD     Y12, Y14, Y15        \
	VPADDD       Y15, Y6, Y6          \
	VPMADDWD     Y13, Y14, Y15        \
	VPADDD       Y15, Y7, Y7 \
	VBROADCASTSS aoff(R12)(AX*1), Y14  \
	VPMADDWD     Y12, Y14, Y15        \
	VPADDD       Y15, Y8, Y8          \
	VPMADDWD     Y13, Y14, Y15        \
	VPADDD       Y15, Y9, Y9 \
	VBROADCASTSS aoff(R13)(AX*1), Y14  \
	VPMADDWD     Y12, Y14, Y15        \
	VPADDD       Y15, Y10, Y10          \
	VPMADDWD     Y13, Y14, Y15        \
	VPADDD       Y15, Y11, Y11

TEXT ·kernQ6x16(SB), NOSPLIT, $0-128
	MOVQ k+80(FP), CX
	SHLQ $1, CX          // CX = bytes of a row of a
	MOVQ a0+0(FP), R8
	ADDQ CX, R8
	MOVQ a1+8(FP), R9
	ADDQ CX, R9
	MOVQ a2+16(FP), R10
	ADDQ CX, R10
	MOVQ a3+24(FP), R11
	ADDQ CX, R11
	MOVQ a4+32(FP), R12
	ADDQ CX, R12
	MOVQ a5+40(FP), R13
	ADDQ CX, R13
	MOVQ b+48(FP), SI
	MOVQ c+64(FP), DI
	MOVQ ldc+72(FP), DX
	SHLQ $2, DX
	MOVQ np+88(FP), R14
	MOVQ sw+96(FP), R15

qpanel:
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPXOR Y8, Y8, Y8
	VPXOR Y9, Y9, Y9
	VPXOR Y10, Y10, Y10
	VPXOR Y11, Y11, Y11
	MOVQ SI, BX
	MOVQ CX, AX
	NEGQ AX

qloop:
	QSTEP(0, 0)
	QSTEP(32, 4)
	ADDQ $64, BX
	ADDQ $8, AX
	JNE  qloop

	// Scale: Y12, Y13 = this panel's 16 weight scales; AX = sa.
	VMOVUPS (R15), Y12
	VMOVUPS 32(R15), Y13
	MOVQ    sa+104(FP), AX
	VCVTDQ2PS    Y0, Y0
	VCVTDQ2PS    Y1, Y1
	VMULPS       Y12, Y0, Y0
	VMULPS       Y13, Y1, Y1
	VBROADCASTSS 0(AX), Y14
	VMULPS       Y14, Y0, Y0
	VMULPS       Y14, Y1, Y1
	VCVTDQ2PS    Y2, Y2
	VCVTDQ2PS    Y3, Y3
	VMULPS       Y12, Y2, Y2
	VMULPS       Y13, Y3, Y3
	VBROADCASTSS 4(AX), Y14
	VMULPS       Y14, Y2, Y2
	VMULPS       Y14, Y3, Y3
	VCVTDQ2PS    Y4, Y4
	VCVTDQ2PS    Y5, Y5
	VMULPS       Y12, Y4, Y4
	VMULPS       Y13, Y5, Y5
	VBROADCASTSS 8(AX), Y14
	VMULPS       Y14, Y4, Y4
	VMULPS       Y14, Y5, Y5
	VCVTDQ2PS    Y6, Y6
	VCVTDQ2PS    Y7, Y7
	VMULPS       Y12, Y6, Y6
	VMULPS       Y13, Y7, Y7
	VBROADCASTSS 12(AX), Y14
	VMULPS       Y14, Y6, Y6
	VMULPS       Y14, Y7, Y7
	VCVTDQ2PS    Y8, Y8
	VCVTDQ2PS    Y9, Y9
	VMULPS       Y12, Y8, Y8
	VMULPS       Y13, Y9, Y9
	VBROADCASTSS 16(AX), Y14
	VMULPS       Y14, Y8, Y8
	VMULPS       Y14, Y9, Y9
	VCVTDQ2PS    Y10, Y10
	VCVTDQ2PS    Y11, Y11
	VMULPS       Y12, Y10, Y10
	VMULPS       Y13, Y11, Y11
	VBROADCASTSS 20(AX), Y14
	VMULPS       Y14, Y10, Y10
	VMULPS       Y14, Y11, Y11

	TESTQ $2, flags+120(FP)
	JEQ   qnobias
	MOVQ  R15, BX        // bias + (R15 - sw): this panel's 16 biases
	SUBQ  sw+96(FP), BX
	ADDQ  bias+112(FP), BX
	VMOVUPS (BX), Y12
	VMOVUPS 32(BX), Y13
	VADDPS Y12, Y0, Y0
	VADDPS Y13, Y1, Y1
	VADDPS Y12, Y2, Y2
	VADDPS Y13, Y3, Y3
	VADDPS Y12, Y4, Y4
	VADDPS Y13, Y5, Y5
	VADDPS Y12, Y6, Y6
	VADDPS Y13, Y7, Y7
	VADDPS Y12, Y8, Y8
	VADDPS Y13, Y9, Y9
	VADDPS Y12, Y10, Y10
	VADDPS Y13, Y11, Y11

qnobias:
	LEAQ  (DI)(DX*2), AX
	TESTQ $1, flags+120(FP)
	JEQ   qstore
	VADDPS (DI), Y0, Y0
	VADDPS 32(DI), Y1, Y1
	VADDPS (DI)(DX*1), Y2, Y2
	VADDPS 32(DI)(DX*1), Y3, Y3
	VADDPS (AX), Y4, Y4
	VADDPS 32(AX), Y5, Y5
	VADDPS (AX)(DX*1), Y6, Y6
	VADDPS 32(AX)(DX*1), Y7, Y7
	LEAQ  (DI)(DX*4), AX
	VADDPS (AX), Y8, Y8
	VADDPS 32(AX), Y9, Y9
	VADDPS (AX)(DX*1), Y10, Y10
	VADDPS 32(AX)(DX*1), Y11, Y11
	LEAQ  (DI)(DX*2), AX

qstore:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, (DI)(DX*1)
	VMOVUPS Y3, 32(DI)(DX*1)
	VMOVUPS Y4, (AX)
	VMOVUPS Y5, 32(AX)
	VMOVUPS Y6, (AX)(DX*1)
	VMOVUPS Y7, 32(AX)(DX*1)
	LEAQ    (DI)(DX*4), AX
	VMOVUPS Y8, (AX)
	VMOVUPS Y9, 32(AX)
	VMOVUPS Y10, (AX)(DX*1)
	VMOVUPS Y11, 32(AX)(DX*1)

	ADDQ bstride+56(FP), SI
	ADDQ $64, DI
	ADDQ $64, R15
	DECQ R14
	JNE  qpanel
	VZEROUPPER
	RET
