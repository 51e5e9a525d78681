// Package ops is operational memory: what an agent did (sessions, runs,
// tool calls, artifacts, validations, route decisions, the prompts it was
// given), written in atomic batches under strict payload hygiene and read
// back by session and run. Every entry is an episodic mneme record whose
// kind names the entity and whose meta holds its typed fields, so recall,
// summarize, scopes, export and both stores work on it unchanged.
package ops

import (
	"context"
	"time"

	"github.com/mneme-ai/mneme"
)

// The entity kinds of an Entry.
const (
	KindSession    = "session"
	KindRun        = "run"
	KindToolCall   = "tool_call"
	KindArtifact   = "artifact"
	KindValidation = "validation"
	KindRoute      = "route"
	KindPrompt     = "prompt" // stored as a record of kind turn, speaker user
)

// Kinds lists every entity kind, in timeline order of a typical session.
var Kinds = []string{KindSession, KindRun, KindPrompt, KindToolCall, KindArtifact, KindValidation, KindRoute}

// Hosts are the agent hosts a session may name.
var Hosts = []string{"claude-code", "codex", "cursor", "gemini", "other"}

// Tag marks every operational record.
const Tag = "ops"

// Batch is one atomic write: every entry is stored, or none.
type Batch struct {
	Project string  `json:"project,omitempty"`
	Entries []Entry `json:"entries"`
	// Redact masks credentials found in any field instead of refusing
	// the batch (a hook capturing a tool's output uses it).
	Redact bool `json:"redact,omitempty"`
}

// Entry is one row; Kind picks which typed fields apply, and a field of
// another kind is refused, as are unknown JSON fields.
type Entry struct {
	Kind    string     `json:"kind"` // session, run, tool_call, artifact, validation, route, prompt
	Session string     `json:"session,omitempty"`
	Run     string     `json:"run,omitempty"`
	At      *time.Time `json:"at,omitempty"` // when it happened; default now

	Host    string     `json:"host,omitempty"`       // session: claude-code, codex, cursor, gemini, other
	Repo    string     `json:"repo,omitempty"`       // session: repo-relative or sha256:…, never absolute
	Started *time.Time `json:"started_at,omitempty"` // session
	Ended   *time.Time `json:"ended_at,omitempty"`   // session
	Summary string     `json:"summary,omitempty"`    // session

	Goal   string `json:"goal,omitempty"`   // run
	Status string `json:"status,omitempty"` // run, validation

	Tool       string `json:"tool,omitempty"`        // tool_call
	Input      string `json:"input,omitempty"`       // tool_call: bounded summary
	Outcome    string `json:"outcome,omitempty"`     // tool_call: bounded summary
	DurationMS int64  `json:"duration_ms,omitempty"` // tool_call
	Success    *bool  `json:"success,omitempty"`     // tool_call

	Path         string `json:"path,omitempty"`   // artifact: repo-relative
	SHA256       string `json:"sha256,omitempty"` // artifact
	Size         int64  `json:"size,omitempty"`   // artifact
	ArtifactKind string `json:"artifact_kind,omitempty"`

	Check        string `json:"check,omitempty"` // validation
	EvidenceHash string `json:"evidence_hash,omitempty"`

	RouteKind string `json:"route_kind,omitempty"` // route
	Choice    string `json:"choice,omitempty"`
	Reason    string `json:"reason,omitempty"` // a reason code

	Text string `json:"text,omitempty"` // prompt
}

// Result says what a batch wrote: Written counts the entries stored or
// updated, Skipped the ones already stored unchanged (an event delivered
// twice); IDs are the records' ids, one per entry, in order.
type Result struct {
	Written int      `json:"written"`
	Skipped int      `json:"skipped_duplicates"`
	IDs     []string `json:"ids"`
}

// Write validates b and stores it in one transaction through the Engine
// (the caller's scope in ctx applies): a bad entry fails the batch with an
// error naming its index and field, and nothing is written.
func Write(ctx context.Context, eng *mneme.Engine, b Batch) (Result, error) {
	if err := Check(&b); err != nil {
		return Result{}, err
	}
	project, err := mneme.ScopeFrom(ctx).Resolve(b.Project)
	if err != nil {
		return Result{}, err
	}
	if project == "" { // as the records will be stored: parents are looked up there only
		project = mneme.DefaultProject
	}
	if err := parentsExist(ctx, eng, project, b.Entries); err != nil {
		return Result{}, err
	}
	now := eng.Now()
	recs := make([]*mneme.Record, len(b.Entries))
	for i := range b.Entries {
		recs[i] = toRecord(&b.Entries[i], project, now)
	}
	res, err := eng.Remember(ctx, recs, mneme.WriteOptions{Redact: b.Redact})
	if err != nil {
		return Result{}, err
	}
	out := Result{Written: res.Inserted + res.Updated, Skipped: res.SkippedDuplicates, IDs: make([]string, len(recs))}
	for i, r := range recs {
		out.IDs[i] = r.ID
	}
	return out, nil
}
