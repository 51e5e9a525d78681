// Package ops is a STAND-IN for the operational-memory package another
// branch (i-ops) is building: only the API in /work/ops-design.md that the
// hooks code against (Batch, Entry, Result, Write), mapped onto records as
// the design's table says. The merge of i-ops replaces this file.
package ops

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mneme-ai/mneme"
)

// Batch is one atomic write of operational entries.
type Batch struct {
	Project string  `json:"project,omitempty"`
	Entries []Entry `json:"entries"`
	Redact  bool    `json:"redact,omitempty"`
}

// Entry is one row; Kind picks which typed fields apply.
type Entry struct {
	Kind         string     `json:"kind"`
	Session      string     `json:"session,omitempty"`
	Run          string     `json:"run,omitempty"`
	At           *time.Time `json:"at,omitempty"`
	Host         string     `json:"host,omitempty"`
	Repo         string     `json:"repo,omitempty"`
	Started      *time.Time `json:"started_at,omitempty"`
	Ended        *time.Time `json:"ended_at,omitempty"`
	Summary      string     `json:"summary,omitempty"`
	Goal         string     `json:"goal,omitempty"`
	Status       string     `json:"status,omitempty"`
	Tool         string     `json:"tool,omitempty"`
	Input        string     `json:"input,omitempty"`
	Outcome      string     `json:"outcome,omitempty"`
	DurationMS   int64      `json:"duration_ms,omitempty"`
	Success      *bool      `json:"success,omitempty"`
	Path         string     `json:"path,omitempty"`
	SHA256       string     `json:"sha256,omitempty"`
	Size         int64      `json:"size,omitempty"`
	ArtifactKind string     `json:"artifact_kind,omitempty"`
	Check        string     `json:"check,omitempty"`
	EvidenceHash string     `json:"evidence_hash,omitempty"`
	RouteKind    string     `json:"route_kind,omitempty"`
	Choice       string     `json:"choice,omitempty"`
	Reason       string     `json:"reason,omitempty"`
	Text         string     `json:"text,omitempty"`
}

// Result is what a Write did.
type Result struct {
	Written int      `json:"written"`
	Skipped int      `json:"skipped_duplicates"`
	IDs     []string `json:"ids"`
}

// Write stores b in one transaction.
func Write(ctx context.Context, eng *mneme.Engine, b Batch) (Result, error) {
	recs := make([]*mneme.Record, 0, len(b.Entries))
	for _, e := range b.Entries {
		recs = append(recs, record(b.Project, e))
	}
	res, err := eng.Remember(ctx, recs, mneme.WriteOptions{Redact: b.Redact})
	if err != nil {
		return Result{}, err
	}
	out := Result{Written: res.Inserted + res.Updated, Skipped: res.SkippedDuplicates}
	for _, r := range recs {
		out.IDs = append(out.IDs, r.ID)
	}
	return out, nil
}

func record(project string, e Entry) *mneme.Record {
	r := &mneme.Record{Project: project, Type: mneme.Episodic, Kind: e.Kind, SessionID: e.Session, RunID: e.Run,
		OccurredAt: e.At, Tags: []string{"ops"}}
	if e.Host != "" {
		r.Tags = append(r.Tags, e.Host)
	}
	meta := map[string]any{"ops": e.Kind}
	switch e.Kind {
	case "session":
		r.Key = "ops:session:" + e.Session
		r.Text = fmt.Sprintf("Session %s (%s)", e.Session, e.Host)
		if e.Summary != "" {
			r.Text += ": " + e.Summary
		}
		meta["host"], meta["repo"], meta["started_at"] = e.Host, e.Repo, e.Started
		if e.Ended != nil {
			meta["ended_at"] = e.Ended
		}
	case "tool_call":
		r.Text = fmt.Sprintf("%s: %s -> %s", e.Tool, e.Input, e.Outcome)
		meta["tool"], meta["input"], meta["outcome"], meta["duration_ms"] = e.Tool, e.Input, e.Outcome, e.DurationMS
		if e.Success != nil {
			meta["success"] = *e.Success
		}
	case "prompt":
		r.Kind, r.Speaker, r.Text = "turn", "user", e.Text
	}
	r.Meta, _ = json.Marshal(meta)
	return r
}
