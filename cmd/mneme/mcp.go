package main

import (
	"fmt"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/mcpserver"
	"github.com/mneme-ai/mneme/sqlite"
)

func init() {
	commands["mcp"] = command{
		usage:   "mcp",
		summary: "serve the memory to an agent over MCP on standard input and output",
		run:     runMCP,
	}
}

func runMCP(a *app, args []string) error {
	fs := a.flags()
	a.embedderFlag(fs)
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	c, err := a.loadConfig()
	if err != nil {
		return err
	}
	eng, srv, err := a.openServer(c)
	if err != nil {
		return err
	}
	defer eng.Close()
	return srv.Run(a.ctx, &mcp.StdioTransport{})
}

// openServer opens the engine as recall needs it (an embedder that cannot
// load degrades recall, with the reason) and builds the MCP server over it;
// c is the loaded config, for the settings resource.
func (a *app) openServer(c config) (*mneme.Engine, *mcp.Server, error) {
	eng, err := a.openForRecall(true, true)
	if err != nil {
		return nil, nil, err
	}
	home, _ := a.homeDir()
	info := mcpserver.Info{Version: version(), Store: "sqlite " + filepath.Join(home, sqlite.FileName),
		Embedder: "none", Settings: a.settings(c, home)}
	if em := eng.Embedder(); em != nil {
		i := em.Info()
		info.Embedder = fmt.Sprintf("%s version %s (%d dimensions)", i.ID(), i.Version, i.Dim)
	}
	return eng, mcpserver.New(eng, info), nil
}

// settings is the effective configuration without secrets, for the
// settings resource.
func (a *app) settings(c config, home string) map[string]any {
	tokens := make([]map[string]any, len(c.Server.Tokens))
	for i, t := range c.Server.Tokens {
		tokens[i] = map[string]any{"name": t.Name, "projects": t.Projects, "access": t.Access}
	}
	c = a.effective(c)
	return map[string]any{"home": home, "embedder": c.Embedder, "model_dir": c.ModelDir,
		"llm": c.LLM, "server": map[string]any{"tokens": tokens, "max_body_bytes": c.Server.MaxBodyBytes,
			"allowed_hosts": orEmpty(c.Server.AllowedHosts), "allowed_origins": orEmpty(c.Server.AllowedOrigins)}}
}

// orEmpty shows a missing list as [] rather than null.
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
