package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme"
)

var _ mneme.PendingStore = (*Store)(nil)

// Pending counts by project the non-secret records without a vector from
// the home's embedder (every non-secret record while it has none).
func (s *Store) Pending(ctx context.Context) (map[string]int, error) {
	sp, err := s.space(ctx, s.pool)
	if err != nil {
		return nil, s.translate(err, "count the records to embed")
	}
	q := "SELECT project, count(*) FROM records r WHERE r.sensitivity != 'secret'"
	if sp != nil {
		q += " AND NOT EXISTS (SELECT 1 FROM " + sp.table + " v WHERE v.rid = r.rid)"
	}
	rows, err := s.pool.Query(ctx, q+" GROUP BY project")
	if err != nil {
		return nil, s.translate(err, "count the records to embed")
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var project string
		var n int
		if err := rows.Scan(&project, &n); err != nil {
			return nil, s.translate(err, "count the records to embed")
		}
		out[project] = n
	}
	return out, s.translate(rows.Err(), "count the records to embed")
}

// Notes live in the meta table beside the home's own facts, under a prefix
// of their own.
const notePrefix = "note:"

// Note returns the value kept under key, "" if none.
func (s *Store) Note(ctx context.Context, key string) (string, error) {
	var v string
	err := s.pool.QueryRow(ctx, "SELECT value FROM meta WHERE key = $1", notePrefix+key).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return v, s.translate(err, "read the note "+key)
}

// SetNote keeps value under key ("" deletes it).
func (s *Store) SetNote(ctx context.Context, key, value string) error {
	var err error
	if value == "" {
		_, err = s.pool.Exec(ctx, "DELETE FROM meta WHERE key = $1", notePrefix+key)
	} else {
		_, err = s.pool.Exec(ctx, "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value", notePrefix+key, value)
	}
	return s.translate(err, "write the note "+key)
}
