package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSettings: the environment sets the embedder's dimension and the
// language model over config.json, and a bad value exits 2 naming its
// variable; config.json's recall section sets recall's defaults (a flag
// still wins); summarize takes the memory type and a model among those
// config.json allows, refusing others with exit 2.
func TestSettings(t *testing.T) {
	home := t.TempDir()
	refused := refusedURL(t)
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"hash"},"recall":{"mode":"lexical"},
		"llm":{"provider":"ollama","url":"`+refused+`","model":"m1","models":["m2"]}}`), 0o600)
	ok(t, home, "remember", "Deploys need a green build.", "--type", "procedural", "--project", "shop", "--at", "2026-04-02")
	type recallJSON struct {
		Mode string `json:"mode"`
		Hits []struct{ ID string }
	}
	if r := decode[recallJSON](t, ok(t, home, "recall", "deploys", "--project", "shop", "--json")); r.Mode != "lexical" || len(r.Hits) != 1 {
		t.Fatalf("recall with config.json's mode: %+v", r)
	}
	if r := decode[recallJSON](t, ok(t, home, "recall", "deploys", "--project", "shop", "--mode", "hybrid", "--json")); r.Mode != "hybrid" {
		t.Fatalf("--mode over config.json: %+v", r)
	}
	s := serve(t, home)
	var served recallJSON
	if code := httpJSON(t, "POST", s.url+"/v1/recall", `{"query":"deploys","project":"shop"}`, &served); code != 200 || served.Mode != "lexical" || len(served.Hits) != 1 {
		t.Fatalf("mneme serve with config.json's mode: %d %+v", code, served)
	}
	// A context package names its supplied hypothesis (item 4 of issue 27).
	req := filepath.Join(t.TempDir(), "req.json")
	os.WriteFile(req, []byte(`{"query":"deploys","project":"shop","mode":"hybrid","hyde":{"hypothesis":"A deploy waits for a green build.","query":"deploys","generator_id":"agent","generator_version":"1"}}`), 0o600)
	type pkgJSON struct {
		HyDE struct {
			GeneratorID string `json:"generator_id"`
			Hash        string `json:"hypothesis_sha256"`
			Supplied    bool
		} `json:"hyde"`
	}
	if p := decode[pkgJSON](t, ok(t, home, "context", "--request", req, "--json")); p.HyDE.GeneratorID != "agent" || len(p.HyDE.Hash) != 64 || !p.HyDE.Supplied {
		t.Fatalf("context package provenance: %+v", p)
	}
	window := []string{"summarize", "--project", "shop", "--since", "2026-04-01", "--until", "2026-04-03"}
	type sumJSON struct {
		SourceIDs []string                 `json:"source_ids"`
		Used      struct{ Types []string } `json:"used_filters"`
	}
	if s := decode[sumJSON](t, ok(t, home, append(window, "--type", "procedural", "--json")...)); len(s.SourceIDs) != 1 || s.Used.Types[0] != "procedural" {
		t.Fatalf("summarize --type procedural: %+v", s)
	}
	for _, c := range []struct {
		env  []string
		args []string
		code int
		msg  string
	}{
		{[]string{"MNEME_EMBEDDER_DIM=384d"}, []string{"recall", "deploys"}, 2, `MNEME_EMBEDDER_DIM="384d" is not a dimension`},
		{[]string{"MNEME_LLM_PROVIDER=claude"}, []string{"stats"}, 2, `MNEME_LLM_PROVIDER="claude" is not a language model provider`},
		{nil, append(window, "--type", "dream"), 2, `type "dream" is not valid`},
		{nil, append(window, "--type", "procedural", "--model", "gpt-5"), 2, `model "gpt-5" is not one this deployment allows: use m1, m2`},
		{nil, append(window, "--type", "procedural", "--provider", "openai"), 2, `provider "openai" is not this deployment's`},
		{nil, append(window, "--type", "procedural", "--model", "m2"), 1, refused},                                 // allowed: asked, and its server is down
		{[]string{"MNEME_LLM_MODEL=m9"}, append(window, "--type", "procedural", "--model", "m1"), 2, "use m9, m2"}, // the environment's model is the default
	} {
		r := mnemeEnv(t, home, "", c.env, c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%v %v: exit %d, %s", c.env, c.args, r.code, r.stderr)
		}
	}
}
