package mcpserver

import (
	"context"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/jobs"
)

// syncInput takes nothing: sync embeds every pending memory.
type syncInput struct{}

func init() { toolTypes["sync"] = reflect.TypeFor[syncInput]() }

func (s *server) addSync(srv *mcp.Server) {
	no := false
	add(srv, &mcp.Tool{Name: "sync", Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no},
		Description: "Embed the memories stored without a vector (the embedder was down or slow), so recall finds them by meaning too; the run is recorded in the job ledger (resource mneme://jobs)."}, s.sync)
}

func (s *server) sync(ctx context.Context, _ *mcp.CallToolRequest, _ syncInput) (*mcp.CallToolResult, mneme.SyncResult, error) {
	res, err := jobs.EmbedPending(ctx, s.eng)
	if err != nil {
		return nil, mneme.SyncResult{}, fail(err)
	}
	return nil, res, nil
}

// jobList reads the job ledger as the caller may see it.
func (s *server) jobList(ctx context.Context, _ *mcp.ReadResourceRequest) (any, error) {
	es, err := jobs.List(ctx, s.eng, jobs.Query{})
	return map[string]any{"jobs": es}, err
}
