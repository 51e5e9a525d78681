package postgres

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme"
)

var _ mneme.CacheStore = (*Store)(nil)

// Generation returns project's write generation (the sum of its shards),
// or the sum over every project for "" (triggers raise them:
// migrations/0006_cache.sql).
func (s *Store) Generation(ctx context.Context, project string) (int64, error) {
	var gen int64
	var err error
	if project == "" {
		err = s.pool.QueryRow(ctx, "SELECT coalesce(sum(gen), 0)::bigint FROM cache_generations").Scan(&gen)
	} else {
		err = s.pool.QueryRow(ctx, "SELECT coalesce(sum(gen), 0)::bigint FROM cache_generations WHERE project = $1", project).Scan(&gen)
	}
	return gen, s.translate(err, "read the cache generation")
}

// CacheGet returns the entry (kind, key) unless it is missing or expired.
func (s *Store) CacheGet(ctx context.Context, kind, key string, now time.Time) (*mneme.CacheEntry, error) {
	e := mneme.CacheEntry{Kind: kind, Key: key}
	var created int64
	var expires *int64
	err := s.pool.QueryRow(ctx, `SELECT payload, payload_sha256, schema_version, created_at, expires_at
		FROM cache_entries WHERE kind = $1 AND key = $2 AND (expires_at IS NULL OR expires_at > $3)`,
		kind, key, now.UnixNano()).Scan(&e.Payload, &e.PayloadHash, &e.SchemaVersion, &created, &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, s.translate(err, "read the cache")
	}
	e.CreatedAt = time.Unix(0, created).UTC()
	if expires != nil {
		t := time.Unix(0, *expires).UTC()
		e.ExpiresAt = &t
	}
	return &e, nil
}

// CachePut keeps e, replacing the entry with its kind and key.
func (s *Store) CachePut(ctx context.Context, e mneme.CacheEntry) error {
	var expires *int64
	if e.ExpiresAt != nil {
		n := e.ExpiresAt.UnixNano()
		expires = &n
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO cache_entries
		(kind, key, payload, payload_sha256, schema_version, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (kind, key) DO UPDATE SET payload = excluded.payload, payload_sha256 = excluded.payload_sha256,
		schema_version = excluded.schema_version, created_at = excluded.created_at, expires_at = excluded.expires_at`,
		e.Kind, e.Key, e.Payload, e.PayloadHash, e.SchemaVersion, e.CreatedAt.UnixNano(), expires)
	return s.translate(err, "write the cache")
}

// cacheWhere is the condition selecting sel's entries at now.
func cacheWhere(sel mneme.CacheSelection, now time.Time) (string, []any) {
	where, args := "true", []any{}
	if sel.Kind != "" {
		args = append(args, sel.Kind)
		where += " AND kind = $1"
	}
	if sel.Expired {
		args = append(args, now.UnixNano())
		where += " AND expires_at IS NOT NULL AND expires_at <= $" + strconv.Itoa(len(args))
	}
	if sel.Key != "" {
		args = append(args, sel.Key)
		where += " AND key = $" + strconv.Itoa(len(args))
	}
	return where, args
}

// CachePrune deletes, or counts when dryRun, the entries sel selects.
func (s *Store) CachePrune(ctx context.Context, sel mneme.CacheSelection, now time.Time, dryRun bool) (int, error) {
	if err := sel.Check(); err != nil {
		return 0, err
	}
	where, args := cacheWhere(sel, now)
	if dryRun {
		var n int
		err := s.pool.QueryRow(ctx, "SELECT count(*) FROM cache_entries WHERE "+where, args...).Scan(&n)
		return n, s.translate(err, "count cache entries")
	}
	tag, err := s.pool.Exec(ctx, "DELETE FROM cache_entries WHERE "+where, args...)
	return int(tag.RowsAffected()), s.translate(err, "prune the cache")
}

// CacheStats counts the entries by kind.
func (s *Store) CacheStats(ctx context.Context, now time.Time) ([]mneme.CacheKindStats, error) {
	rows, err := s.pool.Query(ctx, `SELECT kind, count(*)::bigint,
		count(*) FILTER (WHERE expires_at IS NOT NULL AND expires_at <= $1)::bigint, coalesce(sum(length(payload)), 0)::bigint
		FROM cache_entries GROUP BY kind ORDER BY kind`, now.UnixNano())
	if err != nil {
		return nil, s.translate(err, "count cache entries")
	}
	defer rows.Close()
	var out []mneme.CacheKindStats
	for rows.Next() {
		var st mneme.CacheKindStats
		var n, x int64
		if err := rows.Scan(&st.Kind, &n, &x, &st.Bytes); err != nil {
			return nil, s.translate(err, "count cache entries")
		}
		st.Entries, st.Expired = int(n), int(x)
		out = append(out, st)
	}
	return out, s.translate(rows.Err(), "count cache entries")
}

// CacheSchema reports a missing cache table or index (doctor).
func (s *Store) CacheSchema(ctx context.Context) error {
	var n int
	err := s.pool.QueryRow(ctx, `SELECT count(*) FROM pg_class WHERE relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
		AND relname IN ('cache_entries', 'cache_entries_pkey', 'cache_entries_expires', 'cache_generations', 'cache_generations_pkey')`).Scan(&n)
	if err == nil && n != 5 {
		return mneme.Errorf(mneme.EINTERNAL, "%d of the cache's 5 tables and indexes are missing", 5-n)
	}
	return s.translate(err, "check the cache's schema")
}
