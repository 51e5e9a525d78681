// Package llm writes HyDE hypotheses with a language model: given a recall
// query, it asks an Ollama or OpenAI-compatible chat API for a short passage
// that might answer it, so recall can also search for answers.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mneme-ai/mneme"
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
}

// New checks cfg and returns the generator for its provider.
func New(cfg Config) (mneme.HypothesisGenerator, error) {
	var g *generator
	switch cfg.Provider {
	case "ollama":
		g = &generator{base: "http://127.0.0.1:11434", path: "/api/chat", call: ollamaCall,
			hint: "start Ollama (ollama serve) and pull the model (ollama pull " + cfg.Model + "), or check llm.url"}
	case "openai":
		g = &generator{base: "https://api.openai.com", path: "/v1/chat/completions", call: openaiCall,
			hint: "check llm.url and that the server is running"}
	default:
		return nil, mneme.Invalid("unknown LLM provider %q: set llm.provider in config.json to \"ollama\" or \"openai\"", cfg.Provider)
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, mneme.Invalid("the %s LLM needs a model: set llm.model in config.json", cfg.Provider)
	}
	if cfg.BaseURL != "" {
		g.base = strings.TrimRight(cfg.BaseURL, "/")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 60 * time.Second
	}
	g.cfg, g.client = cfg, &http.Client{Timeout: cfg.Timeout}
	return g, nil
}

// generator is shared by the providers; call sends the provider's request
// and returns the model's text.
type generator struct {
	cfg              Config
	client           *http.Client
	base, path, hint string
	call             func(ctx context.Context, g *generator, query string) (string, error)
}

// Generator names the provider and model, and Version for the prompt: a
// different model or prompt writes different hypotheses.
func (g *generator) Generator() (id, version string) {
	return g.cfg.Provider + "/" + g.cfg.Model, Version
}

func (g *generator) Hypothesize(ctx context.Context, query string) (mneme.Hypothesis, error) {
	text, err := g.call(ctx, g, query)
	if err != nil {
		return mneme.Hypothesis{}, err
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return mneme.Hypothesis{}, &mneme.Error{Code: mneme.EUNAVAILABLE,
			Message: fmt.Sprintf("the language model at %s returned no text; try again or choose another llm.model", g.base+g.path)}
	}
	id, version := g.Generator()
	return mneme.Hypothesis{Text: text, GeneratorID: id, GeneratorVersion: version}, nil
}

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
	u := g.base + g.path
	data, err := json.Marshal(body)
	if err != nil {
		return mneme.InternalError(err, "encode LLM request")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(data))
	if err != nil {
		return mneme.Invalid("LLM URL %q is not valid (llm.url in config.json): %v", u, err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := g.client.Do(req)
	if err != nil {
		return g.unavailable(unwrapURL(err))
	}
	defer resp.Body.Close()
	payload, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return g.unavailable(err)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return mneme.Invalid("the LLM at %s refused the credentials (HTTP %d): check the API key variable", u, resp.StatusCode)
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		return g.unavailable(fmt.Errorf("HTTP %d: %s", resp.StatusCode, snippet(payload)))
	case resp.StatusCode != http.StatusOK:
		return mneme.Invalid("the LLM at %s rejected the request (HTTP %d): %s", u, resp.StatusCode, snippet(payload))
	case len(payload) > maxBody:
		return mneme.Invalid("the LLM at %s answered with more than %d bytes: check llm.url", u, maxBody)
	}
	if err := json.Unmarshal(payload, out); err != nil {
		return mneme.Invalid("the LLM at %s answered with unexpected JSON (check llm.url and llm.provider): %v", u, err)
	}
	return nil
}

// unavailable is mneme.Unavailable worded for a language model rather than
// an embedding provider.
func (g *generator) unavailable(err error) *mneme.Error {
	return &mneme.Error{Code: mneme.EUNAVAILABLE, Err: err,
		Message: fmt.Sprintf("cannot reach the language model at %s: %v; %s", g.base+g.path, err, g.hint)}
}

// unwrapURL drops the method and URL that *url.Error repeats: the message
// names the URL once.
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// snippet quotes at most 200 bytes of a body, cut on a rune boundary.
func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) <= 200 {
		return s
	}
	n := 200
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
