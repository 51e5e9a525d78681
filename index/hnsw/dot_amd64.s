#include "textflag.h"

// func dotAVX(a, b *float32, n int) float32
//
// Sums a[i]*b[i] over the first n&^7 elements (the caller adds the tail).
// Four accumulators cover the FMA latency; one operand of each FMA comes
// straight from memory, so a 32-float step is 4 loads and 4 FMAs.
TEXT ·dotAVX(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ AX, AX
	SHLQ $2, CX
	MOVQ CX, DX
	ANDQ $-128, DX // bytes in the 32-float body
	ANDQ $-32, CX  // bytes in the 8-float body

loop32:
	CMPQ AX, DX
	JGE  loop8
	VMOVUPS (SI)(AX*1), Y4
	VMOVUPS 32(SI)(AX*1), Y5
	VMOVUPS 64(SI)(AX*1), Y6
	VMOVUPS 96(SI)(AX*1), Y7
	VFMADD231PS (DI)(AX*1), Y4, Y0
	VFMADD231PS 32(DI)(AX*1), Y5, Y1
	VFMADD231PS 64(DI)(AX*1), Y6, Y2
	VFMADD231PS 96(DI)(AX*1), Y7, Y3
	ADDQ $128, AX
	JMP  loop32

loop8:
	CMPQ AX, CX
	JGE  done
	VMOVUPS (SI)(AX*1), Y4
	VFMADD231PS (DI)(AX*1), Y4, Y0
	ADDQ $32, AX
	JMP  loop8

done:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dot4AVX(q, a, b, c, d *float32, n int, out *[4]float32)
//
// out = q·a, q·b, q·c, q·d over the first n&^7 elements. Graph search
// scores a node's neighbours together: four independent memory streams keep
// several cache misses in flight, and each load of q feeds four FMAs. Two
// accumulators per vector (8 in all) cover the FMA latency.
TEXT ·dot4AVX(SB), NOSPLIT, $0-56
	MOVQ q+0(FP), SI
	MOVQ a+8(FP), R8
	MOVQ b+16(FP), R9
	MOVQ c+24(FP), R10
	MOVQ d+32(FP), R11
	MOVQ n+40(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ AX, AX
	SHLQ $2, CX
	MOVQ CX, DX
	ANDQ $-64, DX // bytes in the 16-float body
	ANDQ $-32, CX // bytes in the 8-float body

loop16:
	CMPQ AX, DX
	JGE  tail8
	VMOVUPS (SI)(AX*1), Y8
	VMOVUPS 32(SI)(AX*1), Y9
	VFMADD231PS (R8)(AX*1), Y8, Y0
	VFMADD231PS (R9)(AX*1), Y8, Y1
	VFMADD231PS (R10)(AX*1), Y8, Y2
	VFMADD231PS (R11)(AX*1), Y8, Y3
	VFMADD231PS 32(R8)(AX*1), Y9, Y4
	VFMADD231PS 32(R9)(AX*1), Y9, Y5
	VFMADD231PS 32(R10)(AX*1), Y9, Y6
	VFMADD231PS 32(R11)(AX*1), Y9, Y7
	ADDQ $64, AX
	JMP  loop16

tail8:
	CMPQ AX, CX
	JGE  reduce
	VMOVUPS (SI)(AX*1), Y8
	VFMADD231PS (R8)(AX*1), Y8, Y0
	VFMADD231PS (R9)(AX*1), Y8, Y1
	VFMADD231PS (R10)(AX*1), Y8, Y2
	VFMADD231PS (R11)(AX*1), Y8, Y3

reduce:
	VADDPS Y4, Y0, Y0
	VADDPS Y5, Y1, Y1
	VADDPS Y6, Y2, Y2
	VADDPS Y7, Y3, Y3
	VHADDPS Y1, Y0, Y0 // a01 a23 b01 b23 | a45 a67 b45 b67
	VHADDPS Y3, Y2, Y2 // c01 c23 d01 d23 | c45 c67 d45 d67
	VHADDPS Y2, Y0, Y0 // a0-3 b0-3 c0-3 d0-3 | a4-7 b4-7 c4-7 d4-7
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	MOVQ out+48(FP), DI
	VMOVUPS X0, (DI)
	VZEROUPPER
	RET
