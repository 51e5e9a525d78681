package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/jobs"
)

var _ jobs.Ledger = (*Store)(nil)

// PutJob writes e, new or the next state of an entry, and keeps only the
// newest keep entries of its kind.
func (s *Store) PutJob(ctx context.Context, e jobs.Entry, keep int) error {
	counts, err := json.Marshal(e.Counts)
	if err != nil {
		return err
	}
	err = s.tx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO jobs (id, kind, project, caller, status, started_at, ended_at, alive_until, owner, counts, cursor, error)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
			ON CONFLICT (id) DO UPDATE SET status = excluded.status, ended_at = excluded.ended_at, alive_until = excluded.alive_until,
				counts = excluded.counts, cursor = excluded.cursor, error = excluded.error`,
			e.ID, string(e.Kind), e.Project, e.Caller, string(e.Status), e.StartedAt.UnixNano(), toNullNanos(e.EndedAt), e.AliveUntil.UnixNano(),
			e.Owner, string(counts), e.Cursor, e.Error)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM jobs WHERE kind = $1 AND seq < (
			SELECT coalesce(min(seq), 0) FROM (SELECT seq FROM jobs WHERE kind = $1 ORDER BY seq DESC LIMIT $2) newest)`, string(e.Kind), keep)
		return err
	})
	return s.translate(err, "record the job")
}

// Jobs returns the entries q selects, newest first.
func (s *Store) Jobs(ctx context.Context, q jobs.Query) ([]jobs.Entry, error) {
	var where []string
	var args []any
	if q.Kind != "" {
		args = append(args, string(q.Kind))
		where = append(where, fmt.Sprintf("kind = $%d", len(args)))
	}
	if q.Projects != nil {
		args = append(args, q.Projects)
		where = append(where, fmt.Sprintf("project = ANY($%d)", len(args)))
	}
	sqlText := "SELECT id, kind, project, caller, status, started_at, ended_at, alive_until, owner, counts, cursor, error FROM jobs"
	if len(where) > 0 {
		sqlText += " WHERE " + strings.Join(where, " AND ")
	}
	args = append(args, q.Limit)
	rows, err := s.pool.Query(ctx, fmt.Sprintf("%s ORDER BY seq DESC LIMIT $%d", sqlText, len(args)), args...)
	if err != nil {
		return nil, s.translate(err, "read the job ledger")
	}
	defer rows.Close()
	out := []jobs.Entry{}
	for rows.Next() {
		var e jobs.Entry
		var kind, status, counts string
		var started, alive int64
		var ended *int64
		if err := rows.Scan(&e.ID, &kind, &e.Project, &e.Caller, &status, &started, &ended, &alive, &e.Owner, &counts, &e.Cursor, &e.Error); err != nil {
			return nil, s.translate(err, "read the job ledger")
		}
		e.Kind, e.Status = jobs.Kind(kind), jobs.Status(status)
		e.StartedAt, e.AliveUntil = fromNanos(started), fromNanos(alive)
		if ended != nil {
			t := fromNanos(*ended)
			e.EndedAt = &t
		}
		json.Unmarshal([]byte(counts), &e.Counts) // written by PutJob: a JSON object
		out = append(out, e)
	}
	return out, s.translate(rows.Err(), "read the job ledger")
}
