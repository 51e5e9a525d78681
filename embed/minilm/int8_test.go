package minilm

import (
	"math"
	"runtime"
	"testing"

	"github.com/mneme-ai/mneme/internal/gemm"
)

// TestInt8Cosine: the int8 model's vectors stay close to fp32 ones (the
// bound the quality targets rest on); the figure is logged for the
// documentation.
func TestInt8Cosine(t *testing.T) {
	m := testModel(t)
	ref := loadReference(t)
	q := m.Int8()
	f, g := m.Embed(ref.Sentences), q.Embed(ref.Sentences)
	var worst, sum float64
	for i := range f {
		var dot float64
		for j := range f[i] {
			dot += float64(f[i][j]) * float64(g[i][j])
		}
		worst, sum = max(worst, math.Abs(1-dot)), sum+math.Abs(1-dot)
	}
	t.Logf("int8 (activations %d bits) vs fp32 over %d sentences: max |cos diff| %.4g, mean %.4g", gemm.ActBits, len(f), worst, sum/float64(len(f)))
	if worst > 0.02 {
		t.Errorf("max |cosine difference| %.4g to fp32 > 0.02", worst)
	}
}

// TestInt8Identity: the int8 embedder names itself minilm-int8, so its
// vectors are recorded under another identity than fp32 ones.
func TestInt8Identity(t *testing.T) {
	dir := modelDir(t)
	f, err := NewEmbedder(dir)
	if err != nil {
		t.Fatal(err)
	}
	q, err := NewInt8Embedder(dir)
	if err != nil {
		t.Fatal(err)
	}
	fi, qi := f.Info(), q.Info()
	if qi.Provider != "minilm-int8" || qi.ID() == fi.ID() || qi.Version == fi.Version || qi.Dim != fi.Dim {
		t.Errorf("int8 %+v vs fp32 %+v", qi, fi)
	}
}

// TestInt8OutlivesParent: the int8 model shares the fp32 model's
// embeddings, which may be the load cache's mapped memory; dropping the
// fp32 model must not unmap them (it faulted before the int8 model kept
// its parent alive).
func TestInt8OutlivesParent(t *testing.T) {
	m, err := Load(modelDir(t))
	if err != nil {
		t.Fatal(err)
	}
	q := m.Int8()
	m = nil
	for range 3 {
		runtime.GC()
	}
	if v := q.Embed([]string{"still mapped"})[0]; len(v) != hidden {
		t.Fatalf("dimension %d", len(v))
	}
}
