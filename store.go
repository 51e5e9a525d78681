package mneme

import (
	"cmp"
	"context"
	"errors"
	"time"
)

// ErrNoHome is the cause of a store's refusal to open, for reading, a
// place that holds no home (a store opened for reading creates nothing).
var ErrNoHome = errors.New("no mneme home here")

// Store is what the Engine keeps memory in: the composition of the roles
// below. Every implementation passes the contract suite in
// internal/storetest, role by role. Abilities beyond these (index health,
// and the caches and logs to come) are optional roles a backend may
// implement, found by type assertion (see HealthChecker and
// IntegrityChecker).
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
// from the home's embedder, and cache it under its EmbedHash (if set).
type VectorStore interface {
	// HomeEmbedder returns the embedder the stored vectors come from, if any.
	HomeEmbedder(ctx context.Context) (EmbedderInfo, bool, error)
	// SetHomeEmbedder records info as the home's embedder and deletes
	// vectors from any other.
	SetHomeEmbedder(ctx context.Context, info EmbedderInfo) error
	// CachedVectors returns the cached embeddings of texts (keyed by
	// TextHash) computed by info.
	CachedVectors(ctx context.Context, info EmbedderInfo, hashes []string) (map[string][]float32, error)
	// CacheVectors caches vecs[i], computed by info, as the embedding of the
	// text whose TextHash is hashes[i], at once (its own transaction): the
	// Engine keeps each batch as the embedder returns it, so interrupted
	// work resumes where it stopped. A text already cached keeps its vector.
	CacheVectors(ctx context.Context, info EmbedderInfo, hashes []string, vecs [][]float32) error
	// Unembedded returns up to limit non-secret records without a vector
	// from the home's embedder, in the order they were stored, starting
	// after cursor ("" from the first), and the cursor after the last of
	// them: a job walks them once while it embeds them ("" when none is
	// returned). None while the home has no embedder.
	Unembedded(ctx context.Context, cursor string, limit int) ([]*Record, string, error)
	// PutVectors stores the Vector of each record (by id) and caches it
	// under its EmbedHash (if set).
	PutVectors(ctx context.Context, recs []*Record) error
}

// PendingStore is an optional role: a store that counts the records
// waiting for a vector, and keeps the Engine's notes on embedding (the
// embedder's last failure, the embedding job's cursor) where every process
// that opens the store sees them (see Engine.EmbedPending).
type PendingStore interface {
	// Pending counts by project the non-secret records without a vector
	// from the home's embedder (every non-secret record while the home
	// has none).
	Pending(ctx context.Context) (map[string]int, error)
	// Note returns the value kept under key, "" if there is none.
	Note(ctx context.Context, key string) (string, error)
	// SetNote keeps value under key at once ("" deletes it).
	SetNote(ctx context.Context, key, value string) error
}

// HealthChecker is an optional role: a store that can tell the health of
// what it keeps besides the records (derived indexes, snapshots), for
// `mneme doctor`.
type HealthChecker interface {
	Health(ctx context.Context) ([]HealthCheck, error)
}

// IntegrityChecker is an optional role: a store that can verify the files
// it keeps (every page of a database file), for `mneme doctor`. The quick
// check reads the structure of everything; deep also checks that every
// index agrees with its table, which takes longer. A damaged store is a
// failed check that names the fix, not an error: the error is for a check
// that could not run.
type IntegrityChecker interface {
	Integrity(ctx context.Context, deep bool) (HealthCheck, error)
}

// HealthCheck is one health check's outcome. A warning is a check that
// passed with a caveat worth fixing (OK stays true).
// Absent marks a capability that is not set up (no LLM configured, the
// store is not the shared one): nothing is wrong (OK stays true), but the
// lanes that rest on it are unavailable.
type HealthCheck struct {
	ID     string `json:"id,omitempty"` // set by doctor: the name, lower case, words joined by '-'
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Warn   bool   `json:"warn,omitempty"`
	Absent bool   `json:"absent,omitempty"`
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
	// PendingEmbeddings counts the records written without a vector
	// because the embedder was down or slow: they wait for the embedding
	// job (EmbedPending); PendingReason says why.
	PendingEmbeddings int    `json:"pending_embeddings,omitempty"`
	PendingReason     string `json:"pending_reason,omitempty"`
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
	w.PendingEmbeddings += o.PendingEmbeddings
	w.PendingReason = cmp.Or(w.PendingReason, o.PendingReason)
}

// SalvageResult counts what a repair saved from a damaged store into a new
// one, and what it could not read.
type SalvageResult struct {
	From       string `json:"from"`
	To         string `json:"to"`
	Records    int    `json:"records"`           // records saved, with their ids, times, status and links
	Vectors    int    `json:"vectors"`           // of them, with their vector
	Unembedded int    `json:"unembedded"`        // non-secret records saved without a vector (reindex embeds them)
	Documents  int    `json:"documents"`         // ingested documents
	Cached     int    `json:"cached_embeddings"` // embedding cache entries
	// UnreadableRecords counts the records the store knew of (its
	// indexes list them) that could not be read.
	UnreadableRecords int `json:"unreadable_records"`
	// UnreadableRows counts the other rows on damaged pages (vectors,
	// documents, cache, settings); rows that might not exist are counted
	// where the damage hides whether they do.
	UnreadableRows int `json:"unreadable_rows"`
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
	// PendingEmbeddings counts the records waiting for a vector, and
	// EmbedderError is the embedder's last failure until it answers
	// again: the Engine fills both (see PendingStore).
	PendingEmbeddings int             `json:"pending_embeddings"`
	EmbedderError     *EmbedderHealth `json:"embedder_error,omitempty"`
	// Embedders are the home's vector set and the ones kept beside it
	// (a reindex building one, or the former home's kept for a switch
	// back), each with its coverage of the records that may have a
	// vector; the Engine fills it for a caller that covers every project.
	Embedders []VectorSet `json:"embedders,omitempty"`
	// SecretOnly is the part of these counts that is secret: the secret
	// records counted alone, as Stats counts them all (its Secret and
	// Total are equal; its Documents are the documents only secret
	// records come from). A store fills it, so that a caller without
	// clearance secret is shown the counts without them (Scope.Stats);
	// the Engine refuses such a caller rather than guess when it is nil.
	// Never sent.
	SecretOnly *Stats `json:"-"`
}

// AddCount adds n records of project and typ to st.Projects, which a store
// fills in order of project; none adds nothing.
func (st *Stats) AddCount(project, typ string, n int) {
	if n == 0 {
		return
	}
	if k := len(st.Projects); k == 0 || st.Projects[k-1].Project != project {
		st.Projects = append(st.Projects, ProjectStats{Project: project, Types: map[string]int{}})
	}
	p := &st.Projects[len(st.Projects)-1]
	p.Total += n
	p.Types[typ] = n
}

// ProjectStats counts one project's records by type.
type ProjectStats struct {
	Project           string         `json:"project"`
	Total             int            `json:"total"`
	Types             map[string]int `json:"types"`
	PendingEmbeddings int            `json:"pending_embeddings,omitempty"`
}

// Copier is an optional role: a store whose vectors and documents can be
// read and written as stored, so `mneme migrate-store` can move a home
// between backends without re-embedding.
type Copier interface {
	// Vectors returns the home embedder's vectors of the records with the
	// given ids (records without one are absent).
	Vectors(ctx context.Context, ids []string) (map[string][]float32, error)
	// AllDocuments lists every ingested document.
	AllDocuments(ctx context.Context) ([]Document, error)
	// PutDocuments writes documents as given (their chunks are records,
	// written separately), replacing any with the same id.
	PutDocuments(ctx context.Context, docs []Document) error
}

// IndexKeeper is an optional role: a store whose search indexes are files
// derived from its tables, which can go cold (missing, unusable, far
// behind) so that the next search first rebuilds them. A process on a
// host's clock (a hook) asks before it searches, and leaves the rebuild to
// a process of its own.
type IndexKeeper interface {
	// IndexBacklog is how many changes a search would index before it
	// answers: every record when no usable snapshot is on disk.
	IndexBacklog(ctx context.Context) (int64, error)
	// WarmIndexes brings the indexes up to date and saves their
	// snapshots; it returns how many changes it indexed.
	WarmIndexes(ctx context.Context) (int64, error)
	// LeaveIndexes makes Close leave the snapshots as they are, where it
	// would otherwise bring them up to date after many writes.
	LeaveIndexes()
}

// BatchGetter is an optional role: a store that reads many records by id
// in one call, so the Engine checks the targets of a result set's links
// (and follows them) without a call per link.
type BatchGetter interface {
	// GetMany returns the records with the given ids that exist, in no
	// particular order.
	GetMany(ctx context.Context, ids []string) ([]*Record, error)
}

// LinkIndex is an optional role: a store that indexes links by target, so
// expansion brings the records linking TO a hit (a source's summary) as
// well as those its own links name.
type LinkIndex interface {
	// IncomingLinks returns, for each of targets, up to per of the
	// records that link to it (newest first), each in its target's
	// project and passing f (Project, Clearance, Now, IncludeExpired and
	// IncludeSuperseded are read), with the link's relation. A record
	// linking to a target by two relations comes once per relation.
	IncomingLinks(ctx context.Context, targets []string, f Filter, per int) ([]Incoming, error)
}

// SpeakerFinder is an optional role: a store that tells, in a few index
// seeks, which of a question's names are speakers, so the Engine can ask
// the vector lane the question as that speaker would (rank.FirstPerson).
type SpeakerFinder interface {
	// Speakers returns those of names (at most MaxSpeakerNames, compared
	// case-insensitively, as given) that are the speaker of at least one
	// record passing f, the filter of the recall's Candidates: a speaker
	// only records f hides have is never returned.
	Speakers(ctx context.Context, names []string, f Filter) ([]string, error)
}

// MaxSpeakerNames bounds the names one Speakers call probes.
const MaxSpeakerNames = 8

// CheckSpeakerNames refuses more names than one Speakers call probes.
func CheckSpeakerNames(names []string) error {
	if len(names) > MaxSpeakerNames {
		return Invalid("%d names to probe for speakers: the limit is %d", len(names), MaxSpeakerNames)
	}
	return nil
}

// Incoming is a record that links to Target by Rel.
type Incoming struct {
	Target, Rel string
	Record      *Record
}
