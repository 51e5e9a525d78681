package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
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
	cmd.Stdin = strings.NewReader(home + "\n\nhash\n\n")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Data directory") || !strings.Contains(string(out), "MCP clients") {
		t.Fatalf("init on a terminal: %v\n%s", err, out)
	}
	if data, err := os.ReadFile(filepath.Join(home, "config.json")); err != nil || !strings.Contains(string(data), `"provider": "hash"`) {
		t.Fatalf("config.json in the answered home: %s, %v", data, err)
	}
}

// TestInitFailsWhenTheHomeDoesNotWork: init whose own doctor check fails
// (postgres without its connection string) exits non-zero, says why, and
// does not offer the MCP client configs.
func TestInitFailsWhenTheHomeDoesNotWork(t *testing.T) {
	home := filepath.Join(t.TempDir(), "pg")
	r := mnemeEnv(t, "", "", []string{"MNEME_PG_DSN="}, "init", "--home", home, "--store", "postgres", "--embedder", "hash", "--yes")
	if r.code == 0 || strings.Contains(r.stdout, "MCP clients, ready to paste") || !strings.Contains(r.stdout, "MNEME_PG_DSN") || !strings.Contains(r.stderr, "does not work") {
		t.Fatalf("init with postgres and no connection string: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestInitAsksAgain: on a terminal, init asks again after an answer it
// cannot take (a typo), and asks what the chosen embedder needs (URL,
// model, dimension) and writes it.
func TestInitAsksAgain(t *testing.T) {
	t.Setenv("MNEME_EMBEDDER", "")
	script, err := exec.LookPath("script")
	if err != nil {
		skips.Skip(t, "install `script` (util-linux)", "no `script` to provide a terminal")
	}
	p := newProvider(t, "ok")
	home := filepath.Join(t.TempDir(), "asked")
	cmd := exec.Command(script, "-qec", bin+" init", "/dev/null")
	cmd.Env = append(os.Environ(), "MNEME_HOME="+t.TempDir())
	cmd.Stdin = strings.NewReader(strings.Join([]string{home, "sqlit", "sqlite", "olama", "ollama", p.URL, "fake", "eight", "8", "", ""}, "\n"))
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Count(string(out), "Store (") != 2 || strings.Count(string(out), "Embedder (") != 2 || strings.Count(string(out), "dimension") < 2 || !strings.Contains(string(out), "MCP clients") {
		t.Fatalf("init on a terminal with typos: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(home, "config.json"))
	if err != nil || !strings.Contains(string(data), `"provider": "ollama"`) || !strings.Contains(string(data), p.URL) || !strings.Contains(string(data), `"model": "fake"`) || !strings.Contains(string(data), `"dim": 8`) {
		t.Fatalf("config.json in the answered home: %s, %v", data, err)
	}
}
