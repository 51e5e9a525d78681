package config

import (
	"context"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/embed/minilm"
	"github.com/mneme-ai/mneme/embed/ollama"
	"github.com/mneme-ai/mneme/embed/openai"
	"github.com/mneme-ai/mneme/llm"
)

// NewEmbedder builds the effective embedder; "none" gives nil. When
// nothing chose a provider, the embedder the home's vectors come from is
// used (s may be nil: then minilm), so a home written with --embedder hash
// stays usable without the flag.
func (c *Config) NewEmbedder(ctx context.Context, s mneme.Store) (mneme.Embedder, error) {
	ec := c.Embedder
	if ec.Provider == "" {
		ec.Provider = "minilm"
		if s != nil {
			info, ok, err := s.HomeEmbedder(ctx)
			if err != nil {
				return nil, err
			}
			if ok {
				return c.homeEmbedder(info)
			}
		}
	}
	return c.embedder(ec)
}

// Fits reports whether the embedder ec configures could write beside
// vectors from info: "none" and an unset provider always can (they write no
// vectors, or take the home's); another provider, model or dimension
// cannot, until `mneme reindex` re-embeds the home.
func (ec Embedder) Fits(info mneme.EmbedderInfo) bool {
	switch {
	case ec.Provider == "" || ec.Provider == "none":
		return true
	case ec.Provider != info.Provider:
		return false
	}
	return (ec.Model == "" || ec.Model == info.Model) && (ec.Dim == 0 || ec.Dim == info.Dim)
}

// homeEmbedder rebuilds the embedder a home records.
func (c *Config) homeEmbedder(info mneme.EmbedderInfo) (mneme.Embedder, error) {
	switch info.Provider {
	case "minilm":
		return minilm.NewEmbedder(c.ModelDir)
	case "hash":
		return hash.New(info.Dim)
	case "ollama":
		return ollama.New(ollama.Config{Model: info.Model, Dim: info.Dim})
	}
	return nil, mneme.Invalid("this home's vectors come from %s (%d dimensions): configure that embedder in config.json (embedder.provider, url, api_key_env), or choose another with --embedder and run mneme reindex", info.ID(), info.Dim)
}

func (c *Config) embedder(ec Embedder) (mneme.Embedder, error) {
	switch ec.Provider {
	case "none":
		return nil, nil
	case "minilm":
		return minilm.NewEmbedder(c.ModelDir)
	case "hash":
		return hash.New(ec.Dim)
	case "ollama":
		return ollama.New(ollama.Config{BaseURL: ec.URL, Model: ec.Model, Dim: ec.Dim})
	case "openai":
		key, err := c.secret(ec.APIKeyEnv, "embedder.api_key_env")
		if err != nil {
			return nil, err
		}
		return openai.New(openai.Config{BaseURL: ec.URL, Model: ec.Model, Dim: ec.Dim, APIKey: key})
	}
	return nil, mneme.Invalid("embedder %q is not known: use minilm, hash, ollama, openai or none", mneme.Clip(ec.Provider))
}

// NewGenerator builds the configured language model for HyDE.
func (c *Config) NewGenerator() (mneme.HypothesisGenerator, error) {
	l := c.LLM
	key, err := c.secret(l.APIKeyEnv, "llm.api_key_env")
	if err != nil {
		return nil, err
	}
	return llm.New(llm.Config{Provider: l.Provider, BaseURL: l.URL, Model: l.Model, APIKey: key, Models: l.Models})
}

// secret reads the variable a config field names; "" names none.
func (c *Config) secret(variable, field string) (string, error) {
	if variable == "" {
		return "", nil
	}
	if v := c.getenv(variable); v != "" {
		return v, nil
	}
	return "", mneme.Invalid("the API key variable %s named in config.json is not set (%s)", variable, field)
}
