package sqlite

import (
	"context"
	"database/sql"

	"github.com/mneme-ai/mneme"
)

var _ mneme.Copier = (*Store)(nil)

// Vectors returns the home embedder's vectors of the records with ids.
func (s *Store) Vectors(ctx context.Context, ids []string) (map[string][]float32, error) {
	out := map[string][]float32{}
	info, ok, err := homeEmbedder(ctx, s.db)
	if err != nil || !ok {
		return out, translate(err, "read vectors")
	}
	for start := 0; start < len(ids); start += 500 {
		part := ids[start:min(start+500, len(ids))]
		// CROSS JOIN keeps SQLite on the records' ids: joining the other way
		// round reads every vector of the embedder for each batch.
		rows, err := s.db.QueryContext(ctx, `SELECT r.id, v.vec FROM records r CROSS JOIN vectors v ON v.seq = r.seq
			WHERE v.embedder = ? AND v.version = ? AND v.dim = ? AND r.id IN (`+marks(len(part))+")",
			append([]any{info.ID(), info.Version, info.Dim}, anys(part)...)...)
		if err != nil {
			return nil, translate(err, "read vectors")
		}
		for rows.Next() {
			var id string
			var blob []byte
			if err := rows.Scan(&id, &blob); err != nil {
				rows.Close()
				return nil, translate(err, "read vectors")
			}
			out[id] = decodeVector(blob)
		}
		if err := rows.Close(); err != nil {
			return nil, translate(err, "read vectors")
		}
	}
	return out, nil
}

// AllDocuments lists every ingested document.
func (s *Store) AllDocuments(ctx context.Context) ([]mneme.Document, error) {
	return s.queryDocuments(ctx, "ORDER BY id")
}

// PutDocuments writes documents as given.
func (s *Store) PutDocuments(ctx context.Context, docs []mneme.Document) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for _, d := range docs {
			if _, err := tx.ExecContext(ctx, `INSERT INTO documents (id, project, uri, hash, chunks, updated_at) VALUES (?,?,?,?,?,?)
				ON CONFLICT (id) DO UPDATE SET project = excluded.project, uri = excluded.uri, hash = excluded.hash,
				chunks = excluded.chunks, updated_at = excluded.updated_at`,
				d.ID, d.Project, d.URI, d.Hash, d.Chunks, d.UpdatedAt.UnixNano()); err != nil {
				return err
			}
		}
		return nil
	})
	return translate(err, "write documents")
}
