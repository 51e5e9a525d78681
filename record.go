// Package mneme is long-term memory for AI agents: memory records, the
// rules that govern them (dedupe, supersession, expiry, sensitivity) and the
// Engine that every surface (CLI, MCP, HTTP, library) calls.
package mneme

import (
	"encoding/json"
	"time"
)

// Type is the cognitive type of a memory.
type Type string

const (
	Episodic   Type = "episodic"   // an event: what happened, when
	Semantic   Type = "semantic"   // a fact
	Procedural Type = "procedural" // a how-to
)

// Status is the lifecycle state of a record.
type Status string

const (
	Active     Status = "active"
	Superseded Status = "superseded"
	Draft      Status = "draft"
	Validated  Status = "validated"
	Published  Status = "published"
)

// Provenance says how much a record can be trusted.
type Provenance string

const (
	Verified Provenance = "verified"
	Cited    Provenance = "cited"
	Assumed  Provenance = "assumed"
	Cached   Provenance = "cached"
)

// Sensitivity controls who may see a record. Levels are ordered.
type Sensitivity string

const (
	Public   Sensitivity = "public"
	Internal Sensitivity = "internal"
	Secret   Sensitivity = "secret"
)

// Link types.
const (
	LinkDerivedFrom = "derived_from"
	LinkSupersedes  = "supersedes"
	LinkRelatesTo   = "relates_to"
	LinkFollows     = "follows"
)

// DefaultProject is the project of records that name none.
const DefaultProject = "default"

// Record is one memory: an event, a fact, a how-to, or a chunk of a document.
type Record struct {
	ID          string          `json:"id"`
	Project     string          `json:"project"`
	Type        Type            `json:"type"`
	Kind        string          `json:"kind,omitempty"`
	Title       string          `json:"title,omitempty"`
	Text        string          `json:"text"`
	Tags        []string        `json:"tags"`
	Source      *Source         `json:"source,omitempty"`
	OccurredAt  *time.Time      `json:"occurred_at,omitempty"`
	CreatedAt   time.Time       `json:"created_at"`
	UpdatedAt   time.Time       `json:"updated_at"`
	ExpiresAt   *time.Time      `json:"expires_at,omitempty"`
	Key         string          `json:"key,omitempty"`
	Status      Status          `json:"status"`
	Provenance  Provenance      `json:"provenance,omitempty"`
	Sensitivity Sensitivity     `json:"sensitivity"`
	SessionID   string          `json:"session_id,omitempty"`
	RunID       string          `json:"run_id,omitempty"`
	Speaker     string          `json:"speaker,omitempty"`
	Links       []Link          `json:"links,omitempty"`
	ContentHash string          `json:"content_hash"`
	Meta        json.RawMessage `json:"meta,omitempty"`
	// Promotions is the record's promotion history, oldest first (see
	// Engine.Promote); it goes wherever the record goes (export, import,
	// migrate-store) and is deleted with it.
	Promotions []Promotion `json:"promotions,omitempty"`

	// Vector is the record's embedding on its way into the store; it is
	// not part of the record's JSON (export carries no vectors).
	Vector []float32 `json:"-"`
	// EmbedHash is the TextHash of what Vector was computed from (the text
	// in its context), the embedding cache key, when the vector is not in
	// the cache yet: the write caches it. Empty: nothing to cache.
	EmbedHash string `json:"-"`
	// VectorOf is the SetKey of the embedder Vector comes from ("": the
	// home's). A store drops a vector of another set than the one it
	// writes: a write racing a switch of embedder leaves its record
	// pending rather than mixing vectors.
	VectorOf string `json:"-"`

	// given says which optional fields the write named (see keepAbsent).
	given fieldSet
	// base is the stored version a read-modify-write started from (see
	// CheckBase); nil for any other write.
	base *Record
	// exactLinks: a write that finds the text stored replaces its links
	// (see WriteOptions.ExactLinks).
	exactLinks bool
}

// Source says where a record came from. Chunks of a document name the
// document (Parent) and their position in it.
type Source struct {
	URI       string `json:"uri,omitempty"`
	LineStart int    `json:"line_start,omitempty"`
	LineEnd   int    `json:"line_end,omitempty"`
	Parent    string `json:"parent,omitempty"`
	Chunk     int    `json:"chunk,omitempty"`
}

// Link is a typed edge to another record.
type Link struct {
	Type   string `json:"type"`
	Target string `json:"target"`
}

// DerivedLinkPattern is the SQL LIKE pattern a store matches against the
// JSON array of a record's links (as json.Marshal writes it) to find the
// records with a derived_from link (Filter.Derived).
const DerivedLinkPattern = `%{"type":"derived_from",%`

// EventTime is when the record's content happened: OccurredAt, else
// CreatedAt. Time filters apply to it.
func (r *Record) EventTime() time.Time {
	if r.OccurredAt != nil {
		return *r.OccurredAt
	}
	return r.CreatedAt
}

// Expired reports whether r's TTL has run out at now.
func (r *Record) Expired(now time.Time) bool {
	return r.ExpiresAt != nil && !r.ExpiresAt.After(now)
}

// Visible reports whether a reader with the given clearance may see r.
func (r *Record) Visible(clearance Sensitivity) bool {
	return r.Sensitivity != Secret || clearance == Secret
}

// sameContent reports whether a and b carry the same content and metadata,
// ignoring identity, server times and text layout (the content hash stands
// for the text): an import or a remember of such a record changes nothing.
func sameContent(a, b *Record) bool {
	x, y := *a, *b
	x.ID, y.ID = "", ""
	x.Text, y.Text = "", ""
	x.CreatedAt, y.CreatedAt = time.Time{}, time.Time{}
	x.UpdatedAt, y.UpdatedAt = time.Time{}, time.Time{}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}
