package main

import (
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/mcpserver"
)

func init() {
	commands["mcp"] = command{
		usage:   "mcp [--tools-cost]",
		summary: "serve the memory to an agent over MCP on standard input and output; --tools-cost prints what each tool's definition costs in tokens",
		run:     runMCP,
	}
}

func runMCP(a *app, args []string) error {
	fs := a.flags()
	a.embedderFlag(fs)
	costs := fs.Bool("tools-cost", false, "print the tokens each tool's definition costs an agent, and which tools mcp.tools serves; serve nothing")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	if *costs {
		return a.toolsCost()
	}
	eng, srv, err := a.openServer()
	if err != nil {
		return err
	}
	defer eng.Close()
	stopSync := keepEmbedding(a.ctx, eng, slog.New(slog.NewJSONHandler(a.stderr, nil)))
	defer stopSync() // before the store closes
	// Not the SDK's StdioTransport, which ends the session at the first
	// line it cannot decode: a bad line is answered with an error.
	return srv.Run(a.ctx, &mcpserver.StdioTransport{In: a.stdin, Out: a.stdout})
}

// openServer opens the engine as a server needs it (an embedder that
// cannot load degrades recall, with the reason) and builds the MCP server
// over it.
func (a *app) openServer() (*mneme.Engine, *mcp.Server, error) {
	c, err := a.config()
	if err != nil {
		return nil, nil, err
	}
	tools, err := c.MCPTools()
	if err != nil {
		return nil, nil, err
	}
	eng, err := a.open(config.Serve)
	if err != nil {
		return nil, nil, err
	}
	code, err := c.CodeService()
	if err != nil {
		eng.Close()
		return nil, nil, err
	}
	info := mcpserver.Info{Version: version(), Store: c.Describe(eng.Store()), Embedder: "none", Settings: c.Settings(), Code: code, Tools: tools}
	if em := eng.Embedder(); em != nil {
		i := em.Info()
		info.Embedder = fmt.Sprintf("%s version %s (%d dimensions)", i.ID(), i.Version, i.Dim)
	}
	return eng, mcpserver.New(eng, info), nil
}
