package config_test

import (
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

// TestInt8IsAnotherEmbedder: minilm-int8 is a known provider, and its
// vectors never count as fitting beside fp32 minilm ones (or the reverse):
// switching needs mneme reindex.
func TestInt8IsAnotherEmbedder(t *testing.T) {
	if err := (config.File{Embedder: config.Embedder{Provider: "minilm-int8"}}).Check(); err != nil {
		t.Fatalf("minilm-int8 refused: %v", err)
	}
	fp32 := mneme.EmbedderInfo{Provider: "minilm", Model: "all-MiniLM-L6-v2", Dim: 384}
	int8 := mneme.EmbedderInfo{Provider: "minilm-int8", Model: "all-MiniLM-L6-v2", Dim: 384}
	for _, c := range []struct {
		provider string
		home     mneme.EmbedderInfo
		fits     bool
	}{
		{"minilm-int8", fp32, false},
		{"minilm", int8, false},
		{"minilm-int8", int8, true},
		{"minilm", fp32, true},
	} {
		if got := (config.Embedder{Provider: c.provider}).Fits(c.home); got != c.fits {
			t.Errorf("%s beside %s: fits %v, want %v", c.provider, c.home.ID(), got, c.fits)
		}
	}
}
