// Package httpjson posts a JSON request to a remote model API (an embedding
// provider, a language model) and decodes the JSON answer, turning
// transport failures into EUNAVAILABLE errors that name the URL (never a
// credential).
package httpjson

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
	"github.com/mneme-ai/mneme/internal/secret"
)

// Peer names the remote end in messages and says what to do about it.
type Peer struct {
	Name    string // "the embedding provider", "the language model"
	Hint    string // how to make it reachable
	Check   string // where a wrong URL or provider is set, like "llm.url"; "" when nowhere
	MaxBody int64  // bytes read from an answer at most
}

// NewClient checks that a remote embedder names its model and dimension,
// and returns an HTTP client with the timeout (60 s when zero).
func NewClient(provider, model string, dim int, timeout time.Duration) (*http.Client, error) {
	if model == "" || dim <= 0 {
		return nil, mneme.Invalid("the %s embedder needs a model and its dimension (embedder.model, embedder.dim in config.json)", provider)
	}
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	return &http.Client{Timeout: timeout}, nil
}

// Post sends body to url with the given headers and decodes the answer into
// out.
func Post(ctx context.Context, client *http.Client, p Peer, url string, headers map[string]string, body, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return mneme.InternalError(err, "encode the request to "+p.Name)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	// Messages name the URL without its user info (a password for basic
	// authentication), never the headers (which may hold the API key).
	url = secret.RedactURLs(url)
	if err != nil {
		return mneme.Invalid("the URL %q of %s is not valid%s: %s", url, p.Name, p.check(), secret.RedactURLs(err.Error()))
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return p.unavailable(url, unwrapURL(err))
	}
	defer resp.Body.Close()
	payload, err := io.ReadAll(io.LimitReader(resp.Body, p.MaxBody+1))
	if err != nil {
		return p.unavailable(url, err)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return mneme.Invalid("%s at %s refused the credentials (HTTP %d): check the API key variable", p.Name, url, resp.StatusCode)
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		return p.unavailable(url, fmt.Errorf("HTTP %d: %s", resp.StatusCode, snippet(payload)))
	case resp.StatusCode != http.StatusOK:
		return mneme.Invalid("%s at %s rejected the request (HTTP %d): %s", p.Name, url, resp.StatusCode, snippet(payload))
	case int64(len(payload)) > p.MaxBody:
		return p.garbled(url, fmt.Sprintf("more than %d bytes", p.MaxBody))
	}
	if err := json.Unmarshal(payload, out); err != nil {
		return p.garbled(url, fmt.Sprintf("unexpected JSON (%v): %s", err, snippet(payload)))
	}
	return nil
}

// garbled is the error of an answer that cannot be used: the peer fails,
// as one that is down does (EUNAVAILABLE), not the caller's request.
func (p Peer) garbled(url, what string) *mneme.Error {
	return &mneme.Error{Code: mneme.EUNAVAILABLE,
		Message: fmt.Sprintf("%s at %s answered with %s%s", p.Name, url, what, p.check())}
}

func (p Peer) unavailable(url string, err error) *mneme.Error {
	return &mneme.Error{Code: mneme.EUNAVAILABLE, Err: err,
		Message: fmt.Sprintf("cannot reach %s at %s: %s; %s", p.Name, url, secret.RedactURLs(err.Error()), p.Hint)}
}

func (p Peer) check() string {
	if p.Check == "" {
		return ""
	}
	return " (check " + p.Check + ")"
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
