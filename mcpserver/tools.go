package mcpserver

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
)

// The tools' inputs. Field tags make the schema (inputSchema): json names,
// jsonschema descriptions, enum values; mcp:"alias" and mcp:"option" keep
// a parameter out of the schema's properties (see inputSchema). Aliases
// are the names other memory tools use, so an agent used to one of them
// is understood.

type rememberInput struct {
	Text             string         `json:"text" jsonschema:"one self-contained fact, decision, how-to or event"`
	Type             string         `json:"type,omitempty" enum:"semantic,episodic,procedural" jsonschema:"a fact (the default), an event or a how-to"`
	MemoryType       string         `json:"memory_type,omitempty" mcp:"alias"`
	Kind             string         `json:"kind,omitempty" jsonschema:"subtype: note (the default), decision, learning, handoff, …"`
	Title            string         `json:"title,omitempty" mcp:"option"`
	Project          string         `json:"project,omitempty" jsonschema:"like the repository's name (default: default)"`
	ProjectID        string         `json:"project_id,omitempty" mcp:"alias"`
	Tags             list           `json:"tags,omitempty" jsonschema:"an array, or one string with commas"`
	Source           string         `json:"source,omitempty" mcp:"option"`
	OccurredAt       string         `json:"occurred_at,omitempty" mcp:"option"`
	TTL              string         `json:"ttl,omitempty" mcp:"option"`
	Key              string         `json:"key,omitempty" jsonschema:"topic key: a newer memory with the same key supersedes this one"`
	Status           string         `json:"status,omitempty" enum:"active,draft,validated,published" mcp:"option"`
	Sensitivity      string         `json:"sensitivity,omitempty" enum:"public,internal,secret" mcp:"option"`
	Provenance       string         `json:"provenance,omitempty" enum:"verified,cited,assumed,cached" mcp:"option"`
	Meta             map[string]any `json:"meta,omitempty" mcp:"option"`
	SessionID        string         `json:"session_id,omitempty" mcp:"option"`
	RunID            string         `json:"run_id,omitempty" mcp:"option"`
	Speaker          string         `json:"speaker,omitempty" mcp:"option"`
	Redact           bool           `json:"redact,omitempty" mcp:"option"`
	RequireEmbedding bool           `json:"require_embedding,omitempty" mcp:"option"`
}

type updateInput struct {
	ID          string          `json:"id" jsonschema:"id of the memory to change"`
	Text        *string         `json:"text,omitempty" jsonschema:"new text (re-embedded)"`
	Title       *string         `json:"title,omitempty" jsonschema:"new title"`
	Kind        *string         `json:"kind,omitempty" jsonschema:"new kind"`
	Tags        *list           `json:"tags,omitempty" jsonschema:"replace the tags: an array, or one string with commas"`
	Key         *string         `json:"key,omitempty" jsonschema:"new topic key (empty removes it)"`
	Status      *string         `json:"status,omitempty" enum:"active,draft,validated,published" jsonschema:"new lifecycle state"`
	Sensitivity *string         `json:"sensitivity,omitempty" enum:"public,internal,secret" jsonschema:"new sensitivity"`
	Provenance  *string         `json:"provenance,omitempty" enum:"verified,cited,assumed,cached" jsonschema:"new provenance"`
	Meta        *map[string]any `json:"meta,omitempty" jsonschema:"replace the metadata object"`
	TTL         *string         `json:"ttl,omitempty" jsonschema:"forget it after this long from now, like 30d (empty removes the expiry)"`
	Redact      bool            `json:"redact,omitempty" jsonschema:"mask credentials found in any field (text, title, tags, key, source, meta, ...) instead of refusing the change"`
}

type getInput struct {
	ID string `json:"id" jsonschema:"record id, from recall or list"`
}

// filterInput is the filter list and forget share.
type filterInput struct {
	Project    string           `json:"project,omitempty" jsonschema:"only this project"`
	ProjectID  string           `json:"project_id,omitempty" mcp:"alias"`
	Types      list             `json:"types,omitempty" enum:"episodic,semantic,procedural" jsonschema:"only these types"`
	Type       list             `json:"type,omitempty" mcp:"alias"`
	MemoryType list             `json:"memory_type,omitempty" mcp:"alias"`
	Kinds      list             `json:"kinds,omitempty" jsonschema:"only these kinds, like decision"`
	Tags       list             `json:"tags,omitempty" jsonschema:"only records with any of these tags"`
	Meta       mneme.MetaFilter `json:"meta,omitempty" jsonschema:"only records whose meta has all these top-level values, like {\"tenant\":\"acme\"}"`
}

type listInput struct {
	filterInput
	Statuses list   `json:"statuses,omitempty" enum:"active,superseded,draft,validated,published" jsonschema:"only these statuses, like validated,published (the reusable memories): an array, or one string with commas"`
	Session  string `json:"session,omitempty" jsonschema:"only this session"`
	Run      string `json:"run,omitempty" jsonschema:"only this run"`
	Limit    int    `json:"limit,omitempty" jsonschema:"records per page, 1 to 1000 (default 20)"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page"`
}

type forgetInput struct {
	IDs list `json:"ids,omitempty" jsonschema:"ids to forget; or a filter"`
	filterInput
	Before string `json:"before,omitempty" jsonschema:"created before: RFC 3339, a date or an age like 30d"`
	Key    string `json:"key,omitempty" jsonschema:"every version of this key"`
	DryRun bool   `json:"dry_run,omitempty" jsonschema:"only count what would be forgotten"`
}

// toolTypes maps each tool to its input, for the parameter list in
// argument errors.
var toolTypes = map[string]reflect.Type{
	"remember": reflect.TypeFor[rememberInput](), "recall": reflect.TypeFor[recallInput](),
	"get": reflect.TypeFor[getInput](), "list": reflect.TypeFor[listInput](), "forget": reflect.TypeFor[forgetInput](),
	"update": reflect.TypeFor[updateInput](), "context": reflect.TypeFor[contextInput](),
	"ground": reflect.TypeFor[groundInput](), "context_evidence": reflect.TypeFor[evidenceInput](),
}

func (s *server) addTools(srv *mcp.Server) {
	no := false
	add(srv, &mcp.Tool{Name: "remember", Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, OpenWorldHint: &no},
		Description: "Store a memory that should outlive this conversation: a decision and its reason, a fact, a how-to that worked, a preference, a task's outcome."}, s.remember)
	add(srv, &mcp.Tool{Name: "recall", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
		Description: "Find the memories that best match a query, by words and meaning: the hits, and a context with one numbered line per hit."}, s.recall)
	add(srv, &mcp.Tool{Name: "context", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
		Description: "Build a context package for a question: the memories that answer it, cut to the sentences that matter and fitted to a token budget, as text with [n] citations."}, s.context)
	add(srv, &mcp.Tool{Name: "context_evidence", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
		Description: "Content-free evidence of a question's context package (hashes, counts, reason codes, normalised scores; no text), with a use, hold or blocked decision from thresholds."}, s.contextEvidence)
	add(srv, &mcp.Tool{Name: "ground", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
		Description: "Check an answer against the context package it was written from: per sentence, the supporting spans or a reason (unsupported_claim, number_not_in_evidence, …). Deterministic."}, s.ground)
	add(srv, &mcp.Tool{Name: "get", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
		Description: "Read one memory in full by its id."}, s.get)
	add(srv, &mcp.Tool{Name: "list", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
		Description: "List memories, newest first, a page at a time."}, s.list)
	add(srv, &mcp.Tool{Name: "update", Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no},
		Description: "Change some fields of a stored memory by id; the fields you leave out stay as they are."}, s.update)
	s.addLink(srv)
	add(srv, &mcp.Tool{Name: "forget", Annotations: &mcp.ToolAnnotations{OpenWorldHint: &no},
		Description: "Delete memories by id, or every memory a filter matches. Try dry_run first."}, s.forget)
	s.addSummarize(srv)
	s.addPromote(srv)
	s.addPrune(srv)
	s.addSync(srv)
	s.addCode(srv)
	s.addOps(srv)
	s.addAnswer(srv)
}

// add registers a tool with the input schema of In and no output schema:
// a result's schema (recall's alone was 1,800 tokens) would be in every
// agent's context on every turn, and agents read the results themselves.
// Results are still structured (structuredContent), as the HTTP API's.
func add[In, Out any](srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	t.InputSchema = inputSchema(reflect.TypeFor[In]())
	mcp.AddTool(srv, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		if err, _ := ctx.Value(argumentError{}).(error); err != nil {
			return nil, nil, fail(err)
		}
		res, out, err := h(ctx, req, in)
		if v := reflect.ValueOf(out); err != nil || v.Kind() == reflect.Pointer && v.IsNil() {
			return res, nil, err
		}
		return res, out, nil
	})
}

func (in *rememberInput) request() (mneme.RememberRequest, error) {
	r := mneme.RememberRequest{Text: in.Text, Kind: in.Kind, Title: in.Title, Tags: in.Tags, Source: in.Source,
		OccurredAt: in.OccurredAt, TTL: in.TTL, Key: in.Key, Status: mneme.Status(in.Status),
		Sensitivity: mneme.Sensitivity(in.Sensitivity), Provenance: mneme.Provenance(in.Provenance),
		SessionID: in.SessionID, RunID: in.RunID, Speaker: in.Speaker, Redact: in.Redact, RequireEmbedding: in.RequireEmbedding}
	var err error
	r.Type = mneme.Type(pick(&err, f("type", in.Type), f("memory_type", in.MemoryType)))
	r.Project = pick(&err, f("project", in.Project), f("project_id", in.ProjectID))
	if in.Meta != nil {
		r.Meta, _ = json.Marshal(in.Meta) // decoded from JSON, so it encodes
	}
	return r, err
}

func (s *server) remember(ctx context.Context, _ *mcp.CallToolRequest, in rememberInput) (*mcp.CallToolResult, mneme.WriteResult, error) {
	r, err := in.request()
	if err != nil {
		return nil, mneme.WriteResult{}, fail(err)
	}
	res, err := s.eng.RememberRequests(ctx, []mneme.RememberRequest{r})
	return nil, res, fail(err)
}

func (s *server) get(ctx context.Context, _ *mcp.CallToolRequest, in getInput) (*mcp.CallToolResult, record, error) {
	rec, err := s.eng.Get(ctx, in.ID, mneme.ScopeFrom(ctx).Reads())
	if err != nil {
		return nil, record{}, fail(err)
	}
	return nil, wrap(rec), nil
}

func (in *updateInput) patch() (mneme.Patch, error) {
	p := mneme.Patch{Text: in.Text, Title: in.Title, Kind: in.Kind, Key: in.Key, TTL: in.TTL, Redact: in.Redact,
		Status: (*mneme.Status)(in.Status), Sensitivity: (*mneme.Sensitivity)(in.Sensitivity), Provenance: (*mneme.Provenance)(in.Provenance)}
	if in.Tags != nil {
		p.Tags = (*[]string)(in.Tags)
	}
	if in.Meta != nil {
		meta, _ := json.Marshal(*in.Meta) // decoded from JSON, so it encodes
		raw := json.RawMessage(meta)
		p.Meta = &raw
	}
	return p, p.Check()
}

func (s *server) update(ctx context.Context, _ *mcp.CallToolRequest, in updateInput) (*mcp.CallToolResult, record, error) {
	p, err := in.patch()
	var rec *mneme.Record
	if err == nil {
		rec, err = s.eng.Patch(ctx, in.ID, p, mneme.ScopeFrom(ctx).Reads())
	}
	if err != nil {
		return nil, record{}, fail(err)
	}
	return nil, wrap(rec), nil
}

func (in *filterInput) filter() (mneme.Filter, error) {
	var err error
	fl := mneme.Filter{Tags: in.Tags, Kinds: in.Kinds, Meta: in.Meta,
		Types:   types(pick(&err, f("types", in.Types), f("type", in.Type), f("memory_type", in.MemoryType))),
		Project: pick(&err, f("project", in.Project), f("project_id", in.ProjectID))}
	return fl, err
}

func (s *server) list(ctx context.Context, _ *mcp.CallToolRequest, in listInput) (*mcp.CallToolResult, listPage, error) {
	fl, err := in.filter()
	fl.Statuses, fl.Clearance = statuses(in.Statuses), mneme.ScopeFrom(ctx).Reads()
	fl.SessionID, fl.RunID = in.Session, in.Run
	if in.Limit == 0 {
		in.Limit = 20 // the CLI's default
	}
	var recs []*mneme.Record
	var next string
	if err == nil {
		recs, next, err = s.eng.List(ctx, fl, in.Limit, in.Cursor)
	}
	if err != nil {
		return nil, listPage{}, fail(err)
	}
	page := listPage{Records: make([]record, len(recs)), NextCursor: next}
	for i, r := range recs {
		page.Records[i] = wrap(r)
	}
	return nil, page, nil
}

func (s *server) forget(ctx context.Context, _ *mcp.CallToolRequest, in forgetInput) (*mcp.CallToolResult, mneme.ForgetResult, error) {
	fl, err := in.filter()
	var out mneme.ForgetResult
	if err == nil {
		out, err = s.eng.Forget(ctx, mneme.ForgetRequest{IDs: in.IDs, DryRun: in.DryRun, ForgetFilter: mneme.ForgetFilter{
			Project: fl.Project, Types: fl.Types, Kinds: fl.Kinds, Tags: fl.Tags, Meta: fl.Meta, Before: in.Before, Key: in.Key}})
	}
	if err != nil {
		return nil, mneme.ForgetResult{}, fail(err)
	}
	return nil, out, nil
}

// record is a stored record as the tools return it. Meta is retyped: the
// schema the SDK infers for json.RawMessage is an array of bytes, which a
// meta object would fail (and clients reject the schema of an any, true).
type record struct {
	*mneme.Record
	Meta map[string]any `json:"meta,omitempty"`
}

func wrap(r *mneme.Record) record {
	out := record{Record: r}
	json.Unmarshal(r.Meta, &out.Meta) //nolint:errcheck // the store keeps meta a JSON object, or none
	return out
}

// listPage is mneme.ListPage with records as the tools return them.
type listPage struct {
	Records    []record `json:"records"`
	NextCursor string   `json:"next_cursor"`
}
