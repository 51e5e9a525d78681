// Package hash is a deterministic embedder by feature hashing: each word
// and word pair adds ±1 to a bucket chosen by its hash. It needs no model,
// so tests and offline setups can use it; texts sharing words get similar
// vectors, but it knows nothing of meaning. It is never chosen silently.
package hash

import (
	"context"
	"hash/fnv"
	"math"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// DefaultDim is the vector size when none is configured.
const DefaultDim = 256

// Embedder is the feature-hashing embedder.
type Embedder struct{ dim int }

// New returns a hashing embedder with dim dimensions (DefaultDim if 0).
func New(dim int) (*Embedder, error) {
	if dim == 0 {
		dim = DefaultDim
	}
	if dim < 8 || dim > 4096 {
		return nil, mneme.Invalid("hash embedder dimension %d is out of range: use 8 to 4096", dim)
	}
	return &Embedder{dim: dim}, nil
}

func (e *Embedder) Info() mneme.EmbedderInfo {
	return mneme.EmbedderInfo{Provider: "hash", Model: "fnv1a-words", Version: "1", Dim: e.dim, MaxTokens: 1 << 20}
}

func (e *Embedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = e.vector(t)
	}
	return out, nil
}

func (e *Embedder) vector(text string) []float32 {
	v := make([]float32, e.dim)
	words := textnorm.Words(text)
	add := func(feature string) {
		h := fnv.New64a()
		h.Write([]byte(feature))
		x := h.Sum64()
		sign := float32(1)
		if x>>63 == 1 {
			sign = -1
		}
		v[x%uint64(e.dim)] += sign
	}
	for i, w := range words {
		add(w)
		if i > 0 {
			add(words[i-1] + " " + w)
		}
	}
	var norm float64
	for _, x := range v {
		norm += float64(x * x)
	}
	if norm > 0 {
		inv := float32(1 / math.Sqrt(norm))
		for i := range v {
			v[i] *= inv
		}
	}
	return v
}
