package main_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestHookAbstractiveSummary: with a language model configured, a
// session's end writes the extractive summary and starts an abstractive
// one in a process of its own: the hook returns while the model has not
// answered yet, and the abstractive summary, once written, supersedes the
// extractive one of the same session.
func TestHookAbstractiveSummary(t *testing.T) {
	release := make(chan struct{})
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/tags":
			io.WriteString(w, `{"models":[]}`)
		case "/api/chat":
			asked.Add(1)
			select { // the model answers when the test lets it
			case <-release:
			case <-r.Context().Done():
				return
			}
			json.NewEncoder(w).Encode(map[string]any{"message": map[string]string{"role": "assistant",
				"content": "The session chased the flaky TestRetryBackoff: its backoff is 180 ms, under the 200 ms the test wants."}})
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	home, repo := hookHome(t)
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"hash"},"llm":{"provider":"ollama","url":"`+srv.URL+`","model":"m1"}}`), 0o600)
	for _, ev := range fixture(t, "claude-code", repo) {
		if strings.Contains(ev, `"SessionEnd"`) || strings.Contains(ev, `"Stop"`) || strings.Contains(ev, `"PreCompact"`) {
			continue
		}
		hookRun(t, home, "claude-code", ev)
	}
	end := `{"session_id":"cc-7f3a","cwd":"` + repo + `","hook_event_name":"SessionEnd","reason":"other"}`
	hookRun(t, home, "claude-code", end) // returns with the model still thinking
	summaries := func() (strategies []string) {
		l := decode[listed](t, ok(t, home, "list", "--project", "shop-api", "--kind", "summary", "--json"))
		for _, r := range l.Records {
			m, _ := r.Meta["summary"].(map[string]any)
			strategies = append(strategies, m["strategy"].(string))
		}
		return strategies
	}
	if got := summaries(); len(got) != 1 || got[0] != "extractive" {
		t.Fatalf("after the hook: summaries %v, want the extractive one", got)
	}
	deadline := time.Now().Add(20 * time.Second)
	for asked.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if asked.Load() == 0 {
		b, _ := os.ReadFile(filepath.Join(home, "logs", "hooks.log"))
		t.Fatalf("no abstractive summary was started; hook log:\n%s", b)
	}
	close(release)
	for time.Now().Before(deadline) {
		if got := summaries(); len(got) == 1 && got[0] == "abstractive" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b, _ := os.ReadFile(filepath.Join(home, "logs", "hooks.log"))
	t.Fatalf("summaries %v, want the abstractive one in place of the extractive; hook log:\n%s", summaries(), b)
}
