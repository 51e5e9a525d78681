package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/mneme-ai/mneme"
)

// columns are the records columns that make up a mneme.Record, in scan order.
const columns = `r.id, r.project, r.type, r.kind, r.title, r.text, r.tags,
	r.source_uri, r.source_line_start, r.source_line_end, r.source_parent, r.source_chunk,
	r.occurred_at, r.created_at, r.updated_at, r.expires_at, r.key, r.status, r.provenance,
	r.sensitivity, r.session_id, r.run_id, r.speaker, r.links, r.content_hash, r.meta, r.promotions`

func scanRecord(row pgx.Row, extra ...any) (*mneme.Record, error) {
	var (
		r                                 mneme.Record
		links, promotions                 string
		uri, parent, meta                 *string
		lineStart, lineEnd, chunk         *int32
		occurred, created, updated, expry *int64
	)
	dest := append(extra, &r.ID, &r.Project, &r.Type, &r.Kind, &r.Title, &r.Text, &r.Tags,
		&uri, &lineStart, &lineEnd, &parent, &chunk,
		&occurred, &created, &updated, &expry, &r.Key, &r.Status, &r.Provenance,
		&r.Sensitivity, &r.SessionID, &r.RunID, &r.Speaker, &links, &r.ContentHash, &meta, &promotions)
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(links), &r.Links); err != nil {
		return nil, err
	}
	if err := mneme.UnmarshalPromotions(promotions, &r.Promotions); err != nil {
		return nil, err
	}
	if uri != nil || parent != nil {
		r.Source = &mneme.Source{URI: deref(uri), Parent: deref(parent),
			LineStart: int(deref(lineStart)), LineEnd: int(deref(lineEnd)), Chunk: int(deref(chunk))}
	}
	r.OccurredAt, r.ExpiresAt = fromNullNanos(occurred), fromNullNanos(expry)
	r.CreatedAt, r.UpdatedAt = fromNanos(deref(created)), fromNanos(deref(updated))
	if meta != nil {
		r.Meta = json.RawMessage(*meta)
	}
	return &r, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// values returns r's column values in the order of columns, then event_at
// and meta_forms.
func values(r *mneme.Record) []any {
	links, _ := json.Marshal(r.Links)
	if r.Links == nil {
		links = []byte("[]")
	}
	var uri, parent, meta *string
	var lineStart, lineEnd, chunk *int32
	if s := r.Source; s != nil {
		uri = &s.URI
		if s.Parent != "" {
			parent = &s.Parent
		}
		ls, le, c := int32(s.LineStart), int32(s.LineEnd), int32(s.Chunk)
		lineStart, lineEnd, chunk = &ls, &le, &c
	}
	if len(r.Meta) > 0 {
		m := string(r.Meta)
		meta = &m
	}
	return []any{r.ID, r.Project, string(r.Type), r.Kind, r.Title, r.Text, r.Tags,
		uri, lineStart, lineEnd, parent, chunk,
		toNullNanos(r.OccurredAt), r.CreatedAt.UnixNano(), r.UpdatedAt.UnixNano(), toNullNanos(r.ExpiresAt),
		r.Key, string(r.Status), string(r.Provenance), string(r.Sensitivity), r.SessionID, r.RunID, r.Speaker,
		string(links), r.ContentHash, meta, mneme.MarshalPromotions(r.Promotions), r.EventTime().UnixNano(), metaFormsOf(r.Meta)}
}

const insertSQL = `INSERT INTO records (id, project, type, kind, title, text, tags,
	source_uri, source_line_start, source_line_end, source_parent, source_chunk,
	occurred_at, created_at, updated_at, expires_at, key, status, provenance,
	sensitivity, session_id, run_id, speaker, links, content_hash, meta, promotions, event_at, meta_forms)
	VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29)
	RETURNING rid`

const updateSQL = `UPDATE records SET project=$2, type=$3, kind=$4, title=$5, text=$6, tags=$7,
	source_uri=$8, source_line_start=$9, source_line_end=$10, source_parent=$11, source_chunk=$12,
	occurred_at=$13, created_at=$14, updated_at=$15, expires_at=$16, key=$17, status=$18, provenance=$19,
	sensitivity=$20, session_id=$21, run_id=$22, speaker=$23, links=$24, content_hash=$25, meta=$26, promotions=$27, event_at=$28, meta_forms=$29
	WHERE id=$1 RETURNING rid`

func toNullNanos(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	n := t.UnixNano()
	return &n
}

func fromNanos(n int64) time.Time { return time.Unix(0, n).UTC() }

func fromNullNanos(n *int64) *time.Time {
	if n == nil {
		return nil
	}
	t := fromNanos(*n)
	return &t
}

// writer is one write transaction: what it touched is re-indexed for BM25
// before it commits.
type writer struct {
	s        *Store
	ctx      context.Context
	tx       pgx.Tx
	now      time.Time
	touched  map[int64]bool // rids whose postings must be recomputed
	vecsp    *vectorSpace   // the home's, read on first use
	noVector bool           // the home has no embedder

	// vectors and cache entries queued by putVector
	vecIDs, vecHashes, cacheHashes []string // vecHashes: each record's content hash
	vecs, cacheVecs                []pgvector.Vector
}

func (s *Store) newWriter(ctx context.Context, tx pgx.Tx, now time.Time) *writer {
	return &writer{s: s, ctx: ctx, tx: tx, now: now, touched: map[int64]bool{}}
}

// one returns the single record a query selects (and its rid), or nil.
func (w *writer) one(where string, args ...any) (*mneme.Record, int64, error) {
	var rid int64
	r, err := scanRecord(w.tx.QueryRow(w.ctx, "SELECT r.rid, "+columns+" FROM records r WHERE "+where, args...), &rid)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, 0, nil
	}
	return r, rid, err
}

// byHash is the stored record with r's text in its project, preferring
// one of r's type (a promotion keeps a text as an event and as a fact: a
// write of either finds its own), then one not superseded, then the newest.
func (w *writer) byHash(r *mneme.Record) (*mneme.Record, int64, error) {
	return w.one("r.project = $1 AND r.content_hash = $2"+w.hidden()+" ORDER BY r.type = $3 DESC, r.status = 'superseded', r.rid DESC LIMIT 1",
		r.Project, r.ContentHash, string(r.Type))
}

func (w *writer) insert(r *mneme.Record) error {
	var rid int64
	if err := w.tx.QueryRow(w.ctx, insertSQL, values(r)...).Scan(&rid); err != nil {
		return err
	}
	w.touched[rid] = true
	return w.touchNeighbours(rid)
}

// update rewrites r; a vector computed from other text (or for a record
// now secret) goes.
func (w *writer) update(r, old *mneme.Record) error {
	var rid int64
	if err := w.tx.QueryRow(w.ctx, updateSQL, values(r)...).Scan(&rid); err != nil {
		return err
	}
	if old != nil && (old.Text != r.Text || r.Sensitivity == mneme.Secret) {
		if err := w.dropVector(rid); err != nil {
			return err
		}
	}
	if old != nil && (old.SessionID != r.SessionID || !old.EventTime().Equal(r.EventTime()) || old.Project != r.Project) {
		if err := w.touchNeighboursOf(old, rid); err != nil { // its former neighbours lose it as context
			return err
		}
	}
	w.touched[rid] = true
	return w.touchNeighbours(rid)
}

// apply writes r as o says, and its vector (a duplicate's vector fills in
// one the stored record may lack).
func (w *writer) apply(o mneme.Outcome, r, old *mneme.Record, res *mneme.WriteResult) error {
	var err error
	switch o {
	case mneme.Insert:
		res.Inserted++
		err = w.insert(r)
	case mneme.Update:
		res.Updated++
		err = w.update(r, old)
	default:
		res.SkippedDuplicates++
	}
	if err != nil {
		return err
	}
	return w.putVector(r)
}

// hidden is the condition that leaves out of what a write dedupes against
// and supersedes the records its caller may not read (mneme.Scope.CanRead:
// the project is the write's own, which the caller covers).
func (w *writer) hidden() string {
	if mneme.HidesSecrets(w.ctx) {
		return " AND r.sensitivity != 'secret'"
	}
	return ""
}

// supersede retires the other active records with r's key that the
// caller may read.
// The key condition repeats the partial index's (see sqlite's supersedeQuery).
func (w *writer) supersede(r *mneme.Record) (int, error) {
	rows, err := w.tx.Query(w.ctx, "SELECT "+columns+" FROM records r WHERE r.project = $1 AND r.key = $2 AND r.key != '' AND r.status != 'superseded' AND r.id != $3"+w.hidden()+" FOR UPDATE",
		r.Project, r.Key, r.ID)
	if err != nil {
		return 0, err
	}
	olds, err := collect(rows)
	if err != nil {
		return 0, err
	}
	for _, old := range olds {
		mneme.Supersede(old, r, w.now)
		if _, err := w.tx.Exec(w.ctx, "UPDATE records SET status = $1, updated_at = $2 WHERE id = $3", string(old.Status), old.UpdatedAt.UnixNano(), old.ID); err != nil {
			return 0, err
		}
	}
	return len(olds), nil
}

// Put writes recs in one transaction. Advisory locks on each record's
// (project, content hash) and (project, key), taken in a fixed order, make
// concurrent writers of the same text or key wait for each other, so the
// text is stored once and one record per key stays active.
func (s *Store) Put(ctx context.Context, recs []*mneme.Record, mode mneme.WriteMode, now time.Time) (mneme.WriteResult, error) {
	var res mneme.WriteResult
	err := s.tx(ctx, func(tx pgx.Tx) error {
		res = mneme.WriteResult{Chunks: len(recs)}
		w := s.newWriter(ctx, tx, now)
		if err := w.lock(recs); err != nil {
			return err
		}
		if mode == mneme.ModeImport {
			if err := w.importBatch(recs, &res); err != nil {
				return err
			}
		} else {
			for _, r := range recs {
				if err := w.put(r, mode, &res); err != nil {
					return err
				}
			}
		}
		res.ID = recs[0].ID
		if err := w.raiseDerived(recs, mode, res); err != nil {
			return err
		}
		return w.finish()
	})
	return res, s.translate(err, "write records")
}

// raiseDerived makes secret what derives from the secret records just
// written (mneme.RaiseDerived), in the write's transaction.
func (w *writer) raiseDerived(recs []*mneme.Record, mode mneme.WriteMode, res mneme.WriteResult) error {
	raised, err := mneme.RaiseDerived(recs, mode, res, w.now, func(ids []string) ([]*mneme.Record, error) {
		// record_links (migrations/0011) names the records deriving from ids.
		rows, err := w.tx.Query(w.ctx, "SELECT "+columns+` FROM records r WHERE r.rid IN
			(SELECT source FROM record_links WHERE rel = 'derived_from' AND target = ANY($1)) FOR UPDATE`, ids)
		if err != nil {
			return nil, err
		}
		return collect(rows)
	})
	for _, d := range raised {
		if err == nil {
			err = w.update(d, d) // secret now: its vector goes
		}
	}
	return err
}

func (w *writer) put(r *mneme.Record, mode mneme.WriteMode, res *mneme.WriteResult) error {
	if mode == mneme.ModeImport {
		var existing *mneme.Record
		var err error
		if r.ID != "" { // locked, as in importBatch
			if existing, _, err = w.one("r.id = $1 FOR UPDATE", r.ID); err != nil {
				return err
			}
		}
		if err := mneme.CheckImport(w.ctx, existing, r); err != nil {
			return err
		}
		dup := false
		if existing == nil {
			other, _, err := w.byHash(r)
			if err != nil {
				return err
			}
			dup = other != nil && other.Type == r.Type
		}
		return w.apply(mneme.ResolveImport(existing, dup, r, w.now), r, existing, res)
	}
	existing, _, err := w.byHash(r)
	if err != nil {
		return err
	}
	var old *mneme.Record
	if existing != nil {
		c := *existing
		old = &c
	}
	o := mneme.ResolveRemember(existing, r, w.now)
	if o != mneme.Skip && mneme.Supersedes(r) {
		n, err := w.supersede(r)
		if err != nil {
			return err
		}
		res.Superseded += n
	}
	return w.apply(o, r, old, res)
}

// Get returns the record with the given id.
func (s *Store) Get(ctx context.Context, id string) (*mneme.Record, error) {
	r, err := scanRecord(s.pool.QueryRow(ctx, "SELECT "+columns+" FROM records r WHERE r.id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, mneme.Errorf(mneme.ENOTFOUND, "no record with id %s", id)
	}
	return r, s.translate(err, "read record "+id)
}

func collect(rows pgx.Rows) ([]*mneme.Record, error) {
	defer rows.Close()
	var out []*mneme.Record
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// GetMany returns the records with the given ids that exist (the
// mneme.BatchGetter role), in one query.
func (s *Store) GetMany(ctx context.Context, ids []string) ([]*mneme.Record, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+columns+" FROM records r WHERE r.id = ANY($1)", ids)
	if err != nil {
		return nil, s.translate(err, "read records")
	}
	recs, err := collect(rows)
	return recs, s.translate(err, "read records")
}
