#include "textflag.h"

// func kern6x16(a0, a1, a2, a3, a4, a5, b *float32, bstride int, c *float32, ldc, kc, np int, bias *float32, flags int)
//
// Broadcast micro-kernel over packed panels (see Panels): a 6×16 tile of c
// lives in twelve YMM accumulators; each step of depth loads one row of 16
// floats of the panel (two YMM) and broadcasts one float of each of the six
// rows of a, for 12 FMAs. No horizontal sums, and the panel is read
// sequentially.
//
// The kernel walks np panels to the right (b advancing bstride floats, c
// and bias 16 floats each). flags bit 0: start from c (accumulate); bit 1:
// add bias (16 floats per panel) to the start. Every call stores all six
// rows of 16 floats at c + r·ldc: the caller points ragged tiles at
// scratch.
#define STEP(boff, aoff) \
	VMOVUPS      boff(BX), Y12        \
	VMOVUPS      boff+32(BX), Y13     \
	VBROADCASTSS aoff(R8)(AX*1), Y14  \
	VFMADD231PS  Y12, Y14, Y0         \
	VFMADD231PS  Y13, Y14, Y1         \
	VBROADCASTSS aoff(R9)(AX*1), Y15  \
	VFMADD231PS  Y12, Y15, Y2         \
	VFMADD231PS  Y13, Y15, Y3         \
	VBROADCASTSS aoff(R10)(AX*1), Y14 \
	VFMADD231PS  Y12, Y14, Y4         \
	VFMADD231PS  Y13, Y14, Y5         \
	VBROADCASTSS aoff(R11)(AX*1), Y15 \
	VFMADD231PS  Y12, Y15, Y6         \
	VFMADD231PS  Y13, Y15, Y7         \
	VBROADCASTSS aoff(R12)(AX*1), Y14 \
	VFMADD231PS  Y12, Y14, Y8         \
	VFMADD231PS  Y13, Y14, Y9         \
	VBROADCASTSS aoff(R13)(AX*1), Y15 \
	VFMADD231PS  Y12, Y15, Y10        \
	VFMADD231PS  Y13, Y15, Y11

TEXT ·kern6x16(SB), NOSPLIT, $0-112
	MOVQ kc+80(FP), CX
	SHLQ $2, CX          // CX = bytes of depth in a row of a

	// Rows of a are biased to the end of the depth so the index AX runs
	// from -CX up to 0.
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
	MOVQ bias+96(FP), R15

panel:
	TESTQ $1, flags+104(FP)
	JEQ   zero
	LEAQ  (DI)(DX*2), AX
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS (DI)(DX*1), Y2
	VMOVUPS 32(DI)(DX*1), Y3
	VMOVUPS (AX), Y4
	VMOVUPS 32(AX), Y5
	VMOVUPS (AX)(DX*1), Y6
	VMOVUPS 32(AX)(DX*1), Y7
	LEAQ  (DI)(DX*4), AX
	VMOVUPS (AX), Y8
	VMOVUPS 32(AX), Y9
	VMOVUPS (AX)(DX*1), Y10
	VMOVUPS 32(AX)(DX*1), Y11
	TESTQ $2, flags+104(FP)
	JEQ   depth
	VMOVUPS (R15), Y12
	VMOVUPS 32(R15), Y13
	VADDPS  Y12, Y0, Y0
	VADDPS  Y13, Y1, Y1
	VADDPS  Y12, Y2, Y2
	VADDPS  Y13, Y3, Y3
	VADDPS  Y12, Y4, Y4
	VADDPS  Y13, Y5, Y5
	VADDPS  Y12, Y6, Y6
	VADDPS  Y13, Y7, Y7
	VADDPS  Y12, Y8, Y8
	VADDPS  Y13, Y9, Y9
	VADDPS  Y12, Y10, Y10
	VADDPS  Y13, Y11, Y11
	JMP     depth

zero:
	TESTQ $2, flags+104(FP)
	JEQ   clear
	VMOVUPS (R15), Y0
	VMOVUPS 32(R15), Y1
	VMOVAPS Y0, Y2
	VMOVAPS Y1, Y3
	VMOVAPS Y0, Y4
	VMOVAPS Y1, Y5
	VMOVAPS Y0, Y6
	VMOVAPS Y1, Y7
	VMOVAPS Y0, Y8
	VMOVAPS Y1, Y9
	VMOVAPS Y0, Y10
	VMOVAPS Y1, Y11
	JMP     depth

clear:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

depth:
	MOVQ SI, BX
	MOVQ CX, AX
	NEGQ AX
	ADDQ $16, AX         // AX ≤ 0: four steps remain (a index is AX-16)
	JGT  rem

loop4:
	STEP(0, -16)
	STEP(64, -12)
	STEP(128, -8)
	STEP(192, -4)
	ADDQ $256, BX
	ADDQ $16, AX
	JLE  loop4

rem:
	SUBQ $16, AX
	JEQ  store

loop1:
	STEP(0, 0)
	ADDQ $64, BX
	ADDQ $4, AX
	JNE  loop1

store:
	LEAQ    (DI)(DX*2), AX
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

	MOVQ bstride+56(FP), AX
	SHLQ $2, AX
	ADDQ AX, SI
	ADDQ $64, DI
	ADDQ $64, R15
	DECQ R14
	JNE  panel
	VZEROUPPER
	RET

// func kern3x16(a0, a1, a2, a3, a4, a5, b *float32, bstride int, c *float32, ldc, kc, np int, bias *float32, flags int)
//
// kern6x16 for three rows (a3..a5 unused): a short last tile (a query of
// 13 tokens is 6+6+1 rows) then wastes at most two rows of work, not five.
#define STEP3(boff, aoff) \
	VMOVUPS      boff(BX), Y12        \
	VMOVUPS      boff+32(BX), Y13     \
	VBROADCASTSS aoff(R8)(AX*1), Y14  \
	VFMADD231PS  Y12, Y14, Y0         \
	VFMADD231PS  Y13, Y14, Y1         \
	VBROADCASTSS aoff(R9)(AX*1), Y15  \
	VFMADD231PS  Y12, Y15, Y2         \
	VFMADD231PS  Y13, Y15, Y3         \
	VBROADCASTSS aoff(R10)(AX*1), Y14 \
	VFMADD231PS  Y12, Y14, Y4         \
	VFMADD231PS  Y13, Y14, Y5

TEXT ·kern3x16(SB), NOSPLIT, $0-112
	MOVQ kc+80(FP), CX
	SHLQ $2, CX
	MOVQ a0+0(FP), R8
	ADDQ CX, R8
	MOVQ a1+8(FP), R9
	ADDQ CX, R9
	MOVQ a2+16(FP), R10
	ADDQ CX, R10
	MOVQ b+48(FP), SI
	MOVQ c+64(FP), DI
	MOVQ ldc+72(FP), DX
	SHLQ $2, DX
	MOVQ np+88(FP), R14
	MOVQ bias+96(FP), R15

panel3:
	TESTQ $1, flags+104(FP)
	JEQ   zero3
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS (DI)(DX*1), Y2
	VMOVUPS 32(DI)(DX*1), Y3
	VMOVUPS (DI)(DX*2), Y4
	VMOVUPS 32(DI)(DX*2), Y5
	TESTQ $2, flags+104(FP)
	JEQ   depth3
	VMOVUPS (R15), Y12
	VMOVUPS 32(R15), Y13
	VADDPS  Y12, Y0, Y0
	VADDPS  Y13, Y1, Y1
	VADDPS  Y12, Y2, Y2
	VADDPS  Y13, Y3, Y3
	VADDPS  Y12, Y4, Y4
	VADDPS  Y13, Y5, Y5
	JMP     depth3

zero3:
	TESTQ $2, flags+104(FP)
	JEQ   clear3
	VMOVUPS (R15), Y0
	VMOVUPS 32(R15), Y1
	VMOVAPS Y0, Y2
	VMOVAPS Y1, Y3
	VMOVAPS Y0, Y4
	VMOVAPS Y1, Y5
	JMP     depth3

clear3:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5

depth3:
	MOVQ SI, BX
	MOVQ CX, AX
	NEGQ AX
	ADDQ $16, AX
	JGT  rem3

loop43:
	STEP3(0, -16)
	STEP3(64, -12)
	STEP3(128, -8)
	STEP3(192, -4)
	ADDQ $256, BX
	ADDQ $16, AX
	JLE  loop43

rem3:
	SUBQ $16, AX
	JEQ  store3

loop13:
	STEP3(0, 0)
	ADDQ $64, BX
	ADDQ $4, AX
	JNE  loop13

store3:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, (DI)(DX*1)
	VMOVUPS Y3, 32(DI)(DX*1)
	VMOVUPS Y4, (DI)(DX*2)
	VMOVUPS Y5, 32(DI)(DX*2)

	MOVQ bstride+56(FP), AX
	SHLQ $2, AX
	ADDQ AX, SI
	ADDQ $64, DI
	ADDQ $64, R15
	DECQ R14
	JNE  panel3
	VZEROUPPER
	RET

// kern6x16h and kern3x16h are kern6x16 and kern3x16 over panels of fp16
// weights (b *uint16, bstride in halves): VCVTPH2PS widens each row of 16
// exactly. The weights are fp16 in the model file, so the products are
// the same, and a query, whose time goes to streaming the weights from
// memory, moves half the bytes (21 MB instead of 42, which fits L3).
#define STEPH(boff, aoff) \
	VCVTPH2PS    boff(BX), Y12        \
	VCVTPH2PS    boff+16(BX), Y13     \
	VBROADCASTSS aoff(R8)(AX*1), Y14  \
	VFMADD231PS  Y12, Y14, Y0         \
	VFMADD231PS  Y13, Y14, Y1         \
	VBROADCASTSS aoff(R9)(AX*1), Y15  \
	VFMADD231PS  Y12, Y15, Y2         \
	VFMADD231PS  Y13, Y15, Y3         \
	VBROADCASTSS aoff(R10)(AX*1), Y14 \
	VFMADD231PS  Y12, Y14, Y4         \
	VFMADD231PS  Y13, Y14, Y5         \
	VBROADCASTSS aoff(R11)(AX*1), Y15 \
	VFMADD231PS  Y12, Y15, Y6         \
	VFMADD231PS  Y13, Y15, Y7         \
	VBROADCASTSS aoff(R12)(AX*1), Y14 \
	VFMADD231PS  Y12, Y14, Y8         \
	VFMADD231PS  Y13, Y14, Y9         \
	VBROADCASTSS aoff(R13)(AX*1), Y15 \
	VFMADD231PS  Y12, Y15, Y10        \
	VFMADD231PS  Y13, Y15, Y11

#define STEP3H(boff, aoff) \
	VCVTPH2PS    boff(BX), Y12        \
	VCVTPH2PS    boff+16(BX), Y13     \
	VBROADCASTSS aoff(R8)(AX*1), Y14  \
	VFMADD231PS  Y12, Y14, Y0         \
	VFMADD231PS  Y13, Y14, Y1         \
	VBROADCASTSS aoff(R9)(AX*1), Y15  \
	VFMADD231PS  Y12, Y15, Y2         \
	VFMADD231PS  Y13, Y15, Y3         \
	VBROADCASTSS aoff(R10)(AX*1), Y14 \
	VFMADD231PS  Y12, Y14, Y4         \
	VFMADD231PS  Y13, Y14, Y5

TEXT ·kern6x16h(SB), NOSPLIT, $0-112
	MOVQ kc+80(FP), CX
	SHLQ $2, CX          // CX = bytes of depthh in a row of a

	// Rows of a are biased to the end of the depthh so the index AX runs
	// from -CX up to 0.
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
	MOVQ bias+96(FP), R15

panelh:
	TESTQ $1, flags+104(FP)
	JEQ   zeroh
	LEAQ  (DI)(DX*2), AX
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS (DI)(DX*1), Y2
	VMOVUPS 32(DI)(DX*1), Y3
	VMOVUPS (AX), Y4
	VMOVUPS 32(AX), Y5
	VMOVUPS (AX)(DX*1), Y6
	VMOVUPS 32(AX)(DX*1), Y7
	LEAQ  (DI)(DX*4), AX
	VMOVUPS (AX), Y8
	VMOVUPS 32(AX), Y9
	VMOVUPS (AX)(DX*1), Y10
	VMOVUPS 32(AX)(DX*1), Y11
	TESTQ $2, flags+104(FP)
	JEQ   depthh
	VMOVUPS (R15), Y12
	VMOVUPS 32(R15), Y13
	VADDPS  Y12, Y0, Y0
	VADDPS  Y13, Y1, Y1
	VADDPS  Y12, Y2, Y2
	VADDPS  Y13, Y3, Y3
	VADDPS  Y12, Y4, Y4
	VADDPS  Y13, Y5, Y5
	VADDPS  Y12, Y6, Y6
	VADDPS  Y13, Y7, Y7
	VADDPS  Y12, Y8, Y8
	VADDPS  Y13, Y9, Y9
	VADDPS  Y12, Y10, Y10
	VADDPS  Y13, Y11, Y11
	JMP     depthh

zeroh:
	TESTQ $2, flags+104(FP)
	JEQ   clearh
	VMOVUPS (R15), Y0
	VMOVUPS 32(R15), Y1
	VMOVAPS Y0, Y2
	VMOVAPS Y1, Y3
	VMOVAPS Y0, Y4
	VMOVAPS Y1, Y5
	VMOVAPS Y0, Y6
	VMOVAPS Y1, Y7
	VMOVAPS Y0, Y8
	VMOVAPS Y1, Y9
	VMOVAPS Y0, Y10
	VMOVAPS Y1, Y11
	JMP     depthh

clearh:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

depthh:
	MOVQ SI, BX
	MOVQ CX, AX
	NEGQ AX
	ADDQ $16, AX         // AX ≤ 0: four steps remain (a index is AX-16)
	JGT  remh

loop4h:
	STEPH(0, -16)
	STEPH(32, -12)
	STEPH(64, -8)
	STEPH(96, -4)
	ADDQ $128, BX
	ADDQ $16, AX
	JLE  loop4h

remh:
	SUBQ $16, AX
	JEQ  storeh

loop1h:
	STEPH(0, 0)
	ADDQ $32, BX
	ADDQ $4, AX
	JNE  loop1h

storeh:
	LEAQ    (DI)(DX*2), AX
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

	MOVQ bstride+56(FP), AX
	SHLQ $1, AX
	ADDQ AX, SI
	ADDQ $64, DI
	ADDQ $64, R15
	DECQ R14
	JNE  panelh
	VZEROUPPER
	RET

TEXT ·kern3x16h(SB), NOSPLIT, $0-112
	MOVQ kc+80(FP), CX
	SHLQ $2, CX
	MOVQ a0+0(FP), R8
	ADDQ CX, R8
	MOVQ a1+8(FP), R9
	ADDQ CX, R9
	MOVQ a2+16(FP), R10
	ADDQ CX, R10
	MOVQ b+48(FP), SI
	MOVQ c+64(FP), DI
	MOVQ ldc+72(FP), DX
	SHLQ $2, DX
	MOVQ np+88(FP), R14
	MOVQ bias+96(FP), R15

panel3h:
	TESTQ $1, flags+104(FP)
	JEQ   zero3h
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS (DI)(DX*1), Y2
	VMOVUPS 32(DI)(DX*1), Y3
	VMOVUPS (DI)(DX*2), Y4
	VMOVUPS 32(DI)(DX*2), Y5
	TESTQ $2, flags+104(FP)
	JEQ   depth3h
	VMOVUPS (R15), Y12
	VMOVUPS 32(R15), Y13
	VADDPS  Y12, Y0, Y0
	VADDPS  Y13, Y1, Y1
	VADDPS  Y12, Y2, Y2
	VADDPS  Y13, Y3, Y3
	VADDPS  Y12, Y4, Y4
	VADDPS  Y13, Y5, Y5
	JMP     depth3h

zero3h:
	TESTQ $2, flags+104(FP)
	JEQ   clear3h
	VMOVUPS (R15), Y0
	VMOVUPS 32(R15), Y1
	VMOVAPS Y0, Y2
	VMOVAPS Y1, Y3
	VMOVAPS Y0, Y4
	VMOVAPS Y1, Y5
	JMP     depth3h

clear3h:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5

depth3h:
	MOVQ SI, BX
	MOVQ CX, AX
	NEGQ AX
	ADDQ $16, AX
	JGT  rem3h

loop43h:
	STEP3H(0, -16)
	STEP3H(32, -12)
	STEP3H(64, -8)
	STEP3H(96, -4)
	ADDQ $128, BX
	ADDQ $16, AX
	JLE  loop43h

rem3h:
	SUBQ $16, AX
	JEQ  store3h

loop13h:
	STEP3H(0, 0)
	ADDQ $32, BX
	ADDQ $4, AX
	JNE  loop13h

store3h:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, (DI)(DX*1)
	VMOVUPS Y3, 32(DI)(DX*1)
	VMOVUPS Y4, (DI)(DX*2)
	VMOVUPS Y5, 32(DI)(DX*2)

	MOVQ bstride+56(FP), AX
	SHLQ $1, AX
	ADDQ AX, SI
	ADDQ $64, DI
	ADDQ $64, R15
	DECQ R14
	JNE  panel3h
	VZEROUPPER
	RET

// func cpuid1ECX() uint32
TEXT ·cpuid1ECX(SB), NOSPLIT, $0-4
	MOVL $1, AX
	XORL CX, CX
	CPUID
	MOVL CX, ret+0(FP)
	RET
