// Package jobs is the job ledger: one entry per run of the jobs that work
// through a store in the background or at length (sync, reindex,
// summarize, ingest, code indexing), so an operator can see what ran, for
// whom, what it did and where it stopped. A store keeps the ledger when it
// implements Ledger (an optional role, found by type assertion).
package jobs

import (
	"context"
	"time"
)

// Kind names a job.
type Kind string

// The jobs that keep a ledger.
const (
	KindSync      Kind = "sync"      // embedding pending memories
	KindReindex   Kind = "reindex"   // re-embedding every memory
	KindSummarize Kind = "summarize" // consolidation into a summary
	KindIngest    Kind = "ingest"    // documents
	KindCode      Kind = "code"      // code indexing
)

// Kinds lists the kinds, in the order stats shows them.
var Kinds = []Kind{KindSync, KindReindex, KindSummarize, KindIngest, KindCode}

// Status is where a run stands.
type Status string

const (
	Running     Status = "running"
	Done        Status = "done"
	Failed      Status = "failed"
	Interrupted Status = "interrupted" // cancelled, or it stopped without recording its end
)

// Entry is one run. Its cursor and error name nothing outside the store
// (no absolute paths: see clean).
type Entry struct {
	ID        string         `json:"id"`
	Kind      Kind           `json:"kind"`
	Project   string         `json:"project,omitempty"` // "": the whole store
	Caller    string         `json:"caller"`            // the token's name, "owner" for the CLI
	Status    Status         `json:"status"`
	StartedAt time.Time      `json:"started_at"`
	EndedAt   *time.Time     `json:"ended_at,omitempty"`
	Counts    map[string]int `json:"counts"`
	Cursor    string         `json:"cursor,omitempty"` // where a resumed run goes on
	Error     string         `json:"error,omitempty"`
	// AliveUntil is when a running entry's lease ends: its process renews
	// it while it works, so one not renewed was killed. Owner names the
	// process (host and pid), so that one on this host seen gone is
	// interrupted at once. Neither is shown.
	AliveUntil time.Time `json:"-"`
	Owner      string    `json:"-"`
}

// Query selects entries.
type Query struct {
	Kind     Kind     // "": every kind
	Projects []string // nil: every entry; else only these projects' (store-wide entries left out)
	Limit    int
}

// Ledger is the optional store role that keeps the entries.
type Ledger interface {
	// PutJob writes e at once (its own transaction): a new entry, or the
	// next state of one written before (same id). A new entry leaves
	// only the newest keep entries of its kind.
	PutJob(ctx context.Context, e Entry, keep int) error
	// Jobs returns up to q.Limit entries passing q, newest first, as
	// stored (a running entry is not checked for its lease here).
	Jobs(ctx context.Context, q Query) ([]Entry, error)
}

// Bounds.
const (
	// Keep is how many entries of each kind the ledger keeps.
	Keep = 200
	// DefaultLimit and MaxLimit bound a listing.
	DefaultLimit = 50
	MaxLimit     = Keep
	// lease is how long a running entry counts as alive without renewal;
	// a run renews it every lease/3.
	lease = time.Minute
)
