package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
)

// DefaultToolsBudget is the most tokens the definitions of DefaultTools
// may cost together (issue 23: agents spend few tokens on mneme).
const DefaultToolsBudget = 2000

// ToolCost is what one tool's definition costs an agent on every turn.
type ToolCost struct {
	Name    string `json:"name"`
	Tokens  int    `json:"tokens"`  // see Cost
	Default bool   `json:"default"` // in DefaultTools
}

// Cost counts the tokens (contextpack.Tokenizer) of t as a client hands it
// to its model: name, description and input schema as one compact JSON
// object, the shape the Anthropic and OpenAI tool APIs take, plus the
// output schema when tools/list carries one. Annotations and titles stay
// with the client. A client's own framing (a prefix like mcp__mneme__,
// a few tokens per tool) is not counted.
func Cost(t *mcp.Tool) int {
	def := map[string]any{"name": t.Name, "description": t.Description, "input_schema": t.InputSchema}
	if t.OutputSchema != nil {
		def["output_schema"] = t.OutputSchema
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(def) //nolint:errcheck // decoded from JSON (tools/list), so it encodes
	return contextpack.Tokens(string(bytes.TrimSpace(b.Bytes())))
}

// ToolCosts lists every tool's cost, in the order of AllTools, from the
// definitions a real client lists over MCP.
func ToolCosts(ctx context.Context) ([]ToolCost, error) {
	ct, st := mcp.NewInMemoryTransports()
	ss, err := New(nil, Info{Tools: AllTools}).Connect(ctx, st, nil)
	if err != nil {
		return nil, mneme.InternalError(err, "serve the tool list")
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mneme-tools-cost", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, mneme.InternalError(err, "list the tools")
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, mneme.InternalError(err, "list the tools")
	}
	out := make([]ToolCost, 0, len(res.Tools))
	for _, t := range res.Tools {
		out = append(out, ToolCost{Name: t.Name, Tokens: Cost(t), Default: slices.Contains(DefaultTools, t.Name)})
	}
	slices.SortFunc(out, func(a, b ToolCost) int { return slices.Index(AllTools, a.Name) - slices.Index(AllTools, b.Name) })
	return out, nil
}
