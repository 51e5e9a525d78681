package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// BulkLoad runs fn, a large import (mneme migrate-store), with the search
// indexes set aside, and builds them once at the end: maintaining the
// postings' indexes and the HNSW graph batch by batch costs many times
// more. Meanwhile this store writes records without their postings; at the
// end every record's postings are computed again, in one transaction
// (other writers wait for it, readers do not), while the HNSW index is
// built beside it. Search works throughout, more slowly, and finds the new
// records by their words only at the end. The indexes are built even when
// fn fails; an interruption leaves a mark that `mneme doctor` reports
// until a bulk load finishes.
func (s *Store) BulkLoad(ctx context.Context, fn func() error) error {
	if _, err := s.pool.Exec(ctx, "INSERT INTO meta (key, value) VALUES ('bulk_load', $1) ON CONFLICT (key) DO NOTHING",
		time.Now().UTC().Format(time.RFC3339)); err != nil {
		return s.translate(err, "start a bulk load")
	}
	if err := s.dropVectorIndex(ctx); err != nil {
		return err
	}
	s.bulk.Store(true)
	ferr := fn()
	s.bulk.Store(false)
	vec := make(chan error, 1)
	go func() { vec <- s.buildVectorIndex(ctx) }()
	err := errors.Join(s.rebuildPostings(ctx), <-vec)
	if err == nil {
		_, err = s.pool.Exec(ctx, "DELETE FROM meta WHERE key = 'bulk_load'")
		err = s.translate(err, "finish a bulk load")
	}
	if ferr != nil {
		return ferr
	}
	return err
}

// rebuildBatch is how many records' postings one statement of the rebuild
// writes.
const rebuildBatch = 5000

// rebuildPostings computes the postings of every record again, with the
// term indexes and the counting triggers set aside, then counts and
// indexes them once.
func (s *Store) rebuildPostings(ctx context.Context) error {
	// Dropped first, in a moment of their own: inside the rebuild, the lock
	// would keep readers waiting to its end.
	if _, err := s.pool.Exec(ctx, "ALTER TABLE postings DROP CONSTRAINT IF EXISTS postings_pkey; DROP INDEX IF EXISTS postings_impact"); err != nil {
		return s.translate(err, "drop the postings' indexes")
	}
	err := s.tx(ctx, func(tx pgx.Tx) error {
		for _, q := range []string{"LOCK TABLE postings IN EXCLUSIVE MODE", "SET LOCAL mneme.bulk = 'on'", "SET LOCAL maintenance_work_mem = '512MB'",
			"DELETE FROM postings"} {
			if _, err := tx.Exec(ctx, q); err != nil {
				return err
			}
		}
		rows, err := tx.Query(ctx, "SELECT rid FROM records ORDER BY rid")
		if err != nil {
			return err
		}
		rids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return err
		}
		w := s.newWriter(ctx, tx, s.now())
		for start := 0; start < len(rids); start += rebuildBatch {
			if err := w.writePostings(rids[start:min(start+rebuildBatch, len(rids))], false); err != nil {
				return err
			}
		}
		// Built beside readers (an index build blocks writers only), then
		// made the primary key in a moment.
		for _, q := range []string{recountSQL, "CREATE UNIQUE INDEX postings_pkey ON postings (term, rid) INCLUDE (tf, dl)",
			impactIndexSQL, "ALTER TABLE postings ADD CONSTRAINT postings_pkey PRIMARY KEY USING INDEX postings_pkey"} {
			if _, err := tx.Exec(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	return s.translate(err, "rebuild the postings")
}

// recountSQL counts what the postings triggers keep, from the postings.
const recountSQL = `DELETE FROM lex_df;
INSERT INTO lex_df (term, shard, df, maxtf, mindl) SELECT term, 0, count(*), max(tf), min(dl) FROM postings GROUP BY term;
UPDATE lex_stats SET total = CASE shard WHEN 0 THEN (SELECT coalesce(sum(tf), 0) FROM postings) ELSE 0 END`

// impactIndexSQL is postings_impact, as migration 0005 creates it.
const impactIndexSQL = "CREATE INDEX postings_impact ON postings (term, (" + impactSQL + ") DESC) INCLUDE (rid, tf, dl)"
