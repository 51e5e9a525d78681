package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestServeCode: `mneme serve` explores a repository under code.roots and
// gives the CLI's context slice for it; any other root is refused with 403
// EFORBIDDEN.
func TestServeCode(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("MNEME_EMBEDDER", "hash")
	src := t.TempDir()
	repo := filepath.Join(src, "tool")
	os.MkdirAll(filepath.Join(repo, "pkg"), 0o755)
	os.WriteFile(filepath.Join(repo, "main.py"), []byte("from pkg import util\nimport click\n\nif __name__ == \"__main__\":\n    util.run()\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "pkg", "util.py"), []byte("def run():\n    pass\n"), 0o644)
	home := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"code": map[string]any{"roots": []string{src}}})
	os.WriteFile(filepath.Join(home, "config.json"), cfg, 0o600)
	s := serve(t, home)

	var served struct {
		CacheStatus string          `json:"cache_status"`
		Context     json.RawMessage `json:"context"`
	}
	body, _ := json.Marshal(map[string]any{"project_root": repo})
	if code := httpJSON(t, "POST", s.url+"/v1/code/context", string(body), &served); code != 200 || served.CacheStatus != "miss" {
		t.Fatalf("context: %d %+v", code, served)
	}
	var cli struct {
		CacheStatus string          `json:"cache_status"`
		Context     json.RawMessage `json:"context"`
	}
	json.Unmarshal([]byte(ok(t, home, "code", "context", repo, "--json")), &cli)
	if cli.CacheStatus != "hit" || string(cli.Context) != string(served.Context) {
		t.Fatalf("the CLI (%s) and the server differ:\n%s\n%s", cli.CacheStatus, cli.Context, served.Context)
	}
	var refused struct {
		Error struct{ Code string } `json:"error"`
	}
	body, _ = json.Marshal(map[string]any{"project_root": t.TempDir()})
	if code := httpJSON(t, "POST", s.url+"/v1/code/explore", string(body), &refused); code != 403 || refused.Error.Code != "EFORBIDDEN" {
		t.Fatalf("outside code.roots: %d %+v", code, refused)
	}
}
