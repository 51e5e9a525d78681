package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/mneme-ai/mneme"
)

var _ mneme.Copier = (*Store)(nil)

// Vectors returns the home embedder's vectors of the records with ids.
func (s *Store) Vectors(ctx context.Context, ids []string) (map[string][]float32, error) {
	out := map[string][]float32{}
	sp, err := s.space(ctx, s.pool)
	if err != nil || sp == nil {
		return out, s.translate(err, "read vectors")
	}
	rows, err := s.pool.Query(ctx, "SELECT r.id, v.vec FROM records r JOIN "+sp.table+" v ON v.rid = r.rid WHERE r.id = ANY($1)", ids)
	if err != nil {
		return nil, s.translate(err, "read vectors")
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var v pgvector.Vector
		if err := rows.Scan(&id, &v); err != nil {
			return nil, s.translate(err, "read vectors")
		}
		out[id] = v.Slice()
	}
	return out, s.translate(rows.Err(), "read vectors")
}

// AllDocuments lists every ingested document.
func (s *Store) AllDocuments(ctx context.Context) ([]mneme.Document, error) {
	return s.queryDocuments(ctx, "ORDER BY id")
}

// PutDocuments writes documents as given.
func (s *Store) PutDocuments(ctx context.Context, docs []mneme.Document) error {
	err := s.tx(ctx, func(tx pgx.Tx) error {
		for _, d := range docs {
			if _, err := tx.Exec(ctx, `INSERT INTO documents (id, project, uri, hash, chunks, updated_at) VALUES ($1,$2,$3,$4,$5,$6)
				ON CONFLICT (id) DO UPDATE SET project = excluded.project, uri = excluded.uri, hash = excluded.hash,
				chunks = excluded.chunks, updated_at = excluded.updated_at`,
				d.ID, d.Project, d.URI, d.Hash, d.Chunks, d.UpdatedAt.UnixNano()); err != nil {
				return err
			}
		}
		return nil
	})
	return s.translate(err, "write documents")
}
