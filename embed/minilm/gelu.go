package minilm

import "math"

// GELU (erf form) is x·Φ(x). math.Erf costs ~35 ns here and the FFN needs
// ~9k of them per token, so Φ comes from a table of cubic Taylor
// polynomials over [-8, 8) in steps of 1/32 (16 KB): absolute error below
// 2e-9, under float32 rounding of the activations, at ~3 ns. Outside the
// table the exact form is used.
const (
	phiLo    = -8.0
	phiSteps = 32            // intervals per unit
	phiN     = 16 * phiSteps // a power of two: indexing needs no bounds check
	phiDeg   = 3
)

var phiTab = func() (t [phiN][phiDeg + 1]float64) {
	for i := range t {
		c := phiLo + (float64(i)+0.5)/phiSteps // interval centre
		pdf := math.Exp(-c*c/2) / math.Sqrt(2*math.Pi)
		t[i][0] = 0.5 * math.Erfc(-c/math.Sqrt2)
		// Φ⁽ᵏ⁾(c) = (-1)ᵏ⁻¹·Heₖ₋₁(c)·φ(c), probabilists' Hermite polynomials
		// He₀ = 1, He₁ = x, Heₙ₊₁ = x·Heₙ − n·Heₙ₋₁; Taylor term divides by k!.
		hePrev, he := 0.0, 1.0
		fact := 1.0
		for k := 1; k <= phiDeg; k++ {
			fact *= float64(k)
			sign := 1.0
			if k%2 == 0 {
				sign = -1
			}
			t[i][k] = sign * he * pdf / fact
			hePrev, he = he, c*he-float64(k-1)*hePrev
		}
	}
	return t
}()

func geluExact(x float64) float32 { return float32(0.5 * x * math.Erfc(-x/math.Sqrt2)) }

// biasGELU sets row[j] = gelu(row[j] + bias[j]).
func biasGELU(row, bias []float32) {
	bias = bias[:len(row)]
	for j, v := range row {
		x := float64(v + bias[j])
		u := (x - phiLo) * phiSteps
		if !(u >= 0 && u < phiN) { // also catches NaN
			row[j] = geluExact(x)
			continue
		}
		i := int(u)
		d := (u - float64(i) - 0.5) * (1.0 / phiSteps)
		c := &phiTab[i&(phiN-1)]
		row[j] = float32(x * (((c[3]*d+c[2])*d+c[1])*d + c[0]))
	}
}

// biasGELUFast is biasGELU, on amd64 with AVX2 through a vector kernel that
// takes erf from a float32 rational approximation instead of the table:
// ~8× faster, with |Φ error| < 3e-7 instead of 2e-9, which moves the
// embeddings by ~3e-8 (max |diff| vs the reference 2.3e-7 → 2.5e-7). GELU
// was ~11% of the CPU time of a batch.
func biasGELUFast(row, bias []float32) {
	if n := len(row) &^ 15; useGELUAVX2 && n > 0 {
		bias = bias[:len(row)]
		geluAVX2(&row[0], &bias[0], n)
		row, bias = row[n:], bias[n:]
	}
	biasGELU(row, bias)
}
