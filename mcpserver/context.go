package mcpserver

import (
	"cmp"
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/evidence"
)

// contextInput is the recall tool's input plus the token budget.
type contextInput struct {
	recallInput
	Budget *int `json:"budget,omitempty" jsonschema:"tokens (cl100k_base), 50 to 100000 (default 1500)"`
	// Reusable adds a block of validated or published memories
	// (contextpack.Request.Reusable).
	Reusable int `json:"reusable,omitempty" mcp:"option"`
	// A verified answer (mneme answer put) is returned for the same token
	// and answer scope.
	VerificationToken *string `json:"verification_token,omitempty" jsonschema:"of a verified answer"`
	AnswerScope       string  `json:"answer_scope,omitempty" jsonschema:"provider/model/version"`
}

func (s *server) context(ctx context.Context, _ *mcp.CallToolRequest, in contextInput) (*mcp.CallToolResult, *contextpack.Package, error) {
	r, err := in.request()
	req := contextpack.Request{RecallRequest: r, Reusable: in.Reusable, VerificationToken: in.VerificationToken, AnswerScope: in.AnswerScope}
	if err == nil && in.Budget != nil {
		err = contextpack.CheckBudget(*in.Budget)
		req.Budget = contextpack.Budget(*in.Budget)
	}
	var pkg *contextpack.Package
	if err == nil {
		pkg, err = contextpack.Build(ctx, s.eng, req, mneme.ScopeFrom(ctx).Reads())
	}
	if err != nil {
		return nil, nil, fail(err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: promptText(pkg)}}}, pkg, nil
}

// promptText is the package as the agent's model reads it: the text
// alone, within the budget. The whole package (citations with memory ids,
// spans, hashes, the candidates dropped) is the structured content, for
// programs: as text it cost ten times the budget, and the ids alone (about
// 25 tokens each) over half of it.
func promptText(pkg *contextpack.Package) string {
	text := cmp.Or(pkg.Text, "no memories match")
	if pkg.Degraded {
		text += "\n(degraded: " + pkg.DegradedReason + ")"
	}
	if v := pkg.VerifiedAnswer; v != nil && v.Status == mneme.CacheHit {
		text += "\n\nverified answer (" + v.Scope.String() + "):\n" + v.Answer
	}
	return text
}

// evidenceInput is the context tool's input plus the decision's
// thresholds.
type evidenceInput struct {
	contextInput
	MinItems        int     `json:"min_items,omitempty" jsonschema:"memories the package must hold to be used, 1 to 1000 (default 1; none: blocked)"`
	MinScore        float64 `json:"min_score,omitempty" jsonschema:"best normalised score, 0 to 1, the package must reach to be used"`
	MinGroundedness float64 `json:"min_groundedness,omitempty" jsonschema:"groundedness, 0 to 1, to be used (when the report has one)"`
	Degraded        string  `json:"degraded,omitempty" jsonschema:"the decision when a lane did not run: use, hold (default) or blocked"`
}

// contextEvidence is the content-free evidence of a context package, with
// its use, hold or blocked decision (mneme context --evidence-export).
func (s *server) contextEvidence(ctx context.Context, _ *mcp.CallToolRequest, in evidenceInput) (*mcp.CallToolResult, *evidence.Export, error) {
	r, err := in.request()
	req := evidence.Request{Request: contextpack.Request{RecallRequest: r, Reusable: in.Reusable},
		Thresholds: evidence.Thresholds{MinItems: in.MinItems, MinScore: in.MinScore, MinGroundedness: in.MinGroundedness, Degraded: in.Degraded}}
	if err == nil && in.Budget != nil {
		err = contextpack.CheckBudget(*in.Budget)
		req.Budget = contextpack.Budget(*in.Budget)
	}
	var out *evidence.Export
	if err == nil {
		out, err = evidence.Build(ctx, s.eng, req, mneme.ScopeFrom(ctx).Reads())
	}
	if err != nil {
		return nil, nil, fail(err)
	}
	return nil, out, nil
}
