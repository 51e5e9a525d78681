package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/quality"
)

// recallInput is mneme.RecallRequest (so an HTTP recall body works here
// too) plus aliases and time_range.
type recallInput struct {
	Query             string             `json:"query,omitempty" jsonschema:"what to look for, in words (required)"`
	QueryText         string             `json:"query_text,omitempty" mcp:"alias"`
	Project           string             `json:"project,omitempty" jsonschema:"only this project"`
	ProjectID         string             `json:"project_id,omitempty" mcp:"alias"`
	Types             list               `json:"types,omitempty" enum:"episodic,semantic,procedural" jsonschema:"only these types"`
	Type              list               `json:"type,omitempty" mcp:"alias"`
	MemoryType        list               `json:"memory_type,omitempty" mcp:"alias"`
	Kinds             list               `json:"kinds,omitempty" jsonschema:"only these kinds, like decision"`
	Tags              list               `json:"tags,omitempty" jsonschema:"only records with any of these tags"`
	AllTags           bool               `json:"all_tags,omitempty" mcp:"option"`
	Meta              mneme.MetaFilter   `json:"meta,omitempty" jsonschema:"only records whose meta has all these top-level values, like {\"tenant\":\"acme\"}"`
	Statuses          list               `json:"statuses,omitempty" enum:"active,superseded,draft,validated,published" mcp:"option"`
	TimeRange         *timeRange         `json:"time_range,omitempty" mcp:"alias"`
	Since             string             `json:"since,omitempty" jsonschema:"happened from: RFC 3339, a date or an age like 7d"`
	Until             string             `json:"until,omitempty" jsonschema:"happened up to: same forms as since"`
	K                 *int               `json:"k,omitempty" jsonschema:"hits, 1 to 1000 (default 10)"`
	Limit             *int               `json:"limit,omitempty" mcp:"alias"`
	Mode              string             `json:"mode,omitempty" enum:"hybrid,vector,lexical" mcp:"option"`
	Fusion            string             `json:"fusion,omitempty" enum:"weighted,rrf" mcp:"option"`
	Alpha             float64            `json:"alpha,omitempty" mcp:"option"`
	Profile           string             `json:"profile,omitempty" mcp:"option"`
	MinScore          float64            `json:"min_score,omitempty" mcp:"option"`
	ScoreThreshold    float64            `json:"score_threshold,omitempty" mcp:"alias"`
	IncludeUnmatched  bool               `json:"include_unmatched,omitempty" mcp:"option"`
	NoFeedback        bool               `json:"no_feedback,omitempty" mcp:"option"`
	Rerank            bool               `json:"rerank,omitempty" mcp:"option"`
	MMR               float64            `json:"mmr,omitempty" mcp:"option"`
	Expand            int                `json:"expand,omitempty" mcp:"option"`
	HalfLife          string             `json:"half_life,omitempty" mcp:"option"`
	HyDE              *mneme.HyDERequest `json:"hyde,omitempty" mcp:"option"`
	Explain           bool               `json:"explain,omitempty" mcp:"option"`
	Report            bool               `json:"report,omitempty" mcp:"option"`
	IncludeSuperseded bool               `json:"include_superseded,omitempty" mcp:"option"`
	Session           string             `json:"session,omitempty" mcp:"option"`
	Run               string             `json:"run,omitempty" mcp:"option"`
}

type timeRange struct {
	Start string `json:"start,omitempty" jsonschema:"from this time: RFC 3339, a date, or an age like 7d"`
	End   string `json:"end,omitempty" jsonschema:"up to this time, same forms"`
}

// request maps the input, aliases resolved, onto the shared request.
func (in *recallInput) request() (mneme.RecallRequest, error) {
	r := mneme.RecallRequest{Kinds: in.Kinds, Tags: in.Tags, AllTags: in.AllTags, Meta: in.Meta, Statuses: statuses(in.Statuses), Mode: mneme.Mode(in.Mode),
		Fusion: mneme.Fusion(in.Fusion), Alpha: in.Alpha, Profile: in.Profile, Rerank: in.Rerank, MMR: in.MMR, Expand: in.Expand,
		HalfLife: in.HalfLife, HyDE: in.HyDE, IncludeUnmatched: in.IncludeUnmatched, NoFeedback: in.NoFeedback, Explain: in.Explain, Report: in.Report, IncludeSuperseded: in.IncludeSuperseded,
		Session: in.Session, Run: in.Run}
	var tr timeRange
	if in.TimeRange != nil {
		tr = *in.TimeRange
	}
	var err error
	r.Query = pick(&err, f("query", in.Query), f("query_text", in.QueryText))
	r.Project = pick(&err, f("project", in.Project), f("project_id", in.ProjectID))
	r.Types = types(pick(&err, f("types", in.Types), f("type", in.Type), f("memory_type", in.MemoryType)))
	r.Since = pick(&err, f("time_range.start", tr.Start), f("since", in.Since))
	r.Until = pick(&err, f("time_range.end", tr.End), f("until", in.Until))
	if k := pick(&err, f("k", in.K), f("limit", in.Limit)); k != nil && err == nil {
		name := "k"
		if in.K == nil {
			name = "limit"
		}
		err = mneme.CheckCount(name, *k)
		r.K = mneme.Count(*k)
	}
	r.MinScore = pick(&err, f("min_score", in.MinScore), f("score_threshold", in.ScoreThreshold))
	if err != nil {
		return r, err
	}
	if strings.TrimSpace(r.Query) == "" {
		return r, mneme.Invalid("query is blank: send query (or query_text) with the words to look for")
	}
	return r, nil
}

// recallOutput is a recall's result for an agent: the hits, a context to
// paste into a prompt, and the filters applied (after aliases and scope).
type recallOutput struct {
	Hits           []hit             `json:"hits"`
	Context        string            `json:"context"`
	UsedFilters    usedFilters       `json:"used_filters"`
	Mode           mneme.Mode        `json:"mode"`
	Degraded       bool              `json:"degraded"`
	DegradedReason string            `json:"degraded_reason,omitempty"`
	Unembedded     int               `json:"unembedded,omitempty" jsonschema:"records passing the filters that have no vector yet, so only their words find them (the fix: mneme reindex)"`
	HeldBack       int               `json:"held_back,omitempty" jsonschema:"hits held back for want of evidence (no query word, meaning below the match floor) that would have ranked among the k; include_unmatched returns them"`
	Weak           string            `json:"weak,omitempty" jsonschema:"why the hits are weak: a filter left few records and none has evidence, so its best are returned, each marked weak"`
	HyDE           *mneme.Hypothesis `json:"hyde,omitempty"`
	Feedback       []string          `json:"feedback,omitempty" jsonschema:"words of the best hits added to the query for a second search (no_feedback turns it off)"`
	VectorQuery    string            `json:"vector_query,omitempty" jsonschema:"what the vector lane embedded in place of the query: the question as the speaker it names would ask it (ranking profile field first_person)"`
	Cache          mneme.CacheStatus `json:"cache_status"`
	TookMS         float64           `json:"took_ms"`
	Report         *quality.Report   `json:"report,omitempty"`
}

type hit struct {
	ID      string         `json:"id"`
	Score   float64        `json:"score"`
	Record  record         `json:"record"`
	Explain *mneme.Explain `json:"explain,omitempty"`
	Weak    bool           `json:"weak,omitempty" jsonschema:"no evidence: returned because the filter left few records and none had any"`
}

type usedFilters struct {
	Project   string           `json:"project,omitempty"`
	Types     []mneme.Type     `json:"types,omitempty"`
	Kinds     []string         `json:"kinds,omitempty"`
	Tags      []string         `json:"tags,omitempty"`
	AllTags   bool             `json:"all_tags,omitempty"`
	Meta      mneme.MetaFilter `json:"meta,omitempty"`
	Statuses  []mneme.Status   `json:"statuses,omitempty"`
	Session   string           `json:"session,omitempty"`
	Run       string           `json:"run,omitempty"`
	TimeRange *usedRange       `json:"time_range,omitempty"`
	K         int              `json:"k"`
	Mode      mneme.Mode       `json:"mode"`
	MinScore  float64          `json:"min_score,omitempty"`
}

type usedRange struct {
	Start *time.Time `json:"start,omitempty"`
	End   *time.Time `json:"end,omitempty"`
}

func (s *server) recall(ctx context.Context, req *mcp.CallToolRequest, in recallInput) (*mcp.CallToolResult, recallOutput, error) {
	r, err := in.request()
	var q mneme.Query
	if err == nil {
		q, err = r.ToQuery(s.eng.Now(), mneme.ScopeFrom(ctx).Reads())
	}
	var res *mneme.Result
	if err == nil {
		res, err = s.eng.Recall(ctx, q)
	}
	if err != nil {
		return nil, recallOutput{}, fail(err)
	}
	fl := q.Filter
	fl.Project, _ = mneme.ScopeFrom(ctx).Resolve(fl.Project) // as the Engine applied it
	out := recallOutput{Hits: make([]hit, len(res.Hits)), Context: contextOf(res.Hits, res.HeldBack, res.Weak), Mode: res.Mode,
		Degraded: res.Degraded, DegradedReason: res.DegradedReason, Unembedded: res.Unembedded, HeldBack: res.HeldBack, Weak: res.Weak, HyDE: res.HyDE, Feedback: res.Feedback, VectorQuery: res.VectorQuery, Cache: res.Cache, TookMS: res.TookMS, Report: res.Report,
		UsedFilters: usedFilters{Project: fl.Project, Types: fl.Types, Kinds: fl.Kinds, Tags: fl.Tags,
			AllTags: fl.AllTags, Meta: fl.Meta, Statuses: fl.Statuses, Session: fl.SessionID, Run: fl.RunID, K: q.K, Mode: res.Mode, MinScore: q.MinScore}}
	if fl.Since != nil || fl.Until != nil {
		out.UsedFilters.TimeRange = &usedRange{Start: fl.Since, End: fl.Until}
	}
	for i, h := range res.Hits {
		out.Hits[i] = hit{ID: h.ID, Score: h.Score, Record: wrap(h.Record), Explain: h.Explain, Weak: h.Weak}
	}
	return nil, out, nil
}

// contextOf is the hits as numbered lines an agent can quote and cite:
// when it happened, where, what type, the id to get or forget it, the text;
// then how many were held back, or why they are weak.
func contextOf(hits []mneme.Hit, heldBack int, weak string) string {
	if len(hits) == 0 {
		return "no memories match" + heldBackNote(" ", heldBack)
	}
	var b strings.Builder
	for i, h := range hits {
		r := h.Record
		text := r.Text
		if r.Title != "" {
			text = r.Title + ": " + text
		}
		text = strings.Join(strings.Fields(text), " ")
		if rs := []rune(text); len(rs) > 300 {
			text = string(rs[:299]) + "…"
		}
		fmt.Fprintf(&b, "[%d] (%s, project %s, %s, id %s) %s\n", i+1, r.EventTime().Format(time.DateOnly), r.Project, r.Type, r.ID, text)
	}
	if weak != "" {
		fmt.Fprintf(&b, "(weak: %s)\n", weak)
	}
	return strings.TrimSuffix(b.String(), "\n") + heldBackNote("\n", heldBack)
}

// heldBackNote says, after sep, how many hits were held back (if any).
func heldBackNote(sep string, n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%s(%d held back without evidence: include_unmatched returns them)", sep, n)
}
