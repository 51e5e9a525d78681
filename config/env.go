package config

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme"
)

// The environment variables that set what a deployment sets per
// environment, each over its config.json field (flag > environment >
// config.json > default; docs/configuration.md has the table).
const (
	EnvEmbedderURL   = "MNEME_EMBEDDER_URL"   // embedder.url
	EnvEmbedderModel = "MNEME_EMBEDDER_MODEL" // embedder.model
	EnvEmbedderDim   = "MNEME_EMBEDDER_DIM"   // embedder.dim
	EnvLLMProvider   = "MNEME_LLM_PROVIDER"   // llm.provider
	EnvLLMURL        = "MNEME_LLM_URL"        // llm.url
	EnvLLMModel      = "MNEME_LLM_MODEL"      // llm.model
)

// fromEnv sets c's effective embedder and language model from the
// environment over config.json; a value that cannot be one is an error
// naming its variable.
func (c *Config) fromEnv() error {
	env := func(name string) string { return strings.TrimSpace(c.getenv(name)) }
	if err := c.embedderEnv(&c.Embedder); err != nil {
		return err
	}
	c.LLM = c.File.LLM
	c.LLM.Provider = cmp.Or(env(EnvLLMProvider), c.LLM.Provider)
	c.LLM.URL = cmp.Or(env(EnvLLMURL), c.LLM.URL)
	c.LLM.Model = cmp.Or(env(EnvLLMModel), c.LLM.Model)
	switch p := env(EnvLLMProvider); p {
	case "", "ollama", "openai":
	default:
		return mneme.Invalid("%s=%q is not a language model provider: use ollama or openai (any OpenAI-compatible chat API)", EnvLLMProvider, mneme.Clip(p))
	}
	return nil
}

// embedderEnv sets on e what the environment says of the embedder.
func (c *Config) embedderEnv(e *Embedder) error {
	env := func(name string) string { return strings.TrimSpace(c.getenv(name)) }
	e.URL = cmp.Or(env(EnvEmbedderURL), e.URL)
	e.Model = cmp.Or(env(EnvEmbedderModel), e.Model)
	if v := env(EnvEmbedderDim); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 65536 {
			return mneme.Invalid("%s=%q is not a dimension: give the embedding model's output size as a whole number, like 384 or 768 (or unset it to use embedder.dim in %s)", EnvEmbedderDim, mneme.Clip(v), FileName)
		}
		e.Dim = n
	}
	return nil
}

// AdoptEmbedder makes config.json name the embedder this run uses, when
// it names one (else the home's recorded embedder applies already): after
// `mneme reindex --embedder X` switched the home, so that the next run
// agrees with it. The file is read again and written atomically; its
// other settings are kept. The old entry's URL, model and dimension
// belonged to the old provider: a new provider keeps only what the
// environment gives.
func (c *Config) AdoptEmbedder() error {
	f, err := ReadFile(c.Home)
	if err != nil || f.Embedder.Provider == "" {
		return err
	}
	e := c.Embedder
	if e.Provider != f.Embedder.Provider {
		e = Embedder{Provider: e.Provider}
		if err := c.embedderEnv(&e); err != nil {
			return err
		}
	}
	if e == f.Embedder {
		return nil
	}
	f.Embedder = e
	return WriteFile(c.Home, f)
}
