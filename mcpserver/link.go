package mcpserver

import (
	"context"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
)

type linkInput struct {
	From   string `json:"from" jsonschema:"id of the memory the link starts from"`
	To     string `json:"to" jsonschema:"id of the memory it points to"`
	Rel    string `json:"rel,omitempty" enum:"relates_to,derived_from,follows,supersedes" jsonschema:"the relation (needed to link; to unlink, leaving it out removes every relation)"`
	Unlink bool   `json:"unlink,omitempty" jsonschema:"remove the link instead of adding it"`
}

// linkOutput is mneme.LinkResult with the record as the tools return
// records.
type linkOutput struct {
	Changed bool   `json:"changed"`
	Record  record `json:"record"`
}

func init() { toolTypes["link"] = reflect.TypeFor[linkInput]() }

func (s *server) addLink(srv *mcp.Server) {
	no := false
	add(srv, &mcp.Tool{Name: "link", Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no},
		Description: "Link one memory to another with a typed relation (a summary derived_from its sources, a decision relates_to another), or unlink them. recall and context with expand follow links."}, s.link)
}

func (s *server) link(ctx context.Context, _ *mcp.CallToolRequest, in linkInput) (*mcp.CallToolResult, linkOutput, error) {
	req := mneme.LinkRequest{From: in.From, To: in.To, Rel: in.Rel}
	do := s.eng.Link
	if in.Unlink {
		do = s.eng.Unlink
	}
	res, err := do(ctx, req, mneme.ScopeFrom(ctx).Reads())
	if err != nil {
		return nil, linkOutput{}, fail(err)
	}
	return nil, linkOutput{Changed: res.Changed, Record: wrap(res.Record)}, nil
}
