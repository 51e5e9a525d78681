package hash_test

import (
	"context"
	"math"
	"testing"

	"github.com/mneme-ai/mneme/embed/hash"
)

func TestDeterministicNormalisedAndWordSensitive(t *testing.T) {
	e, _ := hash.New(64)
	v, _ := e.Embed(context.Background(), []string{"the release pipeline", "the release pipeline", "cooking pasta tonight", ""})
	dot := func(a, b []float32) (s float64) {
		for i := range a {
			s += float64(a[i] * b[i])
		}
		return s
	}
	if math.Abs(dot(v[0], v[0])-1) > 1e-6 || dot(v[0], v[1]) < 0.999 {
		t.Fatalf("not deterministic and unit length")
	}
	if dot(v[0], v[2]) > 0.5 {
		t.Fatalf("unrelated texts too similar: %f", dot(v[0], v[2]))
	}
	if len(v[3]) != 64 || dot(v[3], v[3]) != 0 {
		t.Fatalf("empty text should give the zero vector")
	}
	if _, err := hash.New(3); err == nil {
		t.Fatal("accepted dimension 3")
	}
}
