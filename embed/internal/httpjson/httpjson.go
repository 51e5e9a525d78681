// Package httpjson posts a JSON request to an embedding API and decodes the
// JSON answer, turning transport failures into EUNAVAILABLE errors that name
// the URL (never a credential).
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

	"github.com/mneme-ai/mneme"
)

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
// out. hint says how to make the provider reachable.
func Post(ctx context.Context, client *http.Client, url string, headers map[string]string, body, out any, hint string) error {
	data, err := json.Marshal(body)
	if err != nil {
		return mneme.InternalError(err, "encode embedding request")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return mneme.Invalid("embedding provider URL %q is not valid: %v", url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return mneme.Unavailable(url, unwrapURL(err), hint)
	}
	defer resp.Body.Close()
	payload, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return mneme.Unavailable(url, err, hint)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return mneme.Invalid("the embedding provider at %s refused the credentials (HTTP %d): check the API key variable", url, resp.StatusCode)
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		return mneme.Unavailable(url, fmt.Errorf("HTTP %d: %s", resp.StatusCode, snippet(payload)), hint)
	case resp.StatusCode != http.StatusOK:
		return mneme.Invalid("the embedding provider at %s rejected the request (HTTP %d): %s", url, resp.StatusCode, snippet(payload))
	}
	if err := json.Unmarshal(payload, out); err != nil {
		return mneme.Invalid("the embedding provider at %s answered with unexpected JSON: %v", url, err)
	}
	return nil
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

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
