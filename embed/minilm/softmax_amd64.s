#include "textflag.h"

// Constants of softmaxExpAVX2, each in 8 lanes so instructions can take
// them straight from memory. p0..p5 are Cephes' expf polynomial (relative
// error ~1e-7 on [-ln2/2, ln2/2]); ln2 is split in two for an exact reduction.
// log2e at 0
DATA smc<>+0(SB)/4, $0x3fb8aa3b
DATA smc<>+4(SB)/4, $0x3fb8aa3b
DATA smc<>+8(SB)/4, $0x3fb8aa3b
DATA smc<>+12(SB)/4, $0x3fb8aa3b
DATA smc<>+16(SB)/4, $0x3fb8aa3b
DATA smc<>+20(SB)/4, $0x3fb8aa3b
DATA smc<>+24(SB)/4, $0x3fb8aa3b
DATA smc<>+28(SB)/4, $0x3fb8aa3b
// ln2hi at 32
DATA smc<>+32(SB)/4, $0x3f318000
DATA smc<>+36(SB)/4, $0x3f318000
DATA smc<>+40(SB)/4, $0x3f318000
DATA smc<>+44(SB)/4, $0x3f318000
DATA smc<>+48(SB)/4, $0x3f318000
DATA smc<>+52(SB)/4, $0x3f318000
DATA smc<>+56(SB)/4, $0x3f318000
DATA smc<>+60(SB)/4, $0x3f318000
// ln2lo at 64
DATA smc<>+64(SB)/4, $0xb95e8083
DATA smc<>+68(SB)/4, $0xb95e8083
DATA smc<>+72(SB)/4, $0xb95e8083
DATA smc<>+76(SB)/4, $0xb95e8083
DATA smc<>+80(SB)/4, $0xb95e8083
DATA smc<>+84(SB)/4, $0xb95e8083
DATA smc<>+88(SB)/4, $0xb95e8083
DATA smc<>+92(SB)/4, $0xb95e8083
// p5 at 96
DATA smc<>+96(SB)/4, $0x39506967
DATA smc<>+100(SB)/4, $0x39506967
DATA smc<>+104(SB)/4, $0x39506967
DATA smc<>+108(SB)/4, $0x39506967
DATA smc<>+112(SB)/4, $0x39506967
DATA smc<>+116(SB)/4, $0x39506967
DATA smc<>+120(SB)/4, $0x39506967
DATA smc<>+124(SB)/4, $0x39506967
// p4 at 128
DATA smc<>+128(SB)/4, $0x3ab743ce
DATA smc<>+132(SB)/4, $0x3ab743ce
DATA smc<>+136(SB)/4, $0x3ab743ce
DATA smc<>+140(SB)/4, $0x3ab743ce
DATA smc<>+144(SB)/4, $0x3ab743ce
DATA smc<>+148(SB)/4, $0x3ab743ce
DATA smc<>+152(SB)/4, $0x3ab743ce
DATA smc<>+156(SB)/4, $0x3ab743ce
// p3 at 160
DATA smc<>+160(SB)/4, $0x3c088908
DATA smc<>+164(SB)/4, $0x3c088908
DATA smc<>+168(SB)/4, $0x3c088908
DATA smc<>+172(SB)/4, $0x3c088908
DATA smc<>+176(SB)/4, $0x3c088908
DATA smc<>+180(SB)/4, $0x3c088908
DATA smc<>+184(SB)/4, $0x3c088908
DATA smc<>+188(SB)/4, $0x3c088908
// p2 at 192
DATA smc<>+192(SB)/4, $0x3d2aa9c1
DATA smc<>+196(SB)/4, $0x3d2aa9c1
DATA smc<>+200(SB)/4, $0x3d2aa9c1
DATA smc<>+204(SB)/4, $0x3d2aa9c1
DATA smc<>+208(SB)/4, $0x3d2aa9c1
DATA smc<>+212(SB)/4, $0x3d2aa9c1
DATA smc<>+216(SB)/4, $0x3d2aa9c1
DATA smc<>+220(SB)/4, $0x3d2aa9c1
// p1 at 224
DATA smc<>+224(SB)/4, $0x3e2aaaaa
DATA smc<>+228(SB)/4, $0x3e2aaaaa
DATA smc<>+232(SB)/4, $0x3e2aaaaa
DATA smc<>+236(SB)/4, $0x3e2aaaaa
DATA smc<>+240(SB)/4, $0x3e2aaaaa
DATA smc<>+244(SB)/4, $0x3e2aaaaa
DATA smc<>+248(SB)/4, $0x3e2aaaaa
DATA smc<>+252(SB)/4, $0x3e2aaaaa
// p0 at 256
DATA smc<>+256(SB)/4, $0x3f000000
DATA smc<>+260(SB)/4, $0x3f000000
DATA smc<>+264(SB)/4, $0x3f000000
DATA smc<>+268(SB)/4, $0x3f000000
DATA smc<>+272(SB)/4, $0x3f000000
DATA smc<>+276(SB)/4, $0x3f000000
DATA smc<>+280(SB)/4, $0x3f000000
DATA smc<>+284(SB)/4, $0x3f000000
// one at 288
DATA smc<>+288(SB)/4, $0x3f800000
DATA smc<>+292(SB)/4, $0x3f800000
DATA smc<>+296(SB)/4, $0x3f800000
DATA smc<>+300(SB)/4, $0x3f800000
DATA smc<>+304(SB)/4, $0x3f800000
DATA smc<>+308(SB)/4, $0x3f800000
DATA smc<>+312(SB)/4, $0x3f800000
DATA smc<>+316(SB)/4, $0x3f800000
// xmin at 320
DATA smc<>+320(SB)/4, $0xc2ae0000
DATA smc<>+324(SB)/4, $0xc2ae0000
DATA smc<>+328(SB)/4, $0xc2ae0000
DATA smc<>+332(SB)/4, $0xc2ae0000
DATA smc<>+336(SB)/4, $0xc2ae0000
DATA smc<>+340(SB)/4, $0xc2ae0000
DATA smc<>+344(SB)/4, $0xc2ae0000
DATA smc<>+348(SB)/4, $0xc2ae0000
// bias127 at 352
DATA smc<>+352(SB)/4, $0x0000007f
DATA smc<>+356(SB)/4, $0x0000007f
DATA smc<>+360(SB)/4, $0x0000007f
DATA smc<>+364(SB)/4, $0x0000007f
DATA smc<>+368(SB)/4, $0x0000007f
DATA smc<>+372(SB)/4, $0x0000007f
DATA smc<>+376(SB)/4, $0x0000007f
DATA smc<>+380(SB)/4, $0x0000007f
// neginf at 384
DATA smc<>+384(SB)/4, $0xff800000
DATA smc<>+388(SB)/4, $0xff800000
DATA smc<>+392(SB)/4, $0xff800000
DATA smc<>+396(SB)/4, $0xff800000
DATA smc<>+400(SB)/4, $0xff800000
DATA smc<>+404(SB)/4, $0xff800000
DATA smc<>+408(SB)/4, $0xff800000
DATA smc<>+412(SB)/4, $0xff800000
GLOBL smc<>(SB), RODATA|NOPTR, $416

// EXPBLOCK: Y0 = exp((Y0-Y15)·Y12) for arguments ≤ 0, clamped below at
// -87 (e^-87 is still a normal float32). Clobbers Y1-Y3.
#define EXPBLOCK \
	VSUBPS      Y15, Y0, Y0; \
	VMULPS      Y12, Y0, Y0; \
	VMAXPS      smc<>+320(SB), Y0, Y0; \
	VMULPS      smc<>+0(SB), Y0, Y1; \
	VROUNDPS    $0, Y1, Y1; \
	VFNMADD231PS smc<>+32(SB), Y1, Y0; \
	VFNMADD231PS smc<>+64(SB), Y1, Y0; \
	VMOVUPS     smc<>+96(SB), Y2; \
	VFMADD213PS smc<>+128(SB), Y0, Y2; \
	VFMADD213PS smc<>+160(SB), Y0, Y2; \
	VFMADD213PS smc<>+192(SB), Y0, Y2; \
	VFMADD213PS smc<>+224(SB), Y0, Y2; \
	VFMADD213PS smc<>+256(SB), Y0, Y2; \
	VMULPS      Y0, Y0, Y3; \
	VFMADD213PS Y0, Y3, Y2; \
	VADDPS      smc<>+288(SB), Y2, Y2; \
	VCVTPS2DQ   Y1, Y1; \
	VPADDD      smc<>+352(SB), Y1, Y1; \
	VPSLLD      $23, Y1, Y1; \
	VMULPS      Y1, Y2, Y0;

// func softmaxExpAVX2(row *float32, n int, mask *int32, scale float32) (sum float32)
//
// The unnormalised softmax of row[:n]: row[j] = exp((row[j]-max)·scale),
// returning the sum. row holds n rounded up to a multiple of 8 floats; the
// lanes past n are set to 0 (mask has the first n%8 lanes set). The caller
// divides by the sum where it is cheaper (on p·v's 32-wide output rows).
TEXT ·softmaxExpAVX2(SB), NOSPLIT, $0-36
	MOVQ row+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ CX, DX
	ANDQ $7, DX            // DX = n%8: lanes in the masked last block
	ANDQ $-8, CX
	SHLQ $2, CX            // CX = bytes in full blocks
	VMOVUPS smc<>+384(SB), Y15
	XORQ AX, AX
	CMPQ AX, CX
	JEQ  maxtail

maxloop:
	VMAXPS (DI)(AX*1), Y15, Y15
	ADDQ   $32, AX
	CMPQ   AX, CX
	JNE    maxloop

maxtail:
	TESTQ DX, DX
	JEQ   hmax
	MOVQ  mask+16(FP), R8
	VMOVUPS (R8), Y14
	VMOVUPS (DI)(CX*1), Y1
	VBLENDVPS Y14, Y1, Y15, Y1 // lanes past n: -inf
	VMAXPS  Y1, Y15, Y15

hmax:
	VEXTRACTF128 $1, Y15, X0
	VMAXPS       X0, X15, X15
	VPERMILPS    $0x4e, X15, X0
	VMAXPS       X0, X15, X15
	VPERMILPS    $0xb1, X15, X0
	VMAXPS       X0, X15, X15
	VBROADCASTSS X15, Y15      // max
	VBROADCASTSS scale+24(FP), Y12
	VXORPS       Y13, Y13, Y13 // sum
	XORQ         AX, AX
	CMPQ         AX, CX
	JEQ          exptail

exploop:
	VMOVUPS (DI)(AX*1), Y0
	EXPBLOCK
	VADDPS  Y0, Y13, Y13
	VMOVUPS Y0, (DI)(AX*1)
	ADDQ    $32, AX
	CMPQ    AX, CX
	JNE     exploop

exptail:
	TESTQ DX, DX
	JEQ   done
	VMOVUPS (DI)(AX*1), Y0
	EXPBLOCK
	VANDPS  Y14, Y0, Y0 // lanes past n: 0
	VADDPS  Y0, Y13, Y13
	VMOVUPS Y0, (DI)(AX*1)

done:
	VEXTRACTF128 $1, Y13, X0
	VADDPS       X0, X13, X13
	VHADDPS      X13, X13, X13
	VHADDPS      X13, X13, X13
	MOVSS        X13, sum+32(FP)
	VZEROUPPER
	RET
