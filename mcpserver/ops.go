package mcpserver

import (
	"context"
	"encoding/json"
	"reflect"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/ops"
)

// opsInput is one tool for both directions, so the tool list stays short.
type opsInput struct {
	Action  string            `json:"action" enum:"write,read"`
	Entries []json.RawMessage `json:"entries,omitempty" jsonschema:"write: rows {kind, session, run?, at?, …typed fields} (docs/cli.md, ops)"`
	Project string            `json:"project,omitempty"`
	Redact  bool              `json:"redact,omitempty" jsonschema:"write: mask credentials"`
	Session string            `json:"session,omitempty" jsonschema:"read"`
	Run     string            `json:"run,omitempty" jsonschema:"read"`
	Kinds   list              `json:"kinds,omitempty" jsonschema:"read"`
	Since   string            `json:"since,omitempty" jsonschema:"read"`
	Until   string            `json:"until,omitempty" jsonschema:"read"`
	Limit   int               `json:"limit,omitempty" jsonschema:"read"`
}

func init() { toolTypes["ops"] = reflect.TypeFor[opsInput]() }

func (s *server) addOps(srv *mcp.Server) {
	no := false
	add(srv, &mcp.Tool{Name: "ops", Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, OpenWorldHint: &no},
		Description: "Operational memory: write a batch of session, run, tool_call, artifact, validation, route or prompt entries (atomic), or read them as timelines by session or run."}, s.ops)
}

func (s *server) ops(ctx context.Context, _ *mcp.CallToolRequest, in opsInput) (*mcp.CallToolResult, any, error) {
	var out any
	var err error
	switch in.Action {
	case "write":
		out, err = s.opsWrite(ctx, in)
	case "read":
		out, err = s.opsRead(ctx, in)
	default:
		err = mneme.Invalid("action %q: use write or read", mneme.Clip(in.Action))
	}
	if err != nil {
		return nil, nil, fail(err)
	}
	return nil, out, nil
}

func (s *server) opsWrite(ctx context.Context, in opsInput) (ops.Result, error) {
	if in.Session != "" || in.Run != "" || len(in.Kinds) > 0 || in.Since != "" || in.Until != "" || in.Limit != 0 {
		return ops.Result{}, mneme.Invalid("session, run, kinds, since, until and limit are read's: a write names them in its entries")
	}
	body, _ := json.Marshal(map[string]any{"project": in.Project, "entries": in.Entries, "redact": in.Redact}) // raw JSON: encodes
	b, err := ops.Decode(body)
	if err != nil {
		return ops.Result{}, err
	}
	return ops.Write(ctx, s.eng, b)
}

func (s *server) opsRead(ctx context.Context, in opsInput) (ops.Page, error) {
	if len(in.Entries) > 0 || in.Redact {
		return ops.Page{}, mneme.Invalid("entries and redact are write's: send action write")
	}
	q := ops.Query{Project: in.Project, Session: in.Session, Run: in.Run, Kinds: in.Kinds, Limit: in.Limit}
	now := s.eng.Now()
	for name, b := range map[string]struct {
		in  string
		out **time.Time
	}{"since": {in.Since, &q.Since}, "until": {in.Until, &q.Until}} {
		if b.in != "" {
			t, err := mneme.ParseTime(name, b.in, now)
			if err != nil {
				return ops.Page{}, err
			}
			*b.out = &t
		}
	}
	return ops.Read(ctx, s.eng, q)
}
