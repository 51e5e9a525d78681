package minilm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSoftmaxExp checks both paths against float64 math.Exp, including the
// zeroed padding, rows whose max is not in the first block, and scores so
// far below the max that they underflow.
func TestSoftmaxExp(t *testing.T) {
	saved := useSoftmaxAVX2
	defer func() { useSoftmaxAVX2 = saved }()
	r := rand.New(rand.NewPCG(5, 6))
	for _, vec := range []bool{false, true} {
		if vec && !saved {
			t.Log("no AVX2: vector softmax not tested")
			continue
		}
		useSoftmaxAVX2 = vec
		for _, n := range []int{1, 2, 7, 8, 9, 15, 16, 17, 31, 64, 100, 255, 256} {
			np := (n + 7) &^ 7
			row := make([]float32, np)
			for j := range row {
				row[j] = float32(r.NormFloat64() * 8)
			}
			row[r.IntN(n)] = 40
			if n > 2 {
				row[0] = -1000 // e^-1000/√32 underflows: 0 in float32
			}
			for j := n; j < np; j++ {
				row[j] = 1e6 // padding must not count as the max
			}
			in := append([]float32(nil), row...)
			sum := softmaxExp(row, n)
			scale := 1 / math.Sqrt(headDim)
			var wantSum float64
			for j := 0; j < n; j++ {
				x := (float64(in[j]) - 40) * scale
				want := math.Exp(x)
				wantSum += want
				// float32 rounding of the argument costs |x|·6e-8 relative.
				if d := math.Abs(float64(row[j]) - want); d > (3e-7+1.2e-7*math.Abs(x))*want+1e-30 {
					t.Fatalf("vector=%v n=%d: exp[%d] = %v, want %v", vec, n, j, row[j], want)
				}
			}
			for j := n; j < np; j++ {
				if row[j] != 0 {
					t.Fatalf("vector=%v n=%d: padding [%d] = %v, want 0", vec, n, j, row[j])
				}
			}
			if math.Abs(float64(sum)-wantSum) > 1e-6*wantSum {
				t.Fatalf("vector=%v n=%d: sum %v, want %v", vec, n, sum, wantSum)
			}
		}
	}
}
