package mcpserver

import (
	"context"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
)

type pruneInput struct {
	filterInput
	Statuses list   `json:"statuses,omitempty" enum:"active,superseded,draft,validated,published" jsonschema:"prune records with any of these statuses, like draft or superseded: an array, or one string with commas"`
	Expired  bool   `json:"expired,omitempty" jsonschema:"prune records whose TTL has run out"`
	Before   string `json:"before,omitempty" jsonschema:"filter: records created before this time (RFC 3339, a date, or an age like 30d)"`
	Key      string `json:"key,omitempty" jsonschema:"filter: every version of this key"`
	DryRun   bool   `json:"dry_run,omitempty" jsonschema:"only say what would be pruned"`
}

func init() { toolTypes["prune"] = reflect.TypeFor[pruneInput]() }

func (s *server) addPrune(srv *mcp.Server) {
	add(srv, &mcp.Tool{Name: "prune", Annotations: &mcp.ToolAnnotations{OpenWorldHint: new(false)},
		Description: "Delete the memories a filter selects (expired, or by status, type, kind, tags, age or key), with their promotion history; a project alone is no filter. Try dry_run first."}, s.prune)
}

func (s *server) prune(ctx context.Context, _ *mcp.CallToolRequest, in pruneInput) (*mcp.CallToolResult, mneme.PruneResult, error) {
	fl, err := in.filter()
	var out mneme.PruneResult
	if err == nil {
		out, err = s.eng.Prune(ctx, mneme.PruneRequest{Statuses: statuses(in.Statuses), Expired: in.Expired, DryRun: in.DryRun,
			ForgetFilter: mneme.ForgetFilter{Project: fl.Project, Types: fl.Types, Kinds: fl.Kinds, Tags: fl.Tags, Meta: fl.Meta, Before: in.Before, Key: in.Key}})
	}
	if err != nil {
		return nil, mneme.PruneResult{}, fail(err)
	}
	return nil, out, nil
}
