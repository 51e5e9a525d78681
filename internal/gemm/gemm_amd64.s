#include "textflag.h"

// func kern3x4(a0, a1, a2, b *float32, ldb int, c0, c1, c2 *float32, kc, nc, acc int, kmask, nmask *int32)
//
// Dot-product micro-kernel. MatMulT's operands are both contiguous along k,
// so instead of packing and broadcasting, each 3×4 tile of c is built from
// twelve YMM accumulators (8 partial sums along k each) over rows a0..a2 of
// a and four consecutive rows of b (stride ldb floats), then reduced
// horizontally. Per 8 floats of depth, 7 loads feed 12 FMAs: enough work to
// keep both FMA pipes busy from L1.
//
// The kernel walks ⌈nc/4⌉ tiles to the right (b advancing 4 rows per tile).
// kc%8 trailing elements are loaded with kmask (a is never over-read; the
// caller zero pads b). A last partial tile (nc%4 columns) is stored with
// nmask. acc != 0 adds to c instead of overwriting it.
TEXT ·kern3x4(SB), NOSPLIT, $0-104
	MOVQ kc+64(FP), CX
	ANDQ $-8, CX
	SHLQ $2, CX           // CX = bytes in the 8-aligned body

	// Row pointers are biased to the end of the body so the index AX can run
	// from -CX up to 0 and the loop needs no compare.
	MOVQ a0+0(FP), SI
	ADDQ CX, SI
	MOVQ a1+8(FP), R8
	ADDQ CX, R8
	MOVQ a2+16(FP), R9
	ADDQ CX, R9
	MOVQ ldb+32(FP), BX
	SHLQ $2, BX
	MOVQ b+24(FP), DI
	ADDQ CX, DI
	LEAQ (DI)(BX*1), R10
	LEAQ (R10)(BX*1), R11
	LEAQ (R11)(BX*1), R12
	SHLQ $2, BX           // BX = bytes from one tile of b to the next
	MOVQ c0+40(FP), R13
	MOVQ c1+48(FP), R14
	MOVQ c2+56(FP), R15
	MOVQ nc+72(FP), DX

tile:
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
	MOVQ   CX, AX
	NEGQ   AX
	TESTQ  $32, CX
	JEQ    even

	// Odd number of 8-float steps: do one so the rest pairs up.
	VMOVUPS     (SI)(AX*1), Y12
	VMOVUPS     (R8)(AX*1), Y13
	VMOVUPS     (R9)(AX*1), Y14
	VMOVUPS     (DI)(AX*1), Y15
	VFMADD231PS Y15, Y12, Y0
	VFMADD231PS Y15, Y13, Y4
	VFMADD231PS Y15, Y14, Y8
	VMOVUPS     (R10)(AX*1), Y15
	VFMADD231PS Y15, Y12, Y1
	VFMADD231PS Y15, Y13, Y5
	VFMADD231PS Y15, Y14, Y9
	VMOVUPS     (R11)(AX*1), Y15
	VFMADD231PS Y15, Y12, Y2
	VFMADD231PS Y15, Y13, Y6
	VFMADD231PS Y15, Y14, Y10
	VMOVUPS     (R12)(AX*1), Y15
	VFMADD231PS Y15, Y12, Y3
	VFMADD231PS Y15, Y13, Y7
	VFMADD231PS Y15, Y14, Y11
	ADDQ        $32, AX

even:
	TESTQ AX, AX
	JEQ   tail

loop:
	VMOVUPS     (SI)(AX*1), Y12
	VMOVUPS     (R8)(AX*1), Y13
	VMOVUPS     (R9)(AX*1), Y14
	VMOVUPS     (DI)(AX*1), Y15
	VFMADD231PS Y15, Y12, Y0
	VFMADD231PS Y15, Y13, Y4
	VFMADD231PS Y15, Y14, Y8
	VMOVUPS     (R10)(AX*1), Y15
	VFMADD231PS Y15, Y12, Y1
	VFMADD231PS Y15, Y13, Y5
	VFMADD231PS Y15, Y14, Y9
	VMOVUPS     (R11)(AX*1), Y15
	VFMADD231PS Y15, Y12, Y2
	VFMADD231PS Y15, Y13, Y6
	VFMADD231PS Y15, Y14, Y10
	VMOVUPS     (R12)(AX*1), Y15
	VFMADD231PS Y15, Y12, Y3
	VFMADD231PS Y15, Y13, Y7
	VFMADD231PS Y15, Y14, Y11
	VMOVUPS     32(SI)(AX*1), Y12
	VMOVUPS     32(R8)(AX*1), Y13
	VMOVUPS     32(R9)(AX*1), Y14
	VMOVUPS     32(DI)(AX*1), Y15
	VFMADD231PS Y15, Y12, Y0
	VFMADD231PS Y15, Y13, Y4
	VFMADD231PS Y15, Y14, Y8
	VMOVUPS     32(R10)(AX*1), Y15
	VFMADD231PS Y15, Y12, Y1
	VFMADD231PS Y15, Y13, Y5
	VFMADD231PS Y15, Y14, Y9
	VMOVUPS     32(R11)(AX*1), Y15
	VFMADD231PS Y15, Y12, Y2
	VFMADD231PS Y15, Y13, Y6
	VFMADD231PS Y15, Y14, Y10
	VMOVUPS     32(R12)(AX*1), Y15
	VFMADD231PS Y15, Y12, Y3
	VFMADD231PS Y15, Y13, Y7
	VFMADD231PS Y15, Y14, Y11
	ADDQ        $64, AX
	JNE         loop

tail:
	MOVQ kc+64(FP), AX
	ANDQ $7, AX
	JEQ  reduce

	// kc%8 leftover: masked a (zeros past the row end) times zero-padded b.
	MOVQ        kmask+88(FP), AX
	VMOVUPS     (AX), Y15
	VMASKMOVPS  (SI), Y15, Y12
	VMASKMOVPS  (R8), Y15, Y13
	VMASKMOVPS  (R9), Y15, Y14
	VFMADD231PS (DI), Y12, Y0
	VFMADD231PS (DI), Y13, Y4
	VFMADD231PS (DI), Y14, Y8
	VFMADD231PS (R10), Y12, Y1
	VFMADD231PS (R10), Y13, Y5
	VFMADD231PS (R10), Y14, Y9
	VFMADD231PS (R11), Y12, Y2
	VFMADD231PS (R11), Y13, Y6
	VFMADD231PS (R11), Y14, Y10
	VFMADD231PS (R12), Y12, Y3
	VFMADD231PS (R12), Y13, Y7
	VFMADD231PS (R12), Y14, Y11

reduce:
	// hadd(hadd(x0,x1), hadd(x2,x3)) leaves the four dot products split
	// across the two 128-bit lanes; adding the lanes gives [s0 s1 s2 s3].
	VHADDPS      Y1, Y0, Y0
	VHADDPS      Y3, Y2, Y2
	VHADDPS      Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      Y5, Y4, Y4
	VHADDPS      Y7, Y6, Y6
	VHADDPS      Y6, Y4, Y4
	VEXTRACTF128 $1, Y4, X5
	VADDPS       X5, X4, X4
	VHADDPS      Y9, Y8, Y8
	VHADDPS      Y11, Y10, Y10
	VHADDPS      Y10, Y8, Y8
	VEXTRACTF128 $1, Y8, X9
	VADDPS       X9, X8, X8

	CMPQ DX, $4
	JLT  partial
	CMPQ acc+80(FP), $0
	JEQ  store4
	VADDPS (R13), X0, X0
	VADDPS (R14), X4, X4
	VADDPS (R15), X8, X8

store4:
	VMOVUPS X0, (R13)
	VMOVUPS X4, (R14)
	VMOVUPS X8, (R15)
	ADDQ    $16, R13
	ADDQ    $16, R14
	ADDQ    $16, R15
	ADDQ    BX, DI
	ADDQ    BX, R10
	ADDQ    BX, R11
	ADDQ    BX, R12
	SUBQ    $4, DX
	JGT     tile
	VZEROUPPER
	RET

partial:
	// Fewer than 4 columns left: masked load/store so c is not over-run.
	MOVQ       nmask+96(FP), AX
	VMOVUPS    (AX), X15
	CMPQ       acc+80(FP), $0
	JEQ        storem
	VMASKMOVPS (R13), X15, X1
	VADDPS     X1, X0, X0
	VMASKMOVPS (R14), X15, X5
	VADDPS     X5, X4, X4
	VMASKMOVPS (R15), X15, X9
	VADDPS     X9, X8, X8

storem:
	VMASKMOVPS X0, X15, (R13)
	VMASKMOVPS X4, X15, (R14)
	VMASKMOVPS X8, X15, (R15)
	VZEROUPPER
	RET
