package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/secret"
)

// Chat asks the model one question under a system prompt the caller owns
// (consolidation's summary prompt, for one) and returns its answer,
// trimmed. maxTokens bounds the answer (0: the provider's default). Like
// hypotheses, answers are asked for at temperature 0 with a fixed seed.
func (g *generator) Chat(ctx context.Context, system, user string, maxTokens int) (string, error) {
	msgs := []message{{Role: "system", Content: system}, {Role: "user", Content: user}}
	text, err := g.chat(ctx, g, msgs, maxTokens)
	if err != nil {
		return "", err
	}
	if text = strings.TrimSpace(text); text == "" {
		return "", &mneme.Error{Code: mneme.EUNAVAILABLE,
			Message: fmt.Sprintf("the language model at %s returned no text; try again or choose another llm.model", g.shown+g.path)}
	}
	return text, nil
}

// Model names the provider and the model, like "ollama/llama3.2".
func (g *generator) Model() (provider, model string) { return g.cfg.Provider, g.cfg.Model }

// healthTimeout bounds a health check: a provider that takes longer to
// list its models is treated as down.
const healthTimeout = 3 * time.Second

// Health reports whether the provider answers: Ollama's GET /api/tags,
// an OpenAI-compatible server's GET /v1/models. nil when it answers 200;
// EUNAVAILABLE naming the URL otherwise.
func (g *generator) Health(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.base+g.healthPath, nil)
	where := g.shown + g.healthPath
	if err != nil {
		return mneme.Invalid("the URL %q of the language model is not valid (check llm.url): %s", where, secret.RedactURLs(err.Error()))
	}
	if g.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+g.cfg.APIKey)
	}
	resp, err := g.client.Do(req)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		err = fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return &mneme.Error{Code: mneme.EUNAVAILABLE, Err: err,
		Message: fmt.Sprintf("the language model at %s does not answer (%s): %s", where, secret.RedactURLs(unwrap(err).Error()), g.hint)}
}

// unwrap drops the method and URL that *url.Error repeats.
func unwrap(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
