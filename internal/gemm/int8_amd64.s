#include "textflag.h"

// func kernQ3x3(a0, a1, a2, b *int16, ldb int, c0, c1, c2 *float32, k, nc int, sw *float32, sa *[3]float32)
//
// The quantised counterpart of kern3x4: rows a0..a2 of int16 activations
// against tiles of three int16 weight rows (stride ldb), k a multiple of
// 16 and nc of 3. VPMADDWD multiplies 16 pairs and adds neighbours into 8
// int32 lanes, VPADDD accumulates (exact: no rounding, no saturation).
// Each tile's 9 sums are reduced, converted to float and scaled:
// c[i][j] = float32(sum)·sw[j]·sa[i], the order of the portable path.
// A 3×3 tile (not 3×4) leaves registers for b and the products, so that
// each step loads 6 vectors for 9 multiplies: with 4 columns, b had to be
// read from memory by every multiply and the loads were the bottleneck.
// sw is read 4 floats at a time (the caller pads it).
TEXT ·kernQ3x3(SB), NOSPLIT, $0-96
	MOVQ k+64(FP), CX
	SHLQ $1, CX           // bytes per row
	MOVQ a0+0(FP), SI
	ADDQ CX, SI
	MOVQ a1+8(FP), R8
	ADDQ CX, R8
	MOVQ a2+16(FP), R9
	ADDQ CX, R9
	MOVQ ldb+32(FP), BX
	SHLQ $1, BX
	MOVQ b+24(FP), DI
	ADDQ CX, DI
	LEAQ (DI)(BX*1), R10
	LEAQ (R10)(BX*1), R11
	LEAQ (BX)(BX*2), BX   // bytes from one tile of b to the next
	MOVQ c0+40(FP), R13
	MOVQ c1+48(FP), R14
	MOVQ c2+56(FP), R15
	MOVQ nc+72(FP), DX

tile:
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPXOR Y8, Y8, Y8
	MOVQ CX, AX
	NEGQ AX

loop:
	VMOVDQU (SI)(AX*1), Y9
	VMOVDQU (R8)(AX*1), Y10
	VMOVDQU (R9)(AX*1), Y11
	VMOVDQU (DI)(AX*1), Y12
	VPMADDWD Y12, Y9, Y13
	VPADDD   Y13, Y0, Y0
	VPMADDWD Y12, Y10, Y14
	VPADDD   Y14, Y3, Y3
	VPMADDWD Y12, Y11, Y13
	VPADDD   Y13, Y6, Y6
	VMOVDQU (R10)(AX*1), Y12
	VPMADDWD Y12, Y9, Y13
	VPADDD   Y13, Y1, Y1
	VPMADDWD Y12, Y10, Y14
	VPADDD   Y14, Y4, Y4
	VPMADDWD Y12, Y11, Y13
	VPADDD   Y13, Y7, Y7
	VMOVDQU (R11)(AX*1), Y12
	VPMADDWD Y12, Y9, Y13
	VPADDD   Y13, Y2, Y2
	VPMADDWD Y12, Y10, Y14
	VPADDD   Y14, Y5, Y5
	VPMADDWD Y12, Y11, Y13
	VPADDD   Y13, Y8, Y8
	ADDQ $32, AX
	JNE  loop

	VPHADDD Y1, Y0, Y0
	VPHADDD Y2, Y2, Y2
	VPHADDD Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X15
	VPADDD X15, X0, X0
	VCVTDQ2PS X0, X0
	VPHADDD Y4, Y3, Y3
	VPHADDD Y5, Y5, Y5
	VPHADDD Y5, Y3, Y3
	VEXTRACTI128 $1, Y3, X15
	VPADDD X15, X3, X3
	VCVTDQ2PS X3, X3
	VPHADDD Y7, Y6, Y6
	VPHADDD Y8, Y8, Y8
	VPHADDD Y8, Y6, Y6
	VEXTRACTI128 $1, Y6, X15
	VPADDD X15, X6, X6
	VCVTDQ2PS X6, X6
	MOVQ    sw+80(FP), AX
	VMOVUPS (AX), X12
	VMULPS  X12, X0, X0
	VMULPS  X12, X3, X3
	VMULPS  X12, X6, X6
	ADDQ    $12, AX
	MOVQ    AX, sw+80(FP)
	MOVQ    sa+88(FP), AX
	VBROADCASTSS (AX), X13
	VMULPS  X13, X0, X0
	VBROADCASTSS 4(AX), X13
	VMULPS  X13, X3, X3
	VBROADCASTSS 8(AX), X13
	VMULPS  X13, X6, X6
	VMOVSD  X0, (R13)
	VEXTRACTPS $2, X0, 8(R13)
	VMOVSD  X3, (R14)
	VEXTRACTPS $2, X3, 8(R14)
	VMOVSD  X6, (R15)
	VEXTRACTPS $2, X6, 8(R15)
	ADDQ    $12, R13
	ADDQ    $12, R14
	ADDQ    $12, R15
	ADDQ    BX, DI
	ADDQ    BX, R10
	ADDQ    BX, R11
	SUBQ    $3, DX
	JGT     tile
	VZEROUPPER
	RET

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
