package ollama_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/ollama"
)

// server answers /api/embed like Ollama, after checking the request shape.
func server(t *testing.T, dim int) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/embed" || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("request %s %s %s", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
		}
		var req map[string]any
		dec := json.NewDecoder(r.Body)
		if err := dec.Decode(&req); err != nil || req["model"] != "nomic-embed-text" || len(req) != 2 {
			t.Errorf("body %v, %v", req, err)
		}
		input := req["input"].([]any)
		out := make([][]float32, len(input))
		for i := range out {
			out[i] = make([]float32, dim)
			out[i][i%dim] = 1
		}
		json.NewEncoder(w).Encode(map[string]any{"model": "nomic-embed-text", "embeddings": out})
	}))
}

func TestEmbed(t *testing.T) {
	srv := server(t, 4)
	defer srv.Close()
	e, err := ollama.New(ollama.Config{BaseURL: srv.URL, Model: "nomic-embed-text", Dim: 4})
	if err != nil {
		t.Fatal(err)
	}
	vecs, err := e.Embed(context.Background(), []string{"a", "b"})
	if err != nil || len(vecs) != 2 || vecs[1][1] != 1 {
		t.Fatalf("Embed = %v, %v", vecs, err)
	}
	if info := e.Info(); info.ID() != "ollama/nomic-embed-text" || info.Dim != 4 {
		t.Fatalf("info = %+v", info)
	}
}

func TestWrongDimension(t *testing.T) {
	srv := server(t, 3)
	defer srv.Close()
	e, _ := ollama.New(ollama.Config{BaseURL: srv.URL, Model: "nomic-embed-text", Dim: 4})
	_, err := e.Embed(context.Background(), []string{"a"})
	if mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(err.Error(), "dimension 3, configured for 4") {
		t.Fatalf("err = %v", err)
	}
}

func TestUnreachable(t *testing.T) {
	srv := server(t, 4)
	url := srv.URL
	srv.Close()
	e, _ := ollama.New(ollama.Config{BaseURL: url, Model: "nomic-embed-text", Dim: 4})
	_, err := e.Embed(context.Background(), []string{"a"})
	if mneme.ErrorCode(err) != mneme.EUNAVAILABLE || !strings.Contains(err.Error(), url+"/api/embed") || !strings.Contains(err.Error(), "ollama serve") {
		t.Fatalf("err = %v", err)
	}
}

func TestConfig(t *testing.T) {
	if _, err := ollama.New(ollama.Config{Model: "m"}); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("missing dim: %v", err)
	}
}
