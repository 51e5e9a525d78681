package main_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestProviderURLCredentialsHidden: the user and password in embedder.url
// and llm.url reach no reader: not the settings or health resources, not
// stats, summarize's errors and fallback reason, the pending warning,
// doctor, nor the server's log, whatever the token.
func TestProviderURLCredentialsHidden(t *testing.T) {
	const (
		reader = "urlcred-reader-token-0123456789"
		alpha  = "urlcred-alpha-token-0123456789"
	)
	secrets := []string{"embuser", "EmbPass9x7", "llmuser", "LlmPass9x7"}
	home := t.TempDir()
	// Port 1 refuses connections: both providers are down.
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{
		"embedder":{"provider":"ollama","url":"http://embuser:EmbPass9x7@127.0.0.1:1","model":"nomic","dim":8},
		"llm":{"provider":"ollama","url":"http://llmuser:LlmPass9x7@127.0.0.1:1/","model":"llama"},
		"server":{"tokens":[{"name":"reader","token":"`+reader+`","access":"read"},
			{"name":"alpha","token":"`+alpha+`","access":"write","projects":["alpha"]}]}}`), 0o600)
	leaks := func(where, out string) {
		t.Helper()
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("%s shows %q:\n%s", where, s, out)
			}
		}
	}
	cli := func(args ...string) string {
		t.Helper()
		r := mneme(t, home, "", args...)
		return r.stdout + r.stderr
	}

	window := []string{"--project", "alpha", "--since", "1d", "--until", "now"}
	if out := cli("remember", "the deploy moved to Tuesday", "--project", "alpha", "--type", "episodic", "--json"); !strings.Contains(out, "pending") {
		t.Fatalf("the write did not wait for the embedder:\n%s", out)
	} else {
		leaks("remember --json", out)
	}
	if out := cli("remember", "the release train leaves at noon", "--project", "alpha", "--type", "episodic"); !strings.Contains(out, "pending embedding") {
		t.Fatalf("no pending warning:\n%s", out)
	} else {
		leaks("the pending warning", out)
	}
	leaks("stats", cli("stats", "--json"))
	leaks("doctor", cli("doctor"))
	leaks("doctor --json", cli("doctor", "--json"))
	if out := cli(append([]string{"summarize", "--strategy", "auto", "--json"}, window...)...); !strings.Contains(out, "fallback_reason") {
		t.Fatalf("summarize --strategy auto did not fall back:\n%s", out)
	} else {
		leaks("summarize's fallback reason", out)
	}
	leaks("summarize --strategy abstractive", cli(append([]string{"summarize", "--strategy", "abstractive"}, window...)...))

	s := serve(t, home)
	for _, token := range []string{reader, alpha} {
		_, _, body := httpDo(t, "GET", s.url+"/v1/stats", "", map[string]string{"Authorization": "Bearer " + token})
		leaks("GET /v1/stats", body)
	}
	for _, strategy := range []string{"auto", "abstractive"} {
		_, _, body := httpDo(t, "POST", s.url+"/v1/summarize", `{"project":"alpha","since":"1d","until":"now","strategy":"`+strategy+`"}`,
			map[string]string{"Authorization": "Bearer " + alpha, "Content-Type": "application/json"})
		leaks("POST /v1/summarize "+strategy, body)
	}
	for _, rc := range []struct{ token, uri string }{{reader, "mneme://settings"}, {reader, "mneme://health"}, {alpha, "mneme://health"}} {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "urlcreds", Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: s.url + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport(rc.token)}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: rc.uri})
		cs.Close()
		if err != nil {
			t.Fatalf("%s: %v", rc.uri, err)
		}
		text := res.Contents[0].Text
		if !json.Valid([]byte(text)) || rc.uri == "mneme://settings" && !strings.Contains(text, "127.0.0.1:1") {
			t.Fatalf("%s: %s", rc.uri, text)
		}
		leaks(rc.uri, text)
	}
	s.stop(t)
	leaks("the server's log", s.log.String())
}
