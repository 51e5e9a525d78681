package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

type embedJSON struct {
	Provider, Model, Version string
	Dim                      int
	Vector                   []float32
}

func TestEmbedCommand(t *testing.T) {
	home := t.TempDir()
	one := decode[embedJSON](t, ok(t, home, "embed", "release pipeline", "--embedder", "hash", "--json"))
	if one.Provider != "hash" || one.Dim != 256 || len(one.Vector) != 256 {
		t.Fatalf("embed = %+v", one)
	}
	file := filepath.Join(t.TempDir(), "texts.txt")
	os.WriteFile(file, []byte("first text\nrelease pipeline\nthird\n"), 0o600)
	cmd := exec.Command(bin, "embed", "--batch", file, "--json")
	cmd.Env = append(os.Environ(), "MNEME_HOME="+home, "MNEME_EMBEDDER=hash")
	out, err := cmd.Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil || len(lines) != 3 || !reflect.DeepEqual(decode[embedJSON](t, lines[1]).Vector, one.Vector) {
		t.Fatalf("batch: %v, %d lines", err, len(lines))
	}
}

func TestEmbedderSwitchNeedsReindex(t *testing.T) {
	home := t.TempDir()
	ok(t, home, "remember", "alpha beta gamma", "--embedder", "hash")
	ok(t, home, "remember", "delta epsilon", "--embedder", "hash")
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"hash","dim":64}}`), 0o600)
	r := mneme(t, home, "", "remember", "zeta eta", "--json")
	if r.code != 1 || !strings.Contains(r.stderr, "ECONFLICT") || !strings.Contains(r.stderr, "(256 dimensions)") || !strings.Contains(r.stderr, "mneme reindex") {
		t.Fatalf("mismatched embedder: %+v", r)
	}
	res := decode[struct {
		Embedded int
		Embedder struct{ Dim int }
	}](t, ok(t, home, "reindex", "--json"))
	if res.Embedded != 2 || res.Embedder.Dim != 64 {
		t.Fatalf("reindex = %+v", res)
	}
	ok(t, home, "remember", "zeta eta")
}

func TestEmbedderErrors(t *testing.T) {
	home := t.TempDir()
	cases := []struct {
		config string
		args   []string
		code   int
		want   string
		env    []string
	}{
		{"", []string{"embed", "x", "--embedder", "word2vec"}, 2, `embedder "word2vec" is not known`, nil},
		{"", []string{"embed", "x", "--embedder", "none"}, 2, "no embedder is configured", nil},
		{`{"model_dir":"/nonexistent/model"}`, []string{"embed", "x"}, 1, "the built-in embedding model is not in /nonexistent/model: run `mneme model fetch`", []string{"MNEME_MODEL_DIR="}},
		{"", []string{"embed", "x"}, 1, "the built-in embedding model is not in /elsewhere", []string{"MNEME_MODEL_DIR=/elsewhere"}},
		{`{"embedder":{"provider":"hash"},"colour":1}`, []string{"embed", "x"}, 2, `config.json: unknown field "colour"`, nil},
		{`{"embedder":{"provider":"ollama"}}`, []string{"embed", "x"}, 2, "needs a model and its dimension", nil},
		{`{"embedder":{"provider":"ollama","url":"http://127.0.0.1:9","model":"m","dim":8}}`, []string{"embed", "x"}, 1, "cannot reach the embedding provider at http://127.0.0.1:9/api/embed", nil},
		{`{"embedder":{"provider":"openai","model":"m","dim":8,"api_key_env":"MNEME_TEST_UNSET_KEY"}}`, []string{"embed", "x"}, 2, "MNEME_TEST_UNSET_KEY named in config.json is not set", nil},
	}
	for _, c := range cases {
		os.Remove(filepath.Join(home, "config.json"))
		if c.config != "" {
			os.WriteFile(filepath.Join(home, "config.json"), []byte(c.config), 0o600)
		}
		r := mnemeEnv(t, home, "", c.env, append(c.args, "--json")...)
		if msg := decode[struct{ Error struct{ Message string } }](t, r.stderr).Error.Message; r.code != c.code || !strings.Contains(msg, c.want) {
			t.Errorf("%v with config %s: exit %d, %s", c.args, c.config, r.code, r.stderr)
		}
	}
}

// TestHomeEmbedder: a home written with --embedder hash is usable without
// the flag; a flag, the environment or config.json still choose first.
func TestHomeEmbedder(t *testing.T) {
	home := t.TempDir()
	env := []string{"MNEME_EMBEDDER="}
	ok(t, home, "remember", "alpha beta gamma", "--embedder", "hash")
	if r := mnemeEnv(t, home, "", env, "remember", "delta epsilon", "--json"); r.code != 0 {
		t.Fatalf("remember without the flag: %+v", r)
	}
	r := mnemeEnv(t, home, "", env, "recall", "alpha", "--mode", "vector", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, "alpha beta gamma") {
		t.Fatalf("vector recall without the flag: %+v", r)
	}
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"hash","dim":32}}`), 0o600)
	if r := mnemeEnv(t, home, "", env, "remember", "eta theta", "--json"); r.code != 1 || !strings.Contains(r.stderr, "ECONFLICT") {
		t.Fatalf("config.json chooses before the home: %+v", r)
	}
}
