package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/mneme-ai/mneme"
)

var _ mneme.PendingStore = (*Store)(nil)

// Pending counts by project the non-secret records without a vector from
// the home's embedder (every non-secret record while it has none).
func (s *Store) Pending(ctx context.Context) (map[string]int, error) {
	info, ok, err := homeEmbedder(ctx, s.db)
	if err != nil {
		return nil, translate(err, "count the records to embed")
	}
	q, args := "SELECT project, count(*) FROM records r WHERE r.sensitivity != 'secret'", []any{}
	if ok {
		q += " AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.seq = r.seq AND v.embedder = ? AND v.version = ?)"
		args = append(args, info.ID(), info.Version)
	}
	rows, err := s.db.QueryContext(ctx, q+" GROUP BY project", args...)
	if err != nil {
		return nil, translate(err, "count the records to embed")
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var project string
		var n int
		if err := rows.Scan(&project, &n); err != nil {
			return nil, translate(err, "count the records to embed")
		}
		out[project] = n
	}
	return out, translate(rows.Err(), "count the records to embed")
}

// Notes live in the meta table beside the home's own facts, under a prefix
// of their own.
const notePrefix = "note:"

// Note returns the value kept under key, "" if none.
func (s *Store) Note(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", notePrefix+key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, translate(err, "read the note "+key)
}

// SetNote keeps value under key ("" deletes it).
func (s *Store) SetNote(ctx context.Context, key, value string) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		if value == "" {
			_, err = tx.ExecContext(ctx, "DELETE FROM meta WHERE key = ?", notePrefix+key)
		} else {
			_, err = tx.ExecContext(ctx, "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", notePrefix+key, value)
		}
		return err
	})
	return translate(err, "write the note "+key)
}
