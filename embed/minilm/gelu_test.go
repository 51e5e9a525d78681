package minilm

import (
	"math"
	"slices"
	"testing"
)

// TestGELUFast checks the vector path (where the CPU has it) against the
// exact form: the rational erf is good to ~4e-7 absolute in Φ, so the bound
// is float32 rounding plus 3e-7·|x|. Lengths that are not multiples of 16
// exercise the scalar tail.
func TestGELUFast(t *testing.T) {
	var xs, bias []float32
	for x := -12.0; x <= 12; x += 1.0 / 1024 / 3 {
		xs = append(xs, float32(x))
		bias = append(bias, float32(math.Sin(x))/8)
	}
	xs = append(xs, float32(math.NaN()), float32(math.Inf(1)), 3)
	bias = append(bias, 0, 0, 0)
	got := slices.Clone(xs)
	biasGELUFast(got, bias)
	var worst float64
	for i, x := range xs[:len(xs)-3] {
		v := float64(x + bias[i])
		want := 0.5 * v * math.Erfc(-v/math.Sqrt2)
		d := math.Abs(float64(got[i]) - want)
		if d > math.Abs(want)*7e-8+3e-7*math.Abs(v) {
			t.Fatalf("gelu(%v) = %v, want %v", v, got[i], want)
		}
		worst = max(worst, d)
	}
	if n := len(got); !math.IsNaN(float64(got[n-3])) || !math.IsInf(float64(got[n-2]), 1) {
		t.Errorf("gelu(NaN), gelu(+Inf) = %v, %v", got[n-3], got[n-2])
	}
	t.Logf("vector path %v: max |gelu error| %.3g", useGELUAVX2, worst)
}
