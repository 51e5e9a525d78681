package main_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPToolSet: `mneme mcp` serves the default tools, or those mcp.tools
// in config.json names; an unknown name stops it at start (exit 2) with
// the list of tools, and so does `mneme init`'s check of the file.
func TestMCPToolSet(t *testing.T) {
	for _, c := range []struct {
		config string
		want   []string
	}{
		{``, []string{"context", "forget", "get", "ops", "recall", "remember"}},
		{`{"mcp":{"tools":["recall","summarize"]}}`, []string{"recall", "summarize"}},
		{`{"mcp":{"tools":["default","list"]}}`, []string{"context", "forget", "get", "list", "ops", "recall", "remember"}},
		{`{"mcp":{"tools":"all"}}`, []string{"answer", "code_context", "context", "context_evidence", "forget", "get", "ground", "link", "list", "ops", "promote", "prune", "recall", "remember", "summarize", "sync", "update"}},
	} {
		home := t.TempDir()
		if c.config != "" {
			os.WriteFile(filepath.Join(home, "config.json"), []byte(c.config), 0o600)
		}
		if got := listTools(t, home); !slices.Equal(got, c.want) {
			t.Errorf("%s: tools %v, want %v", c.config, got, c.want)
		}
	}
	for _, c := range []struct{ config, want string }{
		{`{"mcp":{"tools":["recal"]}}`, `config.json: mcp.tools: "recal" is not a tool of mneme: use remember, recall, context, get, forget, ops, list,`},
		{`{"mcp":{"tools":[]}}`, "mcp.tools: the tool list is empty"},
		{`{"mcp":{"tools":"some"}}`, `mcp.tools "some" is not a list: give "all" or a list of tool names`},
		{`{"mcp":{"tools":3}}`, `mcp.tools must be "all" or a list of tool names, not 3`},
	} {
		home := t.TempDir()
		os.WriteFile(filepath.Join(home, "config.json"), []byte(c.config), 0o600)
		for _, args := range [][]string{{"mcp"}, {"mcp", "--tools-cost"}} {
			r := mneme(t, home, "", args...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
				t.Errorf("%s: mneme %v: exit %d, stdout %q, stderr %q; want exit 2 with %q", c.config, args, r.code, r.stdout, r.stderr, c.want)
			}
		}
	}
}

func listTools(t *testing.T, home string) []string {
	t.Helper()
	ctx := context.Background()
	cmd := exec.Command(bin, "mcp", "--embedder", "hash")
	cmd.Env = append(os.Environ(), "MNEME_HOME="+home)
	session, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	res, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// TestMCPToolsCost: --tools-cost prints each tool's tokens, marks the
// default and served ones, and keeps the default set within its budget.
func TestMCPToolsCost(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"mcp":{"tools":["default","summarize"]}}`), 0o600)
	type report struct {
		Tokenizer string
		Tools     []struct {
			Name            string
			Tokens          int
			Default, Served bool
		}
		Served  int `json:"served_tokens"`
		Default int `json:"default_tokens"`
		Budget  int `json:"default_budget"`
		All     int `json:"all_tokens"`
	}
	r := decode[report](t, ok(t, home, "mcp", "--tools-cost", "--json"))
	served, def, all := 0, 0, 0
	for _, tc := range r.Tools {
		all += tc.Tokens
		if tc.Served != (tc.Default || tc.Name == "summarize") || tc.Tokens < 20 {
			t.Errorf("%+v", tc)
		}
		if tc.Served {
			served += tc.Tokens
		}
		if tc.Default {
			def += tc.Tokens
		}
	}
	if r.Tokenizer != "cl100k_base" || len(r.Tools) != 16 || r.Served != served || r.Default != def || r.All != all || r.Budget != 2000 || def > r.Budget {
		t.Errorf("%+v", r)
	}
	text := ok(t, home, "mcp", "--tools-cost")
	if !strings.Contains(text, "summarize") || !strings.Contains(text, "served ") || !strings.Contains(text, "cl100k_base") {
		t.Errorf("--tools-cost:\n%s", text)
	}
}
