package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// columns are the records columns that make up a mneme.Record, in scan order.
const columns = `r.id, r.project, r.type, r.kind, r.title, r.text, r.tags,
	r.source_uri, r.source_line_start, r.source_line_end, r.source_parent, r.source_chunk,
	r.occurred_at, r.created_at, r.updated_at, r.expires_at, r.key, r.status, r.provenance,
	r.sensitivity, r.session_id, r.run_id, r.speaker, r.links, r.content_hash, r.meta, r.promotions`

type scanner interface{ Scan(...any) error }

func scanRecord(row scanner) (*mneme.Record, error) {
	var (
		r                                 mneme.Record
		tags, links, promotions           string
		uri, parent                       sql.NullString
		lineStart, lineEnd, chunk         sql.NullInt64
		occurred, created, updated, expry sql.NullInt64
		meta                              sql.NullString
	)
	err := row.Scan(&r.ID, &r.Project, &r.Type, &r.Kind, &r.Title, &r.Text, &tags,
		&uri, &lineStart, &lineEnd, &parent, &chunk,
		&occurred, &created, &updated, &expry, &r.Key, &r.Status, &r.Provenance,
		&r.Sensitivity, &r.SessionID, &r.RunID, &r.Speaker, &links, &r.ContentHash, &meta, &promotions)
	if err != nil {
		return nil, err
	}
	if err := unmarshalTags(tags, &r.Tags); err != nil {
		return nil, err
	}
	if links == "[]" { // most records: as json.Unmarshal gives it, without its cost
		r.Links = []mneme.Link{}
	} else if err := json.Unmarshal([]byte(links), &r.Links); err != nil {
		return nil, err
	}
	if err := mneme.UnmarshalPromotions(promotions, &r.Promotions); err != nil {
		return nil, err
	}
	if uri.Valid || parent.Valid {
		r.Source = &mneme.Source{URI: uri.String, Parent: parent.String,
			LineStart: int(lineStart.Int64), LineEnd: int(lineEnd.Int64), Chunk: int(chunk.Int64)}
	}
	r.OccurredAt, r.ExpiresAt = fromNullNanos(occurred), fromNullNanos(expry)
	r.CreatedAt, r.UpdatedAt = fromNanos(created.Int64), fromNanos(updated.Int64)
	if meta.Valid {
		r.Meta = json.RawMessage(meta.String)
	}
	return &r, nil
}

// unmarshalTags decodes the tags column (a JSON array of strings). An
// array whose strings need no escapes is split by hand: a list reads
// every record's tags, and reflection was most of its decoding.
func unmarshalTags(s string, tags *[]string) error {
	switch s {
	case "[]":
		*tags = []string{} // as json.Unmarshal gives it
		return nil
	case "null":
		*tags = nil
		return nil
	}
	inner, ok := strings.CutPrefix(s, `["`)
	inner, ok2 := strings.CutSuffix(inner, `"]`)
	if !ok || !ok2 || strings.ContainsAny(inner, "\\") {
		return json.Unmarshal([]byte(s), tags)
	}
	parts := strings.Split(inner, `","`)
	for _, p := range parts {
		if strings.Contains(p, `"`) { // not as json.Marshal writes it
			return json.Unmarshal([]byte(s), tags)
		}
	}
	*tags = parts
	return nil
}

// values returns r's column values in the order of columns, then event_at.
func values(r *mneme.Record) []any {
	tags, _ := json.Marshal(r.Tags)
	links, _ := json.Marshal(r.Links)
	if r.Links == nil {
		links = []byte("[]")
	}
	var uri, parent sql.NullString
	var lineStart, lineEnd, chunk sql.NullInt64
	if s := r.Source; s != nil {
		uri = sql.NullString{String: s.URI, Valid: true}
		parent = sql.NullString{String: s.Parent, Valid: s.Parent != ""}
		lineStart = sql.NullInt64{Int64: int64(s.LineStart), Valid: true}
		lineEnd = sql.NullInt64{Int64: int64(s.LineEnd), Valid: true}
		chunk = sql.NullInt64{Int64: int64(s.Chunk), Valid: true}
	}
	var meta sql.NullString
	if len(r.Meta) > 0 {
		meta = sql.NullString{String: string(r.Meta), Valid: true}
	}
	return []any{r.ID, r.Project, r.Type, r.Kind, r.Title, r.Text, string(tags),
		uri, lineStart, lineEnd, parent, chunk,
		toNullNanos(r.OccurredAt), r.CreatedAt.UnixNano(), r.UpdatedAt.UnixNano(), toNullNanos(r.ExpiresAt),
		r.Key, r.Status, r.Provenance, r.Sensitivity, r.SessionID, r.RunID, r.Speaker,
		string(links), r.ContentHash, meta, mneme.MarshalPromotions(r.Promotions), r.EventTime().UnixNano()}
}

const insertSQL = `INSERT INTO records (id, project, type, kind, title, text, tags,
	source_uri, source_line_start, source_line_end, source_parent, source_chunk,
	occurred_at, created_at, updated_at, expires_at, key, status, provenance,
	sensitivity, session_id, run_id, speaker, links, content_hash, meta, promotions, event_at)
	VALUES ` + insertRow

// insertRow is one row of insertSQL's VALUES.
const insertRow = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"

const updateSQL = `UPDATE records SET project=?, type=?, kind=?, title=?, text=?, tags=?,
	source_uri=?, source_line_start=?, source_line_end=?, source_parent=?, source_chunk=?,
	occurred_at=?, created_at=?, updated_at=?, expires_at=?, key=?, status=?, provenance=?,
	sensitivity=?, session_id=?, run_id=?, speaker=?, links=?, content_hash=?, meta=?, promotions=?, event_at=?
	WHERE id=?`

func toNullNanos(t *time.Time) sql.NullInt64 {
	if t == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixNano(), Valid: true}
}

func fromNanos(n int64) time.Time { return time.Unix(0, n).UTC() }

func fromNullNanos(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := fromNanos(n.Int64)
	return &t
}

// writer is one write transaction and its prepared statements: a batch
// reuses each statement instead of parsing it again per record.
type writer struct {
	ctx      context.Context
	tx       *sql.Tx
	now      time.Time
	stmts    map[string]*sql.Stmt
	embedder *mneme.EmbedderInfo // the home's, read on first use
	// deferred: the writer of a Store.write, which leaves work to the
	// transaction's end (see batch.go); the fields below are that work.
	deferred bool
	pending  []*mneme.Record // records to insert, with their vectors
	metaSeqs []int64         // inserted records whose meta rows are owed
	fresh    map[[2]string]bool
	err      error // a pending insert's failure: the transaction fails with it
	// shared, when set, is the statement the store prepared once for
	// every transaction (nil: prepare it in this one), as Store.write
	// sets it: parsing a multi-row INSERT anew each time was a tenth of
	// an ops batch.
	shared func(query string) (*sql.Stmt, error)
}

func newWriter(ctx context.Context, tx *sql.Tx, now time.Time) *writer {
	return &writer{ctx: ctx, tx: tx, now: now, stmts: map[string]*sql.Stmt{}}
}

// stmt is query prepared in the transaction, after the inserts pending
// (every statement of the writer goes through it or conn, so each sees them).
func (w *writer) stmt(query string) (*sql.Stmt, error) {
	if err := w.flush(); err != nil {
		return nil, err
	}
	if st, ok := w.stmts[query]; ok {
		return st, nil
	}
	var st *sql.Stmt
	var err error
	if w.shared != nil {
		st, err = w.shared(query)
	}
	switch {
	case err != nil:
	case st != nil:
		st = w.tx.StmtContext(w.ctx, st)
	default:
		st, err = w.tx.PrepareContext(w.ctx, query)
	}
	if err == nil {
		w.stmts[query] = st
	}
	return st, err
}

func (w *writer) exec(query string, args ...any) (sql.Result, error) {
	st, err := w.stmt(query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(w.ctx, args...)
}

func (w *writer) queryRow(query string, args ...any) *sql.Row {
	st, err := w.stmt(query)
	if err != nil { // reports the same error on Scan, or w.err's (which write returns first)
		return w.tx.QueryRowContext(w.ctx, query, args...)
	}
	return st.QueryRowContext(w.ctx, args...)
}

// insert writes r and its vector: at once, or with the other inserts
// pending in a Store.write (batch.go).
func (w *writer) insert(r *mneme.Record) error {
	w.pending = append(w.pending, r)
	if w.deferred {
		return nil
	}
	if err := w.flush(); err != nil {
		return err
	}
	return w.finish()
}

// deleteSeq removes one record and its tags.
func (w *writer) deleteSeq(seq int64) error {
	if _, err := w.exec("DELETE FROM record_tags WHERE seq = ?", seq); err != nil {
		return err
	}
	_, err := w.exec("DELETE FROM records WHERE seq = ?", seq)
	return err
}

func (w *writer) update(r *mneme.Record) error {
	v := values(r)
	if _, err := w.exec(updateSQL, append(v[1:], r.ID)...); err != nil {
		return err
	}
	var seq int64
	if err := w.queryRow("SELECT seq FROM records WHERE id = ?", r.ID).Scan(&seq); err != nil {
		return err
	}
	if _, err := w.exec("DELETE FROM record_tags WHERE seq = ?", seq); err != nil {
		return err
	}
	return w.writeTags(seq, r.Tags)
}

func (w *writer) writeTags(seq int64, tags []string) error {
	for _, t := range tags {
		if _, err := w.exec("INSERT INTO record_tags (tag, seq) VALUES (?, ?)", t, seq); err != nil {
			return err
		}
	}
	return nil
}

// one returns the single record a query selects, or nil.
func (w *writer) one(query string, args ...any) (*mneme.Record, error) {
	r, err := scanRecord(w.queryRow("SELECT "+columns+" FROM records r WHERE "+query, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return r, err
}

// byHash is the stored record with r's text in its project, preferring
// one of r's type (a promotion keeps a text as an event and as a fact: a
// write of either finds its own), then one not superseded, then the newest.
func (w *writer) byHash(r *mneme.Record) (*mneme.Record, error) {
	if w.fresh[[2]string{r.Project, r.ContentHash}] {
		return nil, nil
	}
	return w.one("r.project = ? AND r.content_hash = ?"+w.hidden()+" ORDER BY r.type = ? DESC, r.status = 'superseded', r.seq DESC LIMIT 1",
		r.Project, r.ContentHash, r.Type)
}

// apply writes r as o says, and its vector (a duplicate's vector fills in
// one the stored record may lack).
func (w *writer) apply(o mneme.Outcome, r *mneme.Record, res *mneme.WriteResult) error {
	var err error
	switch o {
	case mneme.Insert:
		res.Inserted++
		return w.insert(r) // and its vector
	case mneme.Update:
		res.Updated++
		err = w.update(r)
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

// supersedeQuery finds the active records with a key. The key must not be
// empty: that is the partial index records_project_key's condition, and
// without it in the query the planner
// cannot use the index and every keyed write scanned the whole table (a
// hook's session record cost 75 ms in a home of 100,000 records).
const supersedeQuery = "SELECT " + columns + " FROM records r WHERE r.project = ? AND r.key = ? AND r.key != '' AND r.status != 'superseded' AND r.id != ?"

// supersede retires the other active records with r's key that the
// caller may read.
func (w *writer) supersede(r *mneme.Record) (int, error) {
	tx, err := w.conn()
	if err != nil {
		return 0, err
	}
	rows, err := tx.QueryContext(w.ctx, supersedeQuery+w.hidden(), r.Project, r.Key, r.ID)
	if err != nil {
		return 0, err
	}
	var olds []*mneme.Record
	for rows.Next() {
		old, err := scanRecord(rows)
		if err != nil {
			rows.Close()
			return 0, err
		}
		olds = append(olds, old)
	}
	if err := rows.Close(); err != nil {
		return 0, err
	}
	for _, old := range olds {
		mneme.Supersede(old, r, w.now)
		if _, err := w.exec("UPDATE records SET status = ?, updated_at = ? WHERE id = ?", old.Status, old.UpdatedAt.UnixNano(), old.ID); err != nil {
			return 0, err
		}
	}
	return len(olds), nil
}

// Put writes recs in one transaction.
func (s *Store) Put(ctx context.Context, recs []*mneme.Record, mode mneme.WriteMode, now time.Time) (mneme.WriteResult, error) {
	var res mneme.WriteResult
	err := s.write(ctx, now, func(w *writer) error {
		res = mneme.WriteResult{Chunks: len(recs)}
		if len(recs) > 1 {
			if err := w.prefetch(recs); err != nil {
				return err
			}
		}
		for _, r := range recs {
			if err := w.put(r, mode, &res); err != nil {
				return err
			}
		}
		res.ID = recs[0].ID
		return w.raiseDerived(recs, mode, res)
	})
	return res, translate(err, "write records")
}

func (w *writer) put(r *mneme.Record, mode mneme.WriteMode, res *mneme.WriteResult) error {
	if mode == mneme.ModeImport {
		var existing *mneme.Record
		var err error
		if r.ID != "" {
			if existing, err = w.one("r.id = ?", r.ID); err != nil {
				return err
			}
		}
		if err := mneme.CheckImport(w.ctx, existing, r); err != nil {
			return err
		}
		dup := false
		if existing == nil {
			other, err := w.byHash(r)
			if err != nil {
				return err
			}
			dup = other != nil && other.Type == r.Type
		}
		return w.apply(mneme.ResolveImport(existing, dup, r, w.now), r, res)
	}
	existing, err := w.byHash(r)
	if err != nil {
		return err
	}
	o := mneme.ResolveRemember(existing, r, w.now)
	if o != mneme.Skip && mneme.Supersedes(r) {
		n, err := w.supersede(r)
		if err != nil {
			return err
		}
		res.Superseded += n
	}
	return w.apply(o, r, res)
}

// raiseDerived makes secret what derives from the secret records just
// written (mneme.RaiseDerived), in the write's transaction.
func (w *writer) raiseDerived(recs []*mneme.Record, mode mneme.WriteMode, res mneme.WriteResult) error {
	raised, err := mneme.RaiseDerived(recs, mode, res, w.now, func(ids []string) ([]*mneme.Record, error) {
		var out []*mneme.Record
		for len(ids) > 0 { // record_links (migrations/0010) names the records deriving from ids
			n := min(len(ids), 500)
			tx, err := w.conn()
			if err != nil {
				return nil, err
			}
			rows, err := tx.QueryContext(w.ctx, "SELECT "+columns+` FROM records r WHERE r.seq IN
				(SELECT source FROM record_links WHERE rel = 'derived_from' AND target IN (`+marks(n)+"))", anys(ids[:n])...)
			if err != nil {
				return nil, err
			}
			recs, err := collect(rows)
			if err != nil {
				return nil, err
			}
			out, ids = append(out, recs...), ids[n:]
		}
		return out, nil
	})
	for _, d := range raised {
		if err == nil {
			err = w.update(d)
		}
	}
	return err
}

// Get returns the record with the given id.
func (s *Store) Get(ctx context.Context, id string) (*mneme.Record, error) {
	// Prepared once: a context package checks each record it cites, and
	// parsing this statement anew each time cost a session start 5 ms.
	stmt, err := s.stmts.get(ctx, s.db, getQuery)
	if err != nil {
		return nil, translate(err, "read record "+id)
	}
	r, err := scanRecord(stmt.QueryRowContext(ctx, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, mneme.Errorf(mneme.ENOTFOUND, "no record with id %s", id)
	}
	return r, translate(err, "read record "+id)
}

var getQuery = "SELECT " + columns + " FROM records r WHERE r.id = ?"

// GetMany returns the records with the given ids that exist (the
// mneme.BatchGetter role), a few hundred ids a query.
func (s *Store) GetMany(ctx context.Context, ids []string) ([]*mneme.Record, error) {
	var out []*mneme.Record
	for len(ids) > 0 {
		n := min(len(ids), 500)
		args := make([]any, n)
		for i, id := range ids[:n] {
			args[i] = id
		}
		rows, err := s.db.QueryContext(ctx, "SELECT "+columns+" FROM records r WHERE r.id IN (?"+strings.Repeat(",?", n-1)+")", args...)
		if err != nil {
			return nil, translate(err, "read records")
		}
		recs, err := collect(rows)
		if err != nil {
			return nil, translate(err, "read records")
		}
		out, ids = append(out, recs...), ids[n:]
	}
	return out, nil
}
