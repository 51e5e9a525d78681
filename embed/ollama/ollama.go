// Package ollama embeds through an Ollama server's POST /api/embed.
package ollama

import (
	"context"
	"net/http"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/httpjson"
)

// Config says where the server is and which model to use.
type Config struct {
	BaseURL string // default http://127.0.0.1:11434
	Model   string // e.g. nomic-embed-text
	Dim     int    // the model's dimension
	Timeout time.Duration
}

// Embedder calls Ollama.
type Embedder struct {
	cfg    Config
	client *http.Client
}

// New checks cfg and returns an Embedder.
func New(cfg Config) (*Embedder, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = "http://127.0.0.1:11434"
	}
	client, err := httpjson.NewClient("ollama", cfg.Model, cfg.Dim, cfg.Timeout)
	if err != nil {
		return nil, err
	}
	return &Embedder{cfg: cfg, client: client}, nil
}

func (e *Embedder) Info() mneme.EmbedderInfo {
	return mneme.EmbedderInfo{Provider: "ollama", Model: e.cfg.Model, Version: "1", Dim: e.cfg.Dim, MaxTokens: 8192}
}

type request struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type response struct {
	Embeddings [][]float32 `json:"embeddings"`
}

func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	var res response
	url := e.cfg.BaseURL + "/api/embed"
	peer := httpjson.Peer{Name: "the embedding provider", MaxBody: 256 << 20,
		Hint: "start Ollama (ollama serve) and pull the model (ollama pull " + e.cfg.Model + "), or choose another embedder"}
	err := httpjson.Post(ctx, e.client, peer, url, nil, request{Model: e.cfg.Model, Input: texts}, &res)
	if err != nil {
		return nil, err
	}
	return res.Embeddings, mneme.CheckVectors(e.Info(), texts, res.Embeddings)
}
