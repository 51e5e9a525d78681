#include "textflag.h"

// Constants, each repeated in 8 lanes so that instructions can take them
// straight from memory. α/β are the odd numerator and even denominator of
// Eigen's float32 rational approximation of erf on [-4, 4] (|error| < 5e-7;
// outside it erf is ±1 in float32).
// 1/√2
DATA geluc<>+0(SB)/4, $0x3f3504f3
DATA geluc<>+4(SB)/4, $0x3f3504f3
DATA geluc<>+8(SB)/4, $0x3f3504f3
DATA geluc<>+12(SB)/4, $0x3f3504f3
DATA geluc<>+16(SB)/4, $0x3f3504f3
DATA geluc<>+20(SB)/4, $0x3f3504f3
DATA geluc<>+24(SB)/4, $0x3f3504f3
DATA geluc<>+28(SB)/4, $0x3f3504f3
// +4
DATA geluc<>+32(SB)/4, $0x40800000
DATA geluc<>+36(SB)/4, $0x40800000
DATA geluc<>+40(SB)/4, $0x40800000
DATA geluc<>+44(SB)/4, $0x40800000
DATA geluc<>+48(SB)/4, $0x40800000
DATA geluc<>+52(SB)/4, $0x40800000
DATA geluc<>+56(SB)/4, $0x40800000
DATA geluc<>+60(SB)/4, $0x40800000
// -4
DATA geluc<>+64(SB)/4, $0xc0800000
DATA geluc<>+68(SB)/4, $0xc0800000
DATA geluc<>+72(SB)/4, $0xc0800000
DATA geluc<>+76(SB)/4, $0xc0800000
DATA geluc<>+80(SB)/4, $0xc0800000
DATA geluc<>+84(SB)/4, $0xc0800000
DATA geluc<>+88(SB)/4, $0xc0800000
DATA geluc<>+92(SB)/4, $0xc0800000
// α13
DATA geluc<>+96(SB)/4, $0xaf95df0b
DATA geluc<>+100(SB)/4, $0xaf95df0b
DATA geluc<>+104(SB)/4, $0xaf95df0b
DATA geluc<>+108(SB)/4, $0xaf95df0b
DATA geluc<>+112(SB)/4, $0xaf95df0b
DATA geluc<>+116(SB)/4, $0xaf95df0b
DATA geluc<>+120(SB)/4, $0xaf95df0b
DATA geluc<>+124(SB)/4, $0xaf95df0b
// α11
DATA geluc<>+128(SB)/4, $0x32edffee
DATA geluc<>+132(SB)/4, $0x32edffee
DATA geluc<>+136(SB)/4, $0x32edffee
DATA geluc<>+140(SB)/4, $0x32edffee
DATA geluc<>+144(SB)/4, $0x32edffee
DATA geluc<>+148(SB)/4, $0x32edffee
DATA geluc<>+152(SB)/4, $0x32edffee
DATA geluc<>+156(SB)/4, $0x32edffee
// α9
DATA geluc<>+160(SB)/4, $0xb60cff51
DATA geluc<>+164(SB)/4, $0xb60cff51
DATA geluc<>+168(SB)/4, $0xb60cff51
DATA geluc<>+172(SB)/4, $0xb60cff51
DATA geluc<>+176(SB)/4, $0xb60cff51
DATA geluc<>+180(SB)/4, $0xb60cff51
DATA geluc<>+184(SB)/4, $0xb60cff51
DATA geluc<>+188(SB)/4, $0xb60cff51
// α7
DATA geluc<>+192(SB)/4, $0xb86ec2d2
DATA geluc<>+196(SB)/4, $0xb86ec2d2
DATA geluc<>+200(SB)/4, $0xb86ec2d2
DATA geluc<>+204(SB)/4, $0xb86ec2d2
DATA geluc<>+208(SB)/4, $0xb86ec2d2
DATA geluc<>+212(SB)/4, $0xb86ec2d2
DATA geluc<>+216(SB)/4, $0xb86ec2d2
DATA geluc<>+220(SB)/4, $0xb86ec2d2
// α5
DATA geluc<>+224(SB)/4, $0xba40ac63
DATA geluc<>+228(SB)/4, $0xba40ac63
DATA geluc<>+232(SB)/4, $0xba40ac63
DATA geluc<>+236(SB)/4, $0xba40ac63
DATA geluc<>+240(SB)/4, $0xba40ac63
DATA geluc<>+244(SB)/4, $0xba40ac63
DATA geluc<>+248(SB)/4, $0xba40ac63
DATA geluc<>+252(SB)/4, $0xba40ac63
// α3
DATA geluc<>+256(SB)/4, $0xbb41a1f6
DATA geluc<>+260(SB)/4, $0xbb41a1f6
DATA geluc<>+264(SB)/4, $0xbb41a1f6
DATA geluc<>+268(SB)/4, $0xbb41a1f6
DATA geluc<>+272(SB)/4, $0xbb41a1f6
DATA geluc<>+276(SB)/4, $0xbb41a1f6
DATA geluc<>+280(SB)/4, $0xbb41a1f6
DATA geluc<>+284(SB)/4, $0xbb41a1f6
// α1
DATA geluc<>+288(SB)/4, $0xbc83dbd4
DATA geluc<>+292(SB)/4, $0xbc83dbd4
DATA geluc<>+296(SB)/4, $0xbc83dbd4
DATA geluc<>+300(SB)/4, $0xbc83dbd4
DATA geluc<>+304(SB)/4, $0xbc83dbd4
DATA geluc<>+308(SB)/4, $0xbc83dbd4
DATA geluc<>+312(SB)/4, $0xbc83dbd4
DATA geluc<>+316(SB)/4, $0xbc83dbd4
// β8
DATA geluc<>+320(SB)/4, $0xb77460cd
DATA geluc<>+324(SB)/4, $0xb77460cd
DATA geluc<>+328(SB)/4, $0xb77460cd
DATA geluc<>+332(SB)/4, $0xb77460cd
DATA geluc<>+336(SB)/4, $0xb77460cd
DATA geluc<>+340(SB)/4, $0xb77460cd
DATA geluc<>+344(SB)/4, $0xb77460cd
DATA geluc<>+348(SB)/4, $0xb77460cd
// β6
DATA geluc<>+352(SB)/4, $0xb95fbd29
DATA geluc<>+356(SB)/4, $0xb95fbd29
DATA geluc<>+360(SB)/4, $0xb95fbd29
DATA geluc<>+364(SB)/4, $0xb95fbd29
DATA geluc<>+368(SB)/4, $0xb95fbd29
DATA geluc<>+372(SB)/4, $0xb95fbd29
DATA geluc<>+376(SB)/4, $0xb95fbd29
DATA geluc<>+380(SB)/4, $0xb95fbd29
// β4
DATA geluc<>+384(SB)/4, $0xbadc924e
DATA geluc<>+388(SB)/4, $0xbadc924e
DATA geluc<>+392(SB)/4, $0xbadc924e
DATA geluc<>+396(SB)/4, $0xbadc924e
DATA geluc<>+400(SB)/4, $0xbadc924e
DATA geluc<>+404(SB)/4, $0xbadc924e
DATA geluc<>+408(SB)/4, $0xbadc924e
DATA geluc<>+412(SB)/4, $0xbadc924e
// β2
DATA geluc<>+416(SB)/4, $0xbbf19bf8
DATA geluc<>+420(SB)/4, $0xbbf19bf8
DATA geluc<>+424(SB)/4, $0xbbf19bf8
DATA geluc<>+428(SB)/4, $0xbbf19bf8
DATA geluc<>+432(SB)/4, $0xbbf19bf8
DATA geluc<>+436(SB)/4, $0xbbf19bf8
DATA geluc<>+440(SB)/4, $0xbbf19bf8
DATA geluc<>+444(SB)/4, $0xbbf19bf8
// β0
DATA geluc<>+448(SB)/4, $0xbc69b6a7
DATA geluc<>+452(SB)/4, $0xbc69b6a7
DATA geluc<>+456(SB)/4, $0xbc69b6a7
DATA geluc<>+460(SB)/4, $0xbc69b6a7
DATA geluc<>+464(SB)/4, $0xbc69b6a7
DATA geluc<>+468(SB)/4, $0xbc69b6a7
DATA geluc<>+472(SB)/4, $0xbc69b6a7
DATA geluc<>+476(SB)/4, $0xbc69b6a7
// 0.5
DATA geluc<>+480(SB)/4, $0x3f000000
DATA geluc<>+484(SB)/4, $0x3f000000
DATA geluc<>+488(SB)/4, $0x3f000000
DATA geluc<>+492(SB)/4, $0x3f000000
DATA geluc<>+496(SB)/4, $0x3f000000
DATA geluc<>+500(SB)/4, $0x3f000000
DATA geluc<>+504(SB)/4, $0x3f000000
DATA geluc<>+508(SB)/4, $0x3f000000
GLOBL geluc<>(SB), RODATA|NOPTR, $512

// func geluAVX2(row, bias *float32, n int)
//
// row[j] = gelu(row[j] + bias[j]) for j < n, n a multiple of 16:
// gelu(x) = x/2·(1 + erf(x/√2)). Two vectors per step so the two Horner
// chains and divisions overlap.
TEXT ·geluAVX2(SB), NOSPLIT, $0-24
	MOVQ row+0(FP), DI
	MOVQ bias+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $2, CX
	ADDQ CX, DI
	ADDQ CX, SI
	NEGQ CX
	JEQ  done

loop:
	VMOVUPS (DI)(CX*1), Y0
	VMOVUPS 32(DI)(CX*1), Y8
	VADDPS  (SI)(CX*1), Y0, Y0 // x
	VADDPS  32(SI)(CX*1), Y8, Y8
	VMULPS  geluc<>+0(SB), Y0, Y1 // z = x/√2, clamped to [-4, 4]
	VMULPS  geluc<>+0(SB), Y8, Y9
	VMINPS  geluc<>+32(SB), Y1, Y1
	VMINPS  geluc<>+32(SB), Y9, Y9
	VMAXPS  geluc<>+64(SB), Y1, Y1
	VMAXPS  geluc<>+64(SB), Y9, Y9
	VMULPS  Y1, Y1, Y2 // z²
	VMULPS  Y9, Y9, Y10
	VMOVUPS geluc<>+96(SB), Y3 // numerator p(z²)
	VMOVUPS Y3, Y11
	VMOVUPS geluc<>+320(SB), Y4 // denominator q(z²)
	VMOVUPS Y4, Y12
	VFMADD213PS geluc<>+128(SB), Y2, Y3
	VFMADD213PS geluc<>+128(SB), Y10, Y11
	VFMADD213PS geluc<>+352(SB), Y2, Y4
	VFMADD213PS geluc<>+352(SB), Y10, Y12
	VFMADD213PS geluc<>+160(SB), Y2, Y3
	VFMADD213PS geluc<>+160(SB), Y10, Y11
	VFMADD213PS geluc<>+384(SB), Y2, Y4
	VFMADD213PS geluc<>+384(SB), Y10, Y12
	VFMADD213PS geluc<>+192(SB), Y2, Y3
	VFMADD213PS geluc<>+192(SB), Y10, Y11
	VFMADD213PS geluc<>+416(SB), Y2, Y4
	VFMADD213PS geluc<>+416(SB), Y10, Y12
	VFMADD213PS geluc<>+224(SB), Y2, Y3
	VFMADD213PS geluc<>+224(SB), Y10, Y11
	VFMADD213PS geluc<>+448(SB), Y2, Y4
	VFMADD213PS geluc<>+448(SB), Y10, Y12
	VFMADD213PS geluc<>+256(SB), Y2, Y3
	VFMADD213PS geluc<>+256(SB), Y10, Y11
	VFMADD213PS geluc<>+288(SB), Y2, Y3
	VFMADD213PS geluc<>+288(SB), Y10, Y11
	VMULPS  Y1, Y3, Y3 // z·p(z²)
	VMULPS  Y9, Y11, Y11
	VDIVPS  Y4, Y3, Y3 // erf(z)
	VDIVPS  Y12, Y11, Y11
	VMULPS  geluc<>+480(SB), Y0, Y0 // x/2
	VMULPS  geluc<>+480(SB), Y8, Y8
	VFMADD213PS Y0, Y0, Y3 // x/2·erf + x/2
	VFMADD213PS Y8, Y8, Y11
	VMOVUPS Y3, (DI)(CX*1)
	VMOVUPS Y11, 32(DI)(CX*1)
	ADDQ    $64, CX
	JNE     loop

done:
	VZEROUPPER
	RET
