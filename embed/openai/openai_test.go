package openai_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/openai"
)

const key = "sk-test-abcdefghijklmnopqrstuvwxyz"

func server(t *testing.T, status int) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer "+key {
			t.Errorf("request %s %s auth %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "text-embedding-3-small" {
			t.Errorf("body %+v, %v", req, err)
		}
		if status != http.StatusOK {
			w.WriteHeader(status)
			w.Write([]byte(`{"error":{"message":"nope"}}`))
			return
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i := len(req.Input) - 1; i >= 0; i-- { // out of order, as the API allows
			data = append(data, item{Index: i, Embedding: []float32{float32(i), 1}})
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
	}))
}

func TestEmbedOrdersByIndex(t *testing.T) {
	srv := server(t, http.StatusOK)
	defer srv.Close()
	e, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1/", Model: "text-embedding-3-small", Dim: 2, APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	vecs, err := e.Embed(context.Background(), []string{"a", "b", "c"})
	if err != nil || len(vecs) != 3 || vecs[0][0] != 0 || vecs[2][0] != 2 {
		t.Fatalf("Embed = %v, %v", vecs, err)
	}
}

func TestErrorsNeverEchoTheKey(t *testing.T) {
	for _, c := range []struct {
		status int
		code   string
	}{{http.StatusUnauthorized, mneme.EINVALID}, {http.StatusInternalServerError, mneme.EUNAVAILABLE}, {http.StatusBadRequest, mneme.EINVALID}} {
		srv := server(t, c.status)
		e, _ := openai.New(openai.Config{BaseURL: srv.URL, Model: "text-embedding-3-small", Dim: 2, APIKey: key})
		_, err := e.Embed(context.Background(), []string{"a"})
		srv.Close()
		if mneme.ErrorCode(err) != c.code || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), srv.URL) {
			t.Fatalf("HTTP %d: %v", c.status, err)
		}
	}
}
