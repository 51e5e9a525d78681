package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/mneme-ai/mneme"
)

var _ mneme.CacheStore = (*Store)(nil)

// Generation returns project's write generation, or the sum over every
// project for "" (triggers raise them: migrations/0005_cache.sql).
func (s *Store) Generation(ctx context.Context, project string) (int64, error) {
	var gen int64
	var err error
	if project == "" {
		err = s.db.QueryRowContext(ctx, "SELECT coalesce(sum(gen), 0) FROM cache_generations").Scan(&gen)
	} else {
		err = s.db.QueryRowContext(ctx, "SELECT coalesce(max(gen), 0) FROM cache_generations WHERE project = ?", project).Scan(&gen)
	}
	return gen, translate(err, "read the cache generation")
}

// CacheGet returns the entry (kind, key) unless it is missing or expired.
func (s *Store) CacheGet(ctx context.Context, kind, key string, now time.Time) (*mneme.CacheEntry, error) {
	e := mneme.CacheEntry{Kind: kind, Key: key}
	var created int64
	var expires sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT payload, payload_sha256, schema_version, created_at, expires_at
		FROM cache_entries WHERE kind = ? AND key = ? AND (expires_at IS NULL OR expires_at > ?)`,
		kind, key, now.UnixNano()).Scan(&e.Payload, &e.PayloadHash, &e.SchemaVersion, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, translate(err, "read the cache")
	}
	e.CreatedAt = time.Unix(0, created).UTC()
	if expires.Valid {
		t := time.Unix(0, expires.Int64).UTC()
		e.ExpiresAt = &t
	}
	return &e, nil
}

// CachePut keeps e, replacing the entry with its kind and key.
func (s *Store) CachePut(ctx context.Context, e mneme.CacheEntry) error {
	var expires any
	if e.ExpiresAt != nil {
		expires = e.ExpiresAt.UnixNano()
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO cache_entries
			(kind, key, payload, payload_sha256, schema_version, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			e.Kind, e.Key, e.Payload, e.PayloadHash, e.SchemaVersion, e.CreatedAt.UnixNano(), expires)
		return err
	})
	return translate(err, "write the cache")
}

// cacheWhere is the condition selecting sel's entries at now.
func cacheWhere(sel mneme.CacheSelection, now time.Time) (string, []any) {
	where, args := "1 = 1", []any{}
	if sel.Kind != "" {
		where, args = where+" AND kind = ?", append(args, sel.Kind)
	}
	if sel.Expired {
		where, args = where+" AND expires_at IS NOT NULL AND expires_at <= ?", append(args, now.UnixNano())
	}
	if sel.Key != "" {
		where, args = where+" AND key = ?", append(args, sel.Key)
	}
	return where, args
}

// CachePrune deletes, or counts when dryRun, the entries sel selects.
func (s *Store) CachePrune(ctx context.Context, sel mneme.CacheSelection, now time.Time, dryRun bool) (int, error) {
	if err := sel.Check(); err != nil {
		return 0, err
	}
	where, args := cacheWhere(sel, now)
	var n int64
	if dryRun {
		err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM cache_entries WHERE "+where, args...).Scan(&n)
		return int(n), translate(err, "count cache entries")
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM cache_entries WHERE "+where, args...)
		if err == nil {
			n, err = res.RowsAffected()
		}
		return err
	})
	return int(n), translate(err, "prune the cache")
}

// CacheStats counts the entries by kind.
func (s *Store) CacheStats(ctx context.Context, now time.Time) ([]mneme.CacheKindStats, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT kind, count(*),
		coalesce(sum(expires_at IS NOT NULL AND expires_at <= ?), 0), coalesce(sum(length(payload)), 0)
		FROM cache_entries GROUP BY kind ORDER BY kind`, now.UnixNano())
	if err != nil {
		return nil, translate(err, "count cache entries")
	}
	defer rows.Close()
	var out []mneme.CacheKindStats
	for rows.Next() {
		var st mneme.CacheKindStats
		if err := rows.Scan(&st.Kind, &st.Entries, &st.Expired, &st.Bytes); err != nil {
			return nil, translate(err, "count cache entries")
		}
		out = append(out, st)
	}
	return out, translate(rows.Err(), "count cache entries")
}

// CacheSchema reports a missing cache table or index (doctor).
func (s *Store) CacheSchema(ctx context.Context) error {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name IN
		('cache_entries', 'cache_entries_expires', 'cache_generations', 'cache_gen_records_insert', 'vectors_changed_insert')`).Scan(&n)
	if err == nil && n != 5 {
		return mneme.Errorf(mneme.EINTERNAL, "%d of the cache's 5 tables, indexes and triggers checked are missing", 5-n)
	}
	return translate(err, "check the cache's schema")
}
