package config_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/mcpserver"
)

// TestMCPTools: mcp.tools is "all" or a list of names; left out, the
// default tools; anything else is EINVALID from Load (its shape) or
// MCPTools and File.Check (its names), naming the tools.
func TestMCPTools(t *testing.T) {
	for _, c := range []struct {
		file string
		want []string
		err  string
	}{
		{`{}`, mcpserver.DefaultTools, ""},
		{`{"mcp":{}}`, mcpserver.DefaultTools, ""},
		{`{"mcp":{"tools":"all"}}`, mcpserver.AllTools, ""},
		{`{"mcp":{"tools":["prune","recall"]}}`, []string{"recall", "prune"}, ""},
		{`{"mcp":{"tools":["recall","nope"]}}`, nil, `config.json: mcp.tools: "nope" is not a tool of mneme: use remember, recall`},
		{`{"mcp":{"tools":[]}}`, nil, "config.json: mcp.tools: the tool list is empty"},
		{`{"mcp":{"tools":null}}`, nil, `mcp.tools must be "all" or a list of tool names, not null`},
		{`{"mcp":{"tools":"recall"}}`, nil, `mcp.tools "recall" is not a list`},
		{`{"mcp":{"tools":[1]}}`, nil, `mcp.tools must be "all" or a list of tool names, not [1]`},
		{`{"mcp":{"toolz":"all"}}`, nil, `unknown field "toolz"`},
	} {
		home := t.TempDir()
		os.WriteFile(filepath.Join(home, config.FileName), []byte(c.file), 0o600)
		cfg, err := config.Load(config.Options{Home: home})
		var got []string
		if err == nil {
			got, err = cfg.MCPTools()
			if cerr := cfg.File.Check(); (cerr == nil) != (err == nil) {
				t.Errorf("%s: File.Check %v, MCPTools %v", c.file, cerr, err)
			}
		}
		if c.err != "" {
			if mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), c.err) {
				t.Errorf("%s: %v, want EINVALID with %q", c.file, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, %v; want %v", c.file, got, err, c.want)
		}
	}
	// "all" is written back as it was given.
	b, _ := json.Marshal(config.File{MCP: config.MCP{Tools: config.ToolList{"all"}}})
	if !strings.Contains(string(b), `"mcp":{"tools":"all"}`) {
		t.Errorf("marshal: %s", b)
	}
}
