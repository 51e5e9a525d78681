// Package openai embeds through any OpenAI-compatible POST /v1/embeddings.
package openai

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/httpjson"
)

// Config says where the endpoint is, which model, and the API key. The key
// comes from an environment variable whose name is configured; the caller
// reads it, and it is never logged or echoed.
type Config struct {
	BaseURL string // default https://api.openai.com; the path /v1/embeddings is added
	Model   string // e.g. text-embedding-3-small
	Dim     int
	APIKey  string
	Timeout time.Duration
}

// Embedder calls an OpenAI-compatible endpoint.
type Embedder struct {
	cfg    Config
	client *http.Client
}

// New checks cfg and returns an Embedder.
func New(cfg Config) (*Embedder, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = "https://api.openai.com"
	}
	cfg.BaseURL = strings.TrimSuffix(strings.TrimSuffix(cfg.BaseURL, "/"), "/v1")
	client, err := httpjson.NewClient("openai", cfg.Model, cfg.Dim, cfg.Timeout)
	if err != nil {
		return nil, err
	}
	return &Embedder{cfg: cfg, client: client}, nil
}

func (e *Embedder) Info() mneme.EmbedderInfo {
	return mneme.EmbedderInfo{Provider: "openai", Model: e.cfg.Model, Version: "1", Dim: e.cfg.Dim, MaxTokens: 8191}
}

type request struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type response struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	var res response
	headers := map[string]string{}
	if e.cfg.APIKey != "" {
		headers["Authorization"] = "Bearer " + e.cfg.APIKey
	}
	url := e.cfg.BaseURL + "/v1/embeddings"
	peer := httpjson.Peer{Name: "the embedding provider", MaxBody: 256 << 20,
		Hint: "check the base URL and that the server is running, or choose another embedder"}
	err := httpjson.Post(ctx, e.client, peer, url, headers, request{Model: e.cfg.Model, Input: texts}, &res)
	if err != nil {
		return nil, err
	}
	sort.Slice(res.Data, func(i, j int) bool { return res.Data[i].Index < res.Data[j].Index })
	vecs := make([][]float32, len(res.Data))
	for i, d := range res.Data {
		vecs[i] = d.Embedding
	}
	return vecs, mneme.CheckVectors(e.Info(), texts, vecs)
}
