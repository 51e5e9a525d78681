package postgres

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme"
)

// Document returns the document at (project, uri).
func (s *Store) Document(ctx context.Context, project, uri string) (*mneme.Document, error) {
	var d mneme.Document
	var updated int64
	err := s.pool.QueryRow(ctx, `SELECT d.id, d.project, d.uri, d.hash, d.updated_at, d.chunks,
		d.chunks = (SELECT count(*) FROM records WHERE source_parent = d.id)
		FROM documents d WHERE d.project = $1 AND d.uri = $2`, project, uri).
		Scan(&d.ID, &d.Project, &d.URI, &d.Hash, &updated, &d.Chunks, &d.Intact)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, mneme.Errorf(mneme.ENOTFOUND, "no document %s in project %s", uri, project)
	}
	d.UpdatedAt = fromNanos(updated)
	return &d, s.translate(err, "read document")
}

// Documents lists the documents of project whose URI starts with prefix.
func (s *Store) Documents(ctx context.Context, project, prefix string) ([]mneme.Document, error) {
	return s.queryDocuments(ctx, "WHERE project = $1 AND left(uri, $2) = $3 ORDER BY uri", project, len([]rune(prefix)), prefix)
}

// queryDocuments lists the documents that where (a WHERE and ORDER BY
// clause, or just ORDER BY) selects.
func (s *Store) queryDocuments(ctx context.Context, where string, args ...any) ([]mneme.Document, error) {
	rows, err := s.pool.Query(ctx, "SELECT id, project, uri, hash, chunks, updated_at FROM documents "+where, args...)
	if err != nil {
		return nil, s.translate(err, "list documents")
	}
	defer rows.Close()
	var out []mneme.Document
	for rows.Next() {
		var d mneme.Document
		var updated int64
		if err := rows.Scan(&d.ID, &d.Project, &d.URI, &d.Hash, &d.Chunks, &updated); err != nil {
			return nil, s.translate(err, "list documents")
		}
		d.UpdatedAt = fromNanos(updated)
		out = append(out, d)
	}
	return out, s.translate(rows.Err(), "list documents")
}

// lockDocument is the advisory lock kind of a document's (project, uri).
const lockDocument = "document"

// PutDocument replaces doc's chunks in one transaction. Chunks whose text is
// unchanged keep their ids; chunks no longer in the document are deleted.
func (s *Store) PutDocument(ctx context.Context, doc *mneme.Document, chunks []*mneme.Record, now time.Time) (mneme.WriteResult, error) {
	var res mneme.WriteResult
	err := s.tx(ctx, func(tx pgx.Tx) error {
		res = mneme.WriteResult{Chunks: len(chunks)}
		w := s.newWriter(ctx, tx, now)
		if err := w.lock(slices.Concat(chunks, []*mneme.Record{{Project: doc.Project, ContentHash: lockDocument + "\x00" + doc.URI}})); err != nil {
			return err
		}
		old, err := w.chunksOf(doc.ID)
		if err != nil {
			return err
		}
		owned := 0
		for _, c := range chunks {
			prev := old[c.ContentHash]
			delete(old, c.ContentHash)
			if prev == nil {
				if prev, _, err = w.byHash(c); err != nil {
					return err
				}
				if prev != nil { // the same text is already remembered elsewhere in the project
					res.SkippedDuplicates++
					continue
				}
			}
			owned++
			var before *mneme.Record
			if prev != nil {
				cp := *prev
				before = &cp
			}
			if o := mneme.ResolveRemember(prev, c, now); o != mneme.Skip { // skip: unchanged chunk
				if err := w.apply(o, c, before, &res); err != nil {
					return err
				}
			}
		}
		for _, gone := range old {
			r, rid, err := w.one("r.id = $1", gone.ID)
			if err != nil {
				return err
			}
			if r != nil {
				if err := w.delete(r, rid); err != nil {
					return err
				}
				res.Deleted++
			}
		}
		doc.Chunks, doc.UpdatedAt = owned, now
		_, err = tx.Exec(ctx, `INSERT INTO documents (id, project, uri, hash, chunks, updated_at) VALUES ($1,$2,$3,$4,$5,$6)
			ON CONFLICT (id) DO UPDATE SET hash = excluded.hash, chunks = excluded.chunks, updated_at = excluded.updated_at`,
			doc.ID, doc.Project, doc.URI, doc.Hash, doc.Chunks, now.UnixNano())
		if err != nil {
			return err
		}
		if len(chunks) > 0 && res.ID == "" {
			res.ID = chunks[0].ID
		}
		return w.finish()
	})
	return res, s.translate(err, "write document "+doc.URI)
}

func (w *writer) chunksOf(docID string) (map[string]*mneme.Record, error) {
	rows, err := w.tx.Query(w.ctx, "SELECT "+columns+" FROM records r WHERE r.source_parent = $1", docID)
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
	err := s.tx(ctx, func(tx pgx.Tx) error {
		w := s.newWriter(ctx, tx, time.Time{})
		rows, err := tx.Query(ctx, "SELECT r.rid, "+columns+" FROM records r WHERE r.source_parent = $1 FOR UPDATE", id)
		if err != nil {
			return err
		}
		var recs []*mneme.Record
		var rids []int64
		for rows.Next() {
			var rid int64
			r, err := scanRecord(rows, &rid)
			if err != nil {
				rows.Close()
				return err
			}
			recs, rids = append(recs, r), append(rids, rid)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for i, r := range recs {
			if err := w.delete(r, rids[i]); err != nil {
				return err
			}
		}
		for _, rid := range rids {
			delete(w.touched, rid)
		}
		n = len(recs)
		if _, err := tx.Exec(ctx, "DELETE FROM documents WHERE id = $1", id); err != nil {
			return err
		}
		return w.finish()
	})
	return n, s.translate(err, "delete document")
}
