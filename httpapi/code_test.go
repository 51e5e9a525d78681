package httpapi_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mneme-ai/mneme/codemem"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
)

// codeRepo is a small repository under a new allowed directory, and the
// service that allows it.
func codeRepo(t *testing.T) (string, *codemem.Service) {
	t.Helper()
	allowed := t.TempDir()
	root := filepath.Join(allowed, "app")
	os.MkdirAll(filepath.Join(root, "cmd", "app"), 0o755)
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/app\n"), 0o644)
	os.WriteFile(filepath.Join(root, "cmd", "app", "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	return root, codemem.New(codemem.Options{CacheDir: t.TempDir(), Restrict: true, Roots: []string{allowed}})
}

// TestCodeRoutes: the code routes serve roots under code.roots, with the
// envelope, and refuse any other root with 403 EFORBIDDEN.
func TestCodeRoutes(t *testing.T) {
	root, svc := codeRepo(t)
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer}, Code: svc})
	res := e.do("POST", "/v1/code/explore", &writer, map[string]any{"project_root": root})
	var env codemem.Envelope
	if res.status != 200 || json.Unmarshal(res.body, &env) != nil || env.CacheStatus != codemem.Miss || env.Context == nil ||
		len(env.Context.EntryPoints) != 1 || env.Stats.FileCount != 2 {
		t.Fatalf("explore: %d %s", res.status, res.body)
	}
	res = e.do("POST", "/v1/code/delta", &writer, map[string]any{"project_root": root, "detail": "normal"})
	env = codemem.Envelope{}
	if res.status != 200 || json.Unmarshal(res.body, &env) != nil || env.CacheStatus != codemem.Hit || env.Context != nil || env.Command != "delta" {
		t.Fatalf("delta: %d %s", res.status, res.body)
	}
	for _, tc := range []struct {
		body   map[string]any
		status int
	}{
		{map[string]any{"project_root": t.TempDir()}, 403},
		{map[string]any{"project_root": "/"}, 403},
		{map[string]any{"project_root": filepath.Join(root, "..", "..")}, 403},
		{map[string]any{"project_root": "app"}, 400},
		{map[string]any{"project_root": root, "detail": "huge"}, 400},
		{map[string]any{"project_root": root, "depth": 3}, 400},
	} {
		res := e.do("POST", "/v1/code/context", &writer, tc.body)
		if res.status != tc.status {
			t.Errorf("%v: %d %s, want %d", tc.body, res.status, res.body, tc.status)
		}
	}
	// Without code.roots, nothing is served.
	e = newEnv(t, httpapi.Config{})
	if res := e.do("POST", "/v1/code/refresh", nil, map[string]any{"project_root": root}); res.status != 403 {
		t.Fatalf("without roots: %d %s", res.status, res.body)
	}
}
