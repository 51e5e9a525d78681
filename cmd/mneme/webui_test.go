package main_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

// Tokens of the web UI's browser test.
const (
	uiWriter = "ui-writer-0123456789abcdef"
	uiReader = "ui-reader-0123456789abcdef"
	uiSeeder = "ui-seeder-0123456789abcdef" // clearance secret, to seed a secret record
)

// uiHome is a home with the hash embedder and the browser test's tokens.
func uiHome(t testing.TB) string {
	home := t.TempDir()
	conf := `{"embedder":{"provider":"hash"},"server":{"tokens":[` +
		`{"name":"writer","token":"` + uiWriter + `","access":"write"},` +
		`{"name":"reader","token":"` + uiReader + `","access":"read"},` +
		`{"name":"seeder","token":"` + uiSeeder + `","access":"write","clearance":"secret"}]}}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// remember stores one memory through the API and returns its id.
func remember(t testing.TB, url, token string, req map[string]any) string {
	t.Helper()
	body, _ := json.Marshal(req)
	r, _ := http.NewRequest("POST", url+"/v1/memories", bytes.NewReader(body))
	r.Header.Set("Authorization", "Bearer "+token)
	r.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct{ ID string }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != 201 || out.ID == "" {
		t.Fatalf("remember %v: %d %v", req, res.StatusCode, err)
	}
	return out.ID
}

// seedUI stores what the browser test looks at: a sourced memory, one to
// forget, a secret one, and a captured session (ops-like records: a
// session, a prompt and tool calls sharing a session_id).
func seedUI(t testing.TB, url string) map[string]string {
	ids := map[string]string{
		"deploy": remember(t, url, uiWriter, map[string]any{"text": "We deploy with make release on Fridays, after the tests pass.",
			"project": "demo", "type": "procedural", "tags": []string{"release", "ops"}, "source": "docs/release.md:3-9"}),
		"forget":  remember(t, url, uiWriter, map[string]any{"text": "A wrong note about deploy releases on Mondays.", "project": "demo", "tags": []string{"release"}}),
		"promote": remember(t, url, uiWriter, map[string]any{"text": "We learned that the cache must be warmed before a release.", "project": "demo", "type": "episodic", "kind": "learning"}),
		"secret":  remember(t, url, uiSeeder, map[string]any{"text": "The vault password is hunter2 for the deploy release.", "project": "demo", "sensitivity": "secret"}),
	}
	const sess = "sess-ui-1"
	ids["session"] = remember(t, url, uiWriter, map[string]any{"text": "Session sess-ui-1 (claude-code) fixing the flaky test", "project": "demo",
		"type": "episodic", "kind": "session", "session_id": sess, "key": "ops:session:" + sess, "tags": []string{"ops", "claude-code"},
		"occurred_at": "2026-03-02T10:00:00Z", "meta": map[string]any{"ops": "session", "host": "claude-code"}})
	steps := []struct{ kind, text, at string }{
		{"turn", "fix the flaky test in sqlite", "2026-03-02T10:00:05Z"},
		{"tool_call", "Bash: go test ./... -> FAIL sqlite TestLock", "2026-03-02T10:01:00Z"},
		{"tool_call", "Edit: sqlite/lock.go -> ok", "2026-03-02T10:03:00Z"},
	}
	for _, s := range steps {
		remember(t, url, uiWriter, map[string]any{"text": s.text, "project": "demo", "type": "episodic", "kind": s.kind,
			"session_id": sess, "tags": []string{"ops"}, "occurred_at": s.at})
	}
	return ids
}

// uiNode returns the browser test's directory and its node (Node 22 from
// the node package), or skips (fails with MNEME_E2E_BROWSER set, as .ci/run
// sets it) when they or chromium are missing.
func uiNode(t testing.TB) (dir, node string) {
	dir, _ = filepath.Abs("../../e2e/webui")
	node = filepath.Join(dir, "node_modules", ".bin", "node")
	_, errMods := os.Stat(filepath.Join(dir, "node_modules", "playwright-core"))
	_, errNode := os.Stat(node)
	_, errChromium := os.Stat(cmp.Or(os.Getenv("CHROMIUM"), "/usr/bin/chromium"))
	for _, err := range []error{errMods, errNode, errChromium} {
		if err == nil {
			continue
		}
		if os.Getenv("MNEME_E2E_BROWSER") != "" {
			t.Fatalf("MNEME_E2E_BROWSER is set but the browser test cannot run: %v (npm ci in e2e/webui; apt-get install chromium)", err)
		}
		skips.Skip(t, "apt-get install chromium; npm ci in e2e/webui (MNEME_E2E_BROWSER=1 then requires it)", "no chromium or no e2e/webui/node_modules")
	}
	return dir, node
}

// TestWebUI drives the web UI in a real browser (e2e/webui/ui.mjs) against
// a real `mneme serve` with tokens. Screenshots go to the folder
// MNEME_UI_SHOTS names, else webui-shots in the test's temporary folder.
func TestWebUI(t *testing.T) {
	dir, node := uiNode(t)
	s := serve(t, uiHome(t))
	ids := seedUI(t, s.url)
	seed, _ := json.Marshal(ids)
	shots := cmp.Or(os.Getenv("MNEME_UI_SHOTS"), filepath.Join(t.TempDir(), "webui-shots"))
	cmd := exec.Command(node, "ui.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MNEME_URL="+s.url, "MNEME_WRITE_TOKEN="+uiWriter, "MNEME_READ_TOKEN="+uiReader,
		"MNEME_SHOTS="+shots, "MNEME_SEED="+string(seed))
	out, err := cmd.CombinedOutput()
	t.Logf("screenshots in %s\n%s", shots, out)
	if err != nil {
		t.Fatalf("the browser test failed: %v\nserver log:\n%s", err, s.log)
	}
	for _, name := range []string{"login", "search", "record", "projects", "timeline", "session", "context", "health"} {
		if _, err := os.Stat(filepath.Join(shots, name+".png")); err != nil {
			t.Errorf("no screenshot of %s: %v", name, err)
		}
	}
}
