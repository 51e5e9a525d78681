package mneme

import (
	"context"
	"math"
)

// Embedder turns texts into vectors. Implementations live in embed/….
type Embedder interface {
	Info() EmbedderInfo
	// Embed returns one vector of Info().Dim values per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// EmbedderInfo identifies what produced a vector: vectors from different
// providers, models, versions or dimensions never mix.
type EmbedderInfo struct {
	Provider  string `json:"provider"` // minilm, hash, ollama, openai
	Model     string `json:"model"`
	Version   string `json:"version"`
	Dim       int    `json:"dim"`
	MaxTokens int    `json:"max_tokens"`
}

// ID names the provider and model, like "minilm/all-MiniLM-L6-v2".
func (i EmbedderInfo) ID() string { return i.Provider + "/" + i.Model }

// embedChecked asks em for the vectors of texts and checks its answer
// (CheckVectors).
func embedChecked(ctx context.Context, em Embedder, texts []string) ([][]float32, error) {
	vecs, err := em.Embed(ctx, texts)
	if err == nil {
		err = CheckVectors(em.Info(), texts, vecs)
	}
	return vecs, err
}

// CheckVectors validates a provider's answer: one vector per text, each of
// the announced dimension and finite. Another dimension means the
// configuration is wrong (EINVALID: set the model's real dimension); too
// few vectors or non-finite values mean the provider is failing, as one
// that is down is (EUNAVAILABLE: a write stores its records pending).
func CheckVectors(info EmbedderInfo, texts []string, vecs [][]float32) error {
	if len(vecs) != len(texts) {
		return Errorf(EUNAVAILABLE, "embedder %s returned %d vectors for %d texts", info.ID(), len(vecs), len(texts))
	}
	for i, v := range vecs {
		if len(v) != info.Dim {
			return Invalid("embedder %s returned a vector of dimension %d, configured for %d: set the dimension the model really has", info.ID(), len(v), info.Dim)
		}
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return Errorf(EUNAVAILABLE, "embedder %s returned a non-finite value in vector %d", info.ID(), i)
			}
		}
	}
	return nil
}
