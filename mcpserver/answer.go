package mcpserver

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/ground"
)

// answerInput is ground.AnswerRequest with its context request as any
// object (the schema of a whole request would be long), decoded strictly
// below.
type answerInput struct {
	Request           map[string]any `json:"request" jsonschema:"the context request the answer was written from, as given to the context tool"`
	Answer            string         `json:"answer" jsonschema:"the answer's text"`
	VerificationToken string         `json:"verification_token" jsonschema:"a secret the caller proves a check with; only its fingerprint is kept"`
	Provider          string         `json:"provider" jsonschema:"who wrote the answer"`
	Model             string         `json:"model"`
	ModelVersion      string         `json:"model_version"`
}

func init() { toolTypes["answer"] = reflect.TypeFor[answerInput]() }

func (s *server) addAnswer(srv *mcp.Server) {
	no := false
	add(srv, &mcp.Tool{Name: "answer", Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no},
		Description: "Keep an answer as verified for its context request, if the groundedness check accepts it; the context tool returns it for the same token and answer scope."}, s.answer)
}

// answer is `mneme answer put` (ground.PutAnswer) at the caller's clearance.
func (s *server) answer(ctx context.Context, _ *mcp.CallToolRequest, in answerInput) (*mcp.CallToolResult, *ground.AnswerResult, error) {
	var req contextpack.Request
	data, _ := json.Marshal(in.Request) // decoded from JSON, so it encodes
	if err := mneme.DecodeStrict(data, &req); err != nil {
		return nil, nil, fail(mneme.Prefix("request", err))
	}
	em, id := ground.EngineEmbedder(s.eng)
	res, err := ground.PutAnswer(ctx, s.eng, em, id, ground.AnswerRequest{Request: req, Answer: in.Answer,
		VerificationToken: in.VerificationToken, Provider: in.Provider, Model: in.Model, ModelVersion: in.ModelVersion},
		mneme.ScopeFrom(ctx).Reads())
	if err != nil {
		return nil, nil, fail(err)
	}
	return nil, res, nil
}
