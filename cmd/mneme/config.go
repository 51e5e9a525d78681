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
)

// ConfigFile is the optional configuration in the data directory.
const ConfigFile = "config.json"

// config is the content of config.json. Flags and environment variables
// override it.
type config struct {
	Embedder embedderConfig `json:"embedder"`
	ModelDir string         `json:"model_dir"`
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

// newEmbedder builds the configured embedder: --embedder, $MNEME_EMBEDDER,
// config.json, default minilm. "none" gives nil.
func (a *app) newEmbedder() (mneme.Embedder, error) {
	c, err := a.loadConfig()
	if err != nil {
		return nil, err
	}
	ec := c.Embedder
	switch {
	case a.embedder != "":
		ec.Provider = a.embedder
	case a.getenv("MNEME_EMBEDDER") != "":
		ec.Provider = a.getenv("MNEME_EMBEDDER")
	}
	switch ec.Provider {
	case "none":
		return nil, nil
	case "", "minilm":
		dir := a.getenv("MNEME_MODEL_DIR")
		if dir == "" {
			dir = c.ModelDir
		}
		if dir == "" {
			dir = minilm.DefaultDir(a.getenv)
		}
		return minilm.NewEmbedder(dir)
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
