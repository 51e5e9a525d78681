package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/ground"
)

// groundInput is an answer and the package it was written from. The
// package is any object here (the schema of a whole package would be
// long) and is decoded strictly below.
type groundInput struct {
	Package map[string]any `json:"package" jsonschema:"the context package the answer was written from, as the context tool returned it"`
	Answer  string         `json:"answer" jsonschema:"the answer to check, one or more sentences"`
	Report  bool           `json:"report,omitempty" jsonschema:"add a content-free quality report: stage times, counts, score spread, groundedness, reason codes"`
}

func (s *server) ground(ctx context.Context, _ *mcp.CallToolRequest, in groundInput) (*mcp.CallToolResult, *ground.Result, error) {
	var pkg contextpack.Response
	data, _ := json.Marshal(in.Package) // decoded from JSON, so it encodes
	err := mneme.DecodeStrict(data, &pkg)
	if err != nil {
		err = mneme.Prefix("package", err)
	}
	var res *ground.Result
	if err == nil {
		em, id := ground.EngineEmbedder(s.eng)
		res, err = ground.Check(ctx, em, id, ground.Request{Package: pkg.Package, Answer: in.Answer, Report: in.Report})
	}
	if err != nil {
		return nil, nil, fail(err)
	}
	return nil, res, nil
}
