package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/mneme-ai/mneme"
)

// Document returns the document at (project, uri).
func (s *Store) Document(ctx context.Context, project, uri string) (*mneme.Document, error) {
	var d mneme.Document
	var updated int64
	err := s.db.QueryRowContext(ctx, `SELECT d.id, d.project, d.uri, d.hash, d.updated_at, d.chunks,
		d.chunks = (SELECT count(*) FROM records WHERE source_parent = d.id)
		FROM documents d WHERE d.project = ? AND d.uri = ?`, project, uri).
		Scan(&d.ID, &d.Project, &d.URI, &d.Hash, &updated, &d.Chunks, &d.Intact)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, mneme.Errorf(mneme.ENOTFOUND, "no document %s in project %s", uri, project)
	}
	d.UpdatedAt = fromNanos(updated)
	return &d, translate(err, "read document")
}

// Documents lists the documents of project whose URI starts with prefix.
func (s *Store) Documents(ctx context.Context, project, prefix string) ([]mneme.Document, error) {
	return s.queryDocuments(ctx, "WHERE project = ? AND substr(uri, 1, ?) = ? ORDER BY uri", project, len(prefix), prefix)
}

// queryDocuments lists the documents that where (a WHERE and ORDER BY
// clause, or just ORDER BY) selects.
func (s *Store) queryDocuments(ctx context.Context, where string, args ...any) ([]mneme.Document, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, project, uri, hash, chunks, updated_at FROM documents "+where, args...)
	if err != nil {
		return nil, translate(err, "list documents")
	}
	defer rows.Close()
	var out []mneme.Document
	for rows.Next() {
		var d mneme.Document
		var updated int64
		if err := rows.Scan(&d.ID, &d.Project, &d.URI, &d.Hash, &d.Chunks, &updated); err != nil {
			return nil, translate(err, "list documents")
		}
		d.UpdatedAt = fromNanos(updated)
		out = append(out, d)
	}
	return out, translate(rows.Err(), "list documents")
}

// PutDocument replaces doc's chunks in one transaction. Chunks whose text is
// unchanged keep their ids; chunks no longer in the document are deleted.
func (s *Store) PutDocument(ctx context.Context, doc *mneme.Document, chunks []*mneme.Record, now time.Time) (mneme.WriteResult, error) {
	var res mneme.WriteResult
	err := s.write(ctx, now, func(w *writer) error {
		res = mneme.WriteResult{Chunks: len(chunks)}
		old, err := w.chunksOf(doc.ID)
		if err != nil {
			return err
		}
		owned := 0
		for _, c := range chunks {
			prev := old[c.ContentHash]
			delete(old, c.ContentHash)
			if prev == nil {
				if prev, err = w.byHash(c); err != nil {
					return err
				}
				if prev != nil { // the same text is already remembered elsewhere in the project
					res.SkippedDuplicates++
					continue
				}
			}
			owned++
			if o := mneme.ResolveRemember(prev, c, now); o != mneme.Skip { // skip: unchanged chunk
				if err := w.apply(o, c, &res); err != nil {
					return err
				}
			}
		}
		for _, gone := range old {
			var seq int64
			if err := w.queryRow("SELECT seq FROM records WHERE id = ?", gone.ID).Scan(&seq); err != nil {
				return err
			}
			if err := w.deleteSeq(seq); err != nil {
				return err
			}
			res.Deleted++
		}
		doc.Chunks, doc.UpdatedAt = owned, now
		_, err = w.exec(`INSERT INTO documents (id, project, uri, hash, chunks, updated_at) VALUES (?,?,?,?,?,?)
			ON CONFLICT (id) DO UPDATE SET hash = excluded.hash, chunks = excluded.chunks, updated_at = excluded.updated_at`,
			doc.ID, doc.Project, doc.URI, doc.Hash, doc.Chunks, now.UnixNano())
		if len(chunks) > 0 && res.ID == "" {
			res.ID = chunks[0].ID
		}
		return err
	})
	return res, translate(err, "write document "+doc.URI)
}

func (w *writer) chunksOf(docID string) (map[string]*mneme.Record, error) {
	tx, err := w.conn()
	if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(w.ctx, "SELECT "+columns+" FROM records r WHERE r.source_parent = ?", docID)
	if err != nil {
		return nil, err
	}
	recs, err := collect(rows)
	out := make(map[string]*mneme.Record, len(recs))
	for _, r := range recs {
		out[r.ContentHash] = r
	}
	return out, err
}

// DeleteDocument removes a document and its chunks.
func (s *Store) DeleteDocument(ctx context.Context, id string) (int, error) {
	n := 0
	err := s.tx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT seq FROM records WHERE source_parent = ?", id)
		if err != nil {
			return err
		}
		var seqs []int64
		for rows.Next() {
			var seq int64
			if err := rows.Scan(&seq); err != nil {
				rows.Close()
				return err
			}
			seqs = append(seqs, seq)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		w := newWriter(ctx, tx, time.Time{})
		for _, seq := range seqs {
			if err := w.deleteSeq(seq); err != nil {
				return err
			}
		}
		n = len(seqs)
		_, err = tx.ExecContext(ctx, "DELETE FROM documents WHERE id = ?", id)
		return err
	})
	return n, translate(err, "delete document")
}
