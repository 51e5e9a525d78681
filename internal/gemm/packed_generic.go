package gemm

import "math"

// genericBlock is MulPanels' portable path over c[i0:i1, j0:j1]: dot
// products over b's rows when they are known (2×4 tiles, as
// genericMatMulT), else a pass over the panels.
func (b *Panels) genericBlock(c []float32, ldc int, a []float32, lda int, bias []float32, flags, i0, i1, j0, j1 int) {
	k := b.K
	out := func(i, j int, s float32) {
		if flags&AddBias != 0 {
			s += bias[j]
		}
		if flags&Accumulate != 0 {
			s += c[i*ldc+j]
		}
		c[i*ldc+j] = s
	}
	if b.rows == nil {
		var acc [PanelWidth]float32
		for i := i0; i < i1; i++ {
			ai := a[i*lda : i*lda+k]
			for j := j0; j < j1; j += PanelWidth {
				acc = [PanelWidth]float32{}
				for p, x := range ai {
					row := b.panelRow(j, p)
					for jj := range acc {
						acc[jj] += x * row[jj]
					}
				}
				for jj := range min(PanelWidth, j1-j) {
					out(i, j+jj, acc[jj])
				}
			}
		}
		return
	}
	w := b.rows
	i := i0
	for ; i+2 <= i1; i += 2 {
		a0, a1 := a[i*lda:i*lda+k], a[(i+1)*lda:(i+1)*lda+k]
		j := j0
		for ; j+4 <= j1; j += 4 {
			b0, b1, b2, b3 := w[j*k:j*k+k], w[(j+1)*k:(j+1)*k+k], w[(j+2)*k:(j+2)*k+k], w[(j+3)*k:(j+3)*k+k]
			var s00, s01, s02, s03, s10, s11, s12, s13 float32
			for p := range a0 {
				x, y := a0[p], a1[p]
				v0, v1, v2, v3 := b0[p], b1[p], b2[p], b3[p]
				s00 += x * v0
				s01 += x * v1
				s02 += x * v2
				s03 += x * v3
				s10 += y * v0
				s11 += y * v1
				s12 += y * v2
				s13 += y * v3
			}
			out(i, j, s00)
			out(i, j+1, s01)
			out(i, j+2, s02)
			out(i, j+3, s03)
			out(i+1, j, s10)
			out(i+1, j+1, s11)
			out(i+1, j+2, s12)
			out(i+1, j+3, s13)
		}
		for ; j < j1; j++ {
			out(i, j, dot(a0, w[j*k:j*k+k]))
			out(i+1, j, dot(a1, w[j*k:j*k+k]))
		}
	}
	if i < i1 {
		ai := a[i*lda : i*lda+k]
		for j := j0; j < j1; j++ {
			out(i, j, dot(ai, w[j*k:j*k+k]))
		}
	}
}

// panelRow is row p of the panel holding column j.
func (b *Panels) panelRow(j, p int) *[PanelWidth]float32 {
	at := j*b.K + p*PanelWidth
	if b.Half == nil {
		return (*[PanelWidth]float32)(b.Data[at:])
	}
	var row [PanelWidth]float32
	for jj, h := range b.Half[at : at+PanelWidth] {
		row[jj] = fromHalf(h)
	}
	return &row
}

// fromHalf widens IEEE fp16 bits (finite values: PackHalf stores no others).
func fromHalf(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp, mant := uint32(h>>10&0x1f), uint32(h&0x3ff)
	switch {
	case exp == 0: // zero or subnormal: mant·2⁻²⁴
		v := float32(mant) / (1 << 24)
		return math.Float32frombits(math.Float32bits(v) | sign)
	default:
		return math.Float32frombits(sign | (exp+112)<<23 | mant<<13)
	}
}
