package mcpserver

import (
	"context"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
)

type promoteInput struct {
	IDs    list   `json:"ids" jsonschema:"ids of the memories to promote, all of one project: an array, or one string with commas"`
	To     string `json:"to" enum:"semantic,procedural" jsonschema:"the reusable type: semantic (a fact) or procedural (a how-to)"`
	Status string `json:"status,omitempty" enum:"validated,published" jsonschema:"validated (the default) or published"`
	Title  string `json:"title,omitempty" jsonschema:"the reusable memory's title (default: the source's)"`
}

// promoteOutput is mneme.PromoteResult with the record as the tools
// return records.
type promoteOutput struct {
	RecordID string `json:"record_id"`
	Outcome  string `json:"outcome" jsonschema:"created (a new memory built from the ones named), upgraded (changed in place) or unchanged (already so: nothing written)"`
	Record   record `json:"record"`
}

func init() { toolTypes["promote"] = reflect.TypeFor[promoteInput]() }

func (s *server) addPromote(srv *mcp.Server) {
	no := false
	add(srv, &mcp.Tool{Name: "promote", Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no},
		Description: "Mark memories as checked and reusable: a fact (to semantic) or a how-to (to procedural), validated or published. A memory of that type changes in place; others become one new memory linked to them."}, s.promote)
}

func (s *server) promote(ctx context.Context, _ *mcp.CallToolRequest, in promoteInput) (*mcp.CallToolResult, promoteOutput, error) {
	req := mneme.PromoteRequest{IDs: in.IDs, To: mneme.Type(in.To), Status: mneme.Status(in.Status), Title: in.Title}
	res, err := s.eng.Promote(ctx, req, mneme.ScopeFrom(ctx).Reads())
	if err != nil {
		return nil, promoteOutput{}, fail(err)
	}
	return nil, promoteOutput{RecordID: res.RecordID, Outcome: res.Outcome, Record: wrap(res.Record)}, nil
}
