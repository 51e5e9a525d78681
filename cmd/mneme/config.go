package main

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"syscall"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/embed/minilm"
	"github.com/mneme-ai/mneme/embed/ollama"
	"github.com/mneme-ai/mneme/embed/openai"
	"github.com/mneme-ai/mneme/internal/access"
	"github.com/mneme-ai/mneme/llm"
)

// ConfigFile is the optional configuration in the data directory.
const ConfigFile = "config.json"

// config is the content of config.json. Flags and environment variables
// override it.
type config struct {
	Embedder embedderConfig `json:"embedder"`
	ModelDir string         `json:"model_dir"`
	LLM      llmConfig      `json:"llm"`
	Server   serverConfig   `json:"server"`
}

// serverConfig is `mneme serve`'s: bearer tokens scoped to projects and
// read or write. Without tokens the server only binds to loopback. Besides
// loopback names it answers allowed_hosts, and browsers may call it from
// allowed_origins (httpapi.CheckHosts and CheckOrigins say what fits).
type serverConfig struct {
	Tokens         []access.Token `json:"tokens"`
	MaxBodyBytes   int64          `json:"max_body_bytes"`
	AllowedHosts   []string       `json:"allowed_hosts"`
	AllowedOrigins []string       `json:"allowed_origins"`
}

// llmConfig names the language model that writes HyDE hypotheses; without
// one, recall uses the deterministic generator.
type llmConfig struct {
	Provider  string `json:"provider"` // ollama or openai (any OpenAI-compatible chat API)
	URL       string `json:"url"`
	Model     string `json:"model"`
	APIKeyEnv string `json:"api_key_env"`
}

type embedderConfig struct {
	Provider  string `json:"provider"`    // minilm (default), hash, ollama, openai, none
	URL       string `json:"url"`         // ollama, openai
	Model     string `json:"model"`       // ollama, openai
	Dim       int    `json:"dim"`         // hash, ollama, openai
	APIKeyEnv string `json:"api_key_env"` // openai: the variable holding the key
}

// loadConfig reads config.json from the data directory, if there is one.
func (a *app) loadConfig() (config, error) {
	var c config
	home, err := a.homeDir()
	if err != nil {
		return c, err
	}
	path := filepath.Join(home, ConfigFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return c, nil // no config; opening the store reports a bad home
	}
	if err != nil {
		return c, mneme.Invalid("cannot read %s: %v", path, err)
	}
	if err := mneme.DecodeStrict(data, &c); err != nil {
		return c, mneme.Invalid("%s: %s", path, mneme.ErrorMessage(err))
	}
	return c, nil
}

// embedderFlag registers --embedder on fs.
func (a *app) embedderFlag(fs *flag.FlagSet) {
	fs.StringVar(&a.embedder, "embedder", "", "embedding provider: minilm, hash, ollama, openai or none (default $MNEME_EMBEDDER, else config.json, else minilm)")
}

// effective resolves what c leaves to the command line and environment:
// the embedder provider (--embedder, $MNEME_EMBEDDER, config.json, minilm)
// and the model directory ($MNEME_MODEL_DIR, config.json, the default).
func (a *app) effective(c config) config {
	switch {
	case a.embedder != "":
		c.Embedder.Provider = a.embedder
	case a.getenv("MNEME_EMBEDDER") != "":
		c.Embedder.Provider = a.getenv("MNEME_EMBEDDER")
	case c.Embedder.Provider == "":
		c.Embedder.Provider = "minilm"
	}
	switch {
	case a.getenv("MNEME_MODEL_DIR") != "":
		c.ModelDir = a.getenv("MNEME_MODEL_DIR")
	case c.ModelDir == "":
		c.ModelDir = minilm.DefaultDir(a.getenv)
	}
	return c
}

// newEmbedder builds the configured embedder (see effective). "none" gives
// nil.
func (a *app) newEmbedder() (mneme.Embedder, error) {
	c, err := a.loadConfig()
	if err != nil {
		return nil, err
	}
	c = a.effective(c)
	ec := c.Embedder
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
		key := ""
		if ec.APIKeyEnv != "" {
			if key = a.getenv(ec.APIKeyEnv); key == "" {
				return nil, mneme.Invalid("the API key variable %s named in config.json is not set", ec.APIKeyEnv)
			}
		}
		return openai.New(openai.Config{BaseURL: ec.URL, Model: ec.Model, Dim: ec.Dim, APIKey: key})
	}
	return nil, mneme.Invalid("embedder %q is not known: use minilm, hash, ollama, openai or none", ec.Provider)
}

// openForRecall opens the engine with what recall needs: the embedder for
// the vector lane (one that cannot load degrades recall to words, with the
// reason) and the configured language model for HyDE.
func (a *app) openForRecall(vectors, hyde bool) (*mneme.Engine, error) {
	eng, err := a.open()
	if err != nil || !vectors {
		return eng, err
	}
	em, err := a.newEmbedder()
	switch {
	case err == nil:
		eng.SetEmbedder(em)
	case mneme.ErrorCode(err) == mneme.EUNAVAILABLE:
		eng.SetEmbedderError(err)
	default:
		eng.Close()
		return nil, err
	}
	if hyde {
		c, err := a.loadConfig()
		if err == nil && c.LLM.Provider != "" {
			var g mneme.HypothesisGenerator
			if g, err = a.newGenerator(c.LLM); err == nil {
				eng.SetHypothesisGenerator(g)
			}
		}
		if err != nil {
			eng.Close()
			return nil, err
		}
	}
	return eng, nil
}

func (a *app) newGenerator(c llmConfig) (mneme.HypothesisGenerator, error) {
	key := ""
	if c.APIKeyEnv != "" {
		if key = a.getenv(c.APIKeyEnv); key == "" {
			return nil, mneme.Invalid("the API key variable %s named in config.json (llm.api_key_env) is not set", c.APIKeyEnv)
		}
	}
	return llm.New(llm.Config{Provider: c.Provider, BaseURL: c.URL, Model: c.Model, APIKey: key})
}

// openWithEmbedder opens the engine and gives it the configured embedder.
func (a *app) openWithEmbedder() (*mneme.Engine, error) {
	em, err := a.newEmbedder()
	if err != nil {
		return nil, err
	}
	eng, err := a.open()
	if err != nil {
		return nil, err
	}
	eng.SetEmbedder(em)
	return eng, nil
}
