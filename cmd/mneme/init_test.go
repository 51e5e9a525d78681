package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInitWithFlags: init writes config.json, runs doctor and prints the
// client configs for this home; a bad choice changes nothing.
func TestInitWithFlags(t *testing.T) {
	home := filepath.Join(t.TempDir(), "new-home")
	out := decode[struct {
		Home, Embedder string
		Checks         []struct {
			Name string
			OK   bool
		}
		Clients map[string]string
	}](t, ok(t, "", "init", "--home", home, "--embedder", "hash", "--yes", "--json"))
	if out.Home != home || out.Embedder != "hash" || len(out.Checks) == 0 || !strings.Contains(out.Clients["codex"], home) {
		t.Fatalf("init = %+v", out)
	}
	for _, c := range out.Checks {
		if !c.OK {
			t.Errorf("check %s failed", c.Name)
		}
	}
	if data, err := os.ReadFile(filepath.Join(home, "config.json")); err != nil || !strings.Contains(string(data), `"provider": "hash"`) {
		t.Fatalf("config.json: %s, %v", data, err)
	}
	// The home is usable at once, without the flag.
	ok(t, home, "remember", "set up by init")
	other := filepath.Join(t.TempDir(), "bad")
	if r := mneme(t, "", "", "init", "--home", other, "--embedder", "word2vec", "--yes"); r.code != 2 || !strings.Contains(r.stderr, "not known") {
		t.Fatalf("bad embedder: %+v", r)
	}
	if _, err := os.Stat(other); err == nil {
		t.Fatal("a refused init created the home")
	}
}

// TestInitOnATerminal answers init's questions under a pseudo-terminal
// (script from util-linux).
func TestInitOnATerminal(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Fatalf("this test needs `script` (util-linux): %v", err)
	}
	home := filepath.Join(t.TempDir(), "asked")
	cmd := exec.Command(script, "-qec", bin+" init", "/dev/null")
	cmd.Env = append(os.Environ(), "MNEME_HOME="+t.TempDir())
	cmd.Stdin = strings.NewReader(home + "\n\nhash\n")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Data directory") || !strings.Contains(string(out), "MCP clients") {
		t.Fatalf("init on a terminal: %v\n%s", err, out)
	}
	if data, err := os.ReadFile(filepath.Join(home, "config.json")); err != nil || !strings.Contains(string(data), `"provider": "hash"`) {
		t.Fatalf("config.json in the answered home: %s, %v", data, err)
	}
}
