package minilm

import (
	"testing"

	"github.com/mneme-ai/mneme/internal/gemm"
)

// TestReferencePaths runs the reference check on every kernel path: the
// vector kernels (AVX2/FMA gemm, softmax and GELU) and the portable Go
// fallbacks a CPU without them gets, each within 1e-5 of the reference.
// Every fifth sentence keeps the portable run short.
func TestReferencePaths(t *testing.T) {
	m := testModel(t)
	ref := loadReference(t)
	savedSoftmax, savedGELU := useSoftmaxAVX2, useGELUAVX2
	defer func() { useSoftmaxAVX2, useGELUAVX2 = savedSoftmax, savedGELU; gemm.SetGeneric(false) }()
	var texts []string
	var want [][]float64
	for i := 0; i < len(ref.Sentences); i += 5 {
		texts, want = append(texts, ref.Sentences[i]), append(want, ref.Embeddings[i])
	}
	for _, p := range []struct {
		name                      string
		generic, vecSoft, vecGELU bool
	}{
		{"vector", false, savedSoftmax, savedGELU},
		{"portable", true, false, false},
	} {
		t.Run(p.name, func(t *testing.T) {
			gemm.SetGeneric(p.generic)
			useSoftmaxAVX2, useGELUAVX2 = p.vecSoft, p.vecGELU
			var worst float64
			for i, v := range m.Embed(texts) {
				d := maxDiff(t, v, want[i])
				if d > 1e-5 {
					t.Errorf("%q: max |diff| %.3g > 1e-5", texts[i], d)
				}
				worst = max(worst, d)
			}
			t.Logf("%s (gemm %s): max |diff| %.3g over %d sentences", p.name, gemm.Kernel(), worst, len(texts))
		})
	}
}
