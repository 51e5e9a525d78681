package mneme

import (
	"context"
	"time"
)

// Store is what the Engine keeps memory in: the composition of the roles
// below. Every implementation passes the contract suite in
// internal/storetest, role by role. Abilities beyond these (index health,
// and the caches and logs to come) are optional roles a backend may
// implement, found by type assertion (see HealthChecker).
type Store interface {
	RecordStore
	SearchStore
	DocumentStore
	VectorStore
	Close() error
}

// RecordStore keeps the records.
type RecordStore interface {
	// Put writes recs in one transaction following mode, and stamps ids and
	// server times with now.
	Put(ctx context.Context, recs []*Record, mode WriteMode, now time.Time) (WriteResult, error)
	// Get returns the record with the given id, or ENOTFOUND.
	Get(ctx context.Context, id string) (*Record, error)
	// List returns up to limit records passing f, newest first, and the
	// cursor of the next page ("" at the end).
	List(ctx context.Context, f Filter, limit int, cursor string) ([]*Record, string, error)
	// Delete removes the records with the given ids, all or none: ENOTFOUND
	// names a missing id.
	Delete(ctx context.Context, ids []string) (int, error)
	// DeleteExpired removes the records whose TTL ran out at now.
	DeleteExpired(ctx context.Context, now time.Time) (int, error)
	// Stats counts the stored records.
	Stats(ctx context.Context, now time.Time) (Stats, error)
}

// SearchStore answers recall's queries.
type SearchStore interface {
	// Candidates returns the union of each lane's top q.K among the records
	// passing q.Filter (in no particular order), each scored by both lanes,
	// and when the vector lane runs, how many records passing the filter
	// it cannot see for want of a vector (Candidates.Unembedded). The
	// lexical top K is exact; the vector top K is exact under a selective
	// filter and as near as the index gets otherwise. The vector lane finds
	// nothing while the home has no embedder.
	Candidates(ctx context.Context, q CandidateQuery) (Candidates, error)
	// Neighbours returns up to n records on each side of r, nearest first:
	// the chunks beside it in its document, else the records before and
	// after it (by event time) in its session. None if it has neither.
	Neighbours(ctx context.Context, r *Record, n int) (before, after []*Record, err error)
}

// DocumentStore keeps ingested documents, whose chunks are records.
type DocumentStore interface {
	// Document returns the ingested document at (project, uri), or ENOTFOUND.
	Document(ctx context.Context, project, uri string) (*Document, error)
	// Documents lists the documents of project whose URI starts with prefix.
	Documents(ctx context.Context, project, prefix string) ([]Document, error)
	// PutDocument replaces the chunks of doc in one transaction: chunks whose
	// text is unchanged keep their ids, chunks no longer present are deleted.
	PutDocument(ctx context.Context, doc *Document, chunks []*Record, now time.Time) (WriteResult, error)
	// DeleteDocument removes a document and its chunks.
	DeleteDocument(ctx context.Context, id string) (int, error)
}

// VectorStore keeps the records' embeddings from the home's embedder, and
// the embedding cache. Writes store each record's Vector (if set) as coming
// from the home's embedder, and cache it by text.
type VectorStore interface {
	// HomeEmbedder returns the embedder the stored vectors come from, if any.
	HomeEmbedder(ctx context.Context) (EmbedderInfo, bool, error)
	// SetHomeEmbedder records info as the home's embedder and deletes
	// vectors from any other.
	SetHomeEmbedder(ctx context.Context, info EmbedderInfo) error
	// CachedVectors returns the cached embeddings of texts (keyed by
	// TextHash) computed by info.
	CachedVectors(ctx context.Context, info EmbedderInfo, hashes []string) (map[string][]float32, error)
	// Unembedded returns up to limit non-secret records without a vector
	// from the home's embedder.
	Unembedded(ctx context.Context, limit int) ([]*Record, error)
	// PutVectors stores the Vector of each record (by id) and caches it.
	PutVectors(ctx context.Context, recs []*Record) error
}

// HealthChecker is an optional role: a store that can tell the health of
// what it keeps besides the records (derived indexes, snapshots), for
// `mneme doctor`.
type HealthChecker interface {
	Health(ctx context.Context) ([]HealthCheck, error)
}

// HealthCheck is one health check's outcome.
type HealthCheck struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// WriteMode says how Put treats records that already exist.
type WriteMode int

const (
	// ModeRemember assigns new ids, dedupes by content hash within the
	// project and supersedes active records with the same key.
	ModeRemember WriteMode = iota
	// ModeImport keeps ids, status and links as given: an identical record is
	// skipped, a changed one updated.
	ModeImport
)

// WriteResult counts what a write did.
type WriteResult struct {
	ID                string `json:"id,omitempty"`
	Inserted          int    `json:"inserted"`
	Updated           int    `json:"updated"`
	SkippedDuplicates int    `json:"skipped_duplicates"`
	Superseded        int    `json:"superseded,omitempty"`
	Deleted           int    `json:"deleted,omitempty"`
	Chunks            int    `json:"chunks"`
}

// Add accumulates o into w.
func (w *WriteResult) Add(o WriteResult) {
	if w.ID == "" {
		w.ID = o.ID
	}
	w.Inserted += o.Inserted
	w.Updated += o.Updated
	w.SkippedDuplicates += o.SkippedDuplicates
	w.Superseded += o.Superseded
	w.Deleted += o.Deleted
	w.Chunks += o.Chunks
}

// Document is an ingested file: its chunks are records whose source names it.
type Document struct {
	ID        string    `json:"id"`
	Project   string    `json:"project"`
	URI       string    `json:"uri"`
	Hash      string    `json:"hash"`   // sha256 of the file bytes
	Chunks    int       `json:"chunks"` // chunk records written for it
	Intact    bool      `json:"-"`      // all its chunks are still stored (none forgotten since)
	UpdatedAt time.Time `json:"updated_at"`
}

// Stats are record counts.
type Stats struct {
	Total      int            `json:"total"`
	Superseded int            `json:"superseded"`
	Expired    int            `json:"expired"`
	Secret     int            `json:"secret"`
	Documents  int            `json:"documents"`
	Projects   []ProjectStats `json:"projects"`
}

// ProjectStats counts one project's records by type.
type ProjectStats struct {
	Project string         `json:"project"`
	Total   int            `json:"total"`
	Types   map[string]int `json:"types"`
}
