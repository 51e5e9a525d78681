package mcpserver

import (
	"context"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme/codemem"
)

type codeContextInput struct {
	ProjectRoot string `json:"project_root" jsonschema:"absolute path of the repository; it must be under a directory of code.roots in the server's config.json"`
	Detail      string `json:"detail,omitempty" enum:"compact,normal,verbose" jsonschema:"compact (the default): entry points, hot paths, top imports, the import graph; normal and verbose add per-directory summaries and each entry point's symbols"`
	Refresh     bool   `json:"refresh,omitempty" jsonschema:"rehash every file instead of reusing those whose size and modification time are unchanged"`
}

func init() { toolTypes["code_context"] = reflect.TypeFor[codeContextInput]() }

func (s *server) addCode(srv *mcp.Server) {
	no := false
	add(srv, &mcp.Tool{Name: "code_context", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
		Description: "Where to start in a repository: its entry points, most imported and recently changed files, dependencies and import graph, and what changed since the last call. Call it at the start of a coding task instead of listing files."}, s.codeContext)
}

func (s *server) codeContext(_ context.Context, _ *mcp.CallToolRequest, in codeContextInput) (*mcp.CallToolResult, *codemem.Envelope, error) {
	svc := s.info.Code
	if svc == nil {
		svc = codemem.New(codemem.Options{Restrict: true})
	}
	env, err := svc.Run(codemem.CmdContext, codemem.Request{ProjectRoot: in.ProjectRoot, Detail: in.Detail, Refresh: in.Refresh})
	return nil, env, fail(err)
}
