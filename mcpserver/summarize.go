package mcpserver

import (
	"context"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/consolidate"
)

type summarizeInput struct {
	Project   string     `json:"project,omitempty" jsonschema:"project whose episodic memories to summarize (default: default)"`
	ProjectID string     `json:"project_id,omitempty" jsonschema:"alias of project"`
	TimeRange *timeRange `json:"time_range,omitempty" jsonschema:"the window, as recall's: start and end (or since and until)"`
	Since     string     `json:"since,omitempty" jsonschema:"start of the window: RFC 3339, a date, an age like 7d, or now"`
	Until     string     `json:"until,omitempty" jsonschema:"end of the window, inclusive: RFC 3339, a date, an age like 1d, or now"`
	Type      string     `json:"type,omitempty" enum:"episodic,semantic,procedural" jsonschema:"the memory type summarized (default episodic)"`
	Tags      list       `json:"tags,omitempty" jsonschema:"only memories with any of these tags: an array, or one string with commas"`
	Kinds     list       `json:"kinds,omitempty" jsonschema:"only these kinds, like turn or handoff: an array, or one string with commas"`
	Session   string     `json:"session,omitempty" jsonschema:"only this session"`
	Strategy  string     `json:"strategy,omitempty" enum:"auto,extractive,abstractive" jsonschema:"extractive (the default: sentences copied from the memories, with dates), abstractive (the configured language model), or auto (the model when it answers)"`
	MaxWords  *int       `json:"max_words,omitempty" jsonschema:"length of the summary in words, at most (1 to 2000, default 250)"`
	Limit     *int       `json:"limit,omitempty" jsonschema:"memories summarized at most, oldest first (1 to 1000, default 50)"`
	Provider  string     `json:"provider,omitempty" mcp:"option"`
	Model     string     `json:"model,omitempty" mcp:"option"`
}

func init() { toolTypes["summarize"] = reflect.TypeFor[summarizeInput]() }

func (s *server) addSummarize(srv *mcp.Server) {
	no := false
	add(srv, &mcp.Tool{Name: "summarize", Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no},
		Description: "Consolidate the episodic memories of a time window into one summary memory linking to each of them; a new memory in the window makes a new summary that supersedes the old."}, s.summarize)
}

func (in *summarizeInput) request() (consolidate.Request, error) {
	r := consolidate.Request{Tags: in.Tags, Kinds: in.Kinds, Session: in.Session, Strategy: consolidate.Strategy(in.Strategy),
		Type: mneme.Type(in.Type), Provider: in.Provider, Model: in.Model}
	var tr timeRange
	if in.TimeRange != nil {
		tr = *in.TimeRange
	}
	var err error
	r.Project = pick(&err, f("project", in.Project), f("project_id", in.ProjectID))
	r.Since = pick(&err, f("time_range.start", tr.Start), f("since", in.Since))
	r.Until = pick(&err, f("time_range.end", tr.End), f("until", in.Until))
	if in.MaxWords != nil && err == nil {
		err = consolidate.CheckCount("max_words", *in.MaxWords, consolidate.MaxMaxWords, consolidate.DefaultMaxWords)
		r.MaxWords = consolidate.MaxWords(*in.MaxWords)
	}
	if in.Limit != nil && err == nil {
		err = consolidate.CheckCount("limit", *in.Limit, consolidate.MaxLimit, consolidate.DefaultLimit)
		r.Limit = consolidate.Limit(*in.Limit)
	}
	return r, err
}

func (s *server) summarize(ctx context.Context, _ *mcp.CallToolRequest, in summarizeInput) (*mcp.CallToolResult, *consolidate.Response, error) {
	r, err := in.request()
	if err != nil {
		return nil, nil, fail(err)
	}
	res, err := consolidate.Summarize(ctx, s.eng, r)
	return nil, res, fail(err)
}
