// Package llm writes HyDE hypotheses with a language model: given a recall
// query, it asks an Ollama or OpenAI-compatible chat API for a short passage
// that might answer it, so recall can also search for answers.
package llm

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/httpjson"
	"github.com/mneme-ai/mneme/internal/secret"
)

// Prompt is the system message. Hypotheses are embedded, so it asks for
// text shaped like stored memories (notes, conversation), not an essay.
const Prompt = "Write a short factual passage (2-4 sentences) that would answer the question, " +
	"as it might appear in notes or a conversation. Answer with the passage only, no preamble."

// Version names Prompt; change it whenever Prompt changes, so hypotheses
// written with different prompts can be told apart.
const Version = "prompt-1"

// maxBody bounds what is read from the server: a hypothesis is a few
// sentences, so anything larger is a misbehaving server.
const maxBody = 1 << 20

// Config says which chat API writes the hypotheses.
type Config struct {
	Provider string // "ollama" | "openai"
	BaseURL  string // default http://127.0.0.1:11434 (ollama), https://api.openai.com (openai)
	Model    string // e.g. llama3.2, gpt-4o-mini
	APIKey   string // sent as a Bearer token when set (openai)
	Timeout  time.Duration
	// Models are the other models of the provider a call may choose
	// (WithModel); the configuration's llm.models.
	Models []string
}

// New checks cfg and returns the generator for its provider.
func New(cfg Config) (mneme.HypothesisGenerator, error) {
	var g *generator
	switch cfg.Provider {
	case "ollama":
		g = &generator{base: "http://127.0.0.1:11434", path: "/api/chat", healthPath: "/api/tags", chat: ollamaChat,
			hint: "start Ollama (ollama serve) and pull the model (ollama pull " + cfg.Model + "), or check llm.url"}
	case "openai":
		g = &generator{base: "https://api.openai.com", path: "/v1/chat/completions", healthPath: "/v1/models", chat: openaiChat,
			hint: "check llm.url and that the server is running"}
	default:
		return nil, mneme.Invalid("unknown LLM provider %q: set llm.provider in config.json to \"ollama\" or \"openai\"", mneme.Clip(cfg.Provider))
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, mneme.Invalid("the %s LLM needs a model: set llm.model in config.json", cfg.Provider)
	}
	if cfg.BaseURL != "" {
		g.base = strings.TrimRight(cfg.BaseURL, "/")
	}
	g.shown = secret.RedactURLs(g.base)
	if cfg.Timeout == 0 {
		cfg.Timeout = 60 * time.Second
	}
	g.cfg, g.client = cfg, &http.Client{Timeout: cfg.Timeout}
	return g, nil
}

// WithModel is the generator of another model of the same provider and
// server, one of Model and Models: a call may choose among the models the
// configuration allows, and no other.
func (g *generator) WithModel(model string) (mneme.HypothesisGenerator, error) {
	if model != g.cfg.Model && !slices.Contains(g.cfg.Models, model) {
		allowed := append([]string{g.cfg.Model}, g.cfg.Models...)
		return nil, mneme.Invalid("model %q is not one this deployment allows: use %s (llm.model and llm.models in config.json)", mneme.Clip(model), strings.Join(allowed, ", "))
	}
	c := *g
	c.cfg.Model = model
	return &c, nil
}

// generator is shared by the providers; chat sends the provider's request
// and returns the model's text.
type generator struct {
	cfg                          Config
	client                       *http.Client
	base, path, healthPath, hint string
	shown                        string // base as messages name it: without user info
	chat                         func(ctx context.Context, g *generator, msgs []message, maxTokens int) (string, error)
}

// Generator names the provider and model, and Version for the prompt: a
// different model or prompt writes different hypotheses.
func (g *generator) Generator() (id, version string) {
	return g.cfg.Provider + "/" + g.cfg.Model, Version
}

func (g *generator) Hypothesize(ctx context.Context, query string) (mneme.Hypothesis, error) {
	text, err := g.chat(ctx, g, messages(query), hypothesisTokens)
	if err != nil {
		return mneme.Hypothesis{}, err
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return mneme.Hypothesis{}, &mneme.Error{Code: mneme.EUNAVAILABLE,
			Message: fmt.Sprintf("the language model at %s returned no text; try again or choose another llm.model", g.shown+g.path)}
	}
	id, version := g.Generator()
	return mneme.Hypothesis{Text: text, Query: query, GeneratorID: id, GeneratorVersion: version}, nil
}

// hypothesisTokens bounds a hypothesis: 2-4 sentences fit easily.
const hypothesisTokens = 200

// messages is the chat both providers receive.
func messages(query string) []message {
	return []message{{Role: "system", Content: Prompt}, {Role: "user", Content: query}}
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// post sends body as JSON and decodes the answer into out. Errors name the
// URL, never the headers (which may hold the API key).
func (g *generator) post(ctx context.Context, headers map[string]string, body, out any) error {
	peer := httpjson.Peer{Name: "the language model", Hint: g.hint, Check: "llm.url and llm.provider", MaxBody: maxBody}
	return httpjson.Post(ctx, g.client, peer, g.base+g.path, headers, body, out)
}
