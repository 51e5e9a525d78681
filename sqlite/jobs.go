package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"time"

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
	err = s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO jobs (id, kind, project, caller, status, started_at, ended_at, alive_until, owner, counts, cursor, error)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET status = excluded.status, ended_at = excluded.ended_at, alive_until = excluded.alive_until,
				counts = excluded.counts, cursor = excluded.cursor, error = excluded.error`,
			e.ID, string(e.Kind), e.Project, e.Caller, string(e.Status), e.StartedAt.UnixNano(), toNullNanos(e.EndedAt), e.AliveUntil.UnixNano(),
			e.Owner, string(counts), e.Cursor, e.Error)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM jobs WHERE kind = ? AND seq < (
			SELECT coalesce(min(seq), 0) FROM (SELECT seq FROM jobs WHERE kind = ? ORDER BY seq DESC LIMIT ?))`, string(e.Kind), string(e.Kind), keep)
		return err
	})
	return translate(err, "record the job")
}

// Jobs returns the entries q selects, newest first.
func (s *Store) Jobs(ctx context.Context, q jobs.Query) ([]jobs.Entry, error) {
	var where []string
	var args []any
	if q.Kind != "" {
		where, args = append(where, "kind = ?"), append(args, string(q.Kind))
	}
	if q.Projects != nil {
		where = append(where, "project IN ("+strings.TrimSuffix(strings.Repeat("?, ", len(q.Projects)), ", ")+")")
		for _, p := range q.Projects {
			args = append(args, p)
		}
		if len(q.Projects) == 0 {
			where[len(where)-1] = "0"
		}
	}
	sqlText := "SELECT id, kind, project, caller, status, started_at, ended_at, alive_until, owner, counts, cursor, error FROM jobs"
	if len(where) > 0 {
		sqlText += " WHERE " + strings.Join(where, " AND ")
	}
	rows, err := s.db.QueryContext(ctx, sqlText+" ORDER BY seq DESC LIMIT ?", append(args, q.Limit)...)
	if err != nil {
		return nil, translate(err, "read the job ledger")
	}
	defer rows.Close()
	out := []jobs.Entry{}
	for rows.Next() {
		var e jobs.Entry
		var started, alive int64
		var ended sql.NullInt64
		var counts string
		if err := rows.Scan(&e.ID, &e.Kind, &e.Project, &e.Caller, &e.Status, &started, &ended, &alive, &e.Owner, &counts, &e.Cursor, &e.Error); err != nil {
			return nil, translate(err, "read the job ledger")
		}
		e.StartedAt, e.AliveUntil = time.Unix(0, started).UTC(), time.Unix(0, alive).UTC()
		if ended.Valid {
			t := time.Unix(0, ended.Int64).UTC()
			e.EndedAt = &t
		}
		json.Unmarshal([]byte(counts), &e.Counts) // written by PutJob: a JSON object
		out = append(out, e)
	}
	return out, translate(rows.Err(), "read the job ledger")
}
