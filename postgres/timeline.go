package postgres

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// Timeline reads only the columns a timeline shows, of the limit rows
// last written (see mneme.TimelineStore).
func (s *Store) Timeline(ctx context.Context, f mneme.Filter, textKinds []string, limit int) ([]mneme.TimelineRow, error) {
	var a args
	text := "''"
	if len(textKinds) > 0 {
		text = "CASE WHEN r.kind = ANY(" + a.add(textKinds) + "::text[]) THEN r.text ELSE '' END"
	}
	cond := where(f, &a)
	// Newest written first, as List pages: an index gives that order
	// without a sort (the Engine orders the rows by time).
	q := "SELECT r.id, r.project, r.kind, r.session_id, r.run_id, r.status, r.event_at, " + text + ", r.meta FROM records r WHERE " +
		cond + " ORDER BY r.id DESC LIMIT " + a.add(limit)
	rows, err := s.pool.Query(ctx, q, a...)
	if err != nil {
		return nil, s.translate(err, "read timeline")
	}
	defer rows.Close()
	var out []mneme.TimelineRow
	for rows.Next() {
		var r mneme.TimelineRow
		var status string
		var at int64
		var meta *string
		if err := rows.Scan(&r.ID, &r.Project, &r.Kind, &r.SessionID, &r.RunID, &status, &at, &r.Text, &meta); err != nil {
			return nil, s.translate(err, "read timeline")
		}
		r.Superseded, r.At = status == string(mneme.Superseded), fromNanos(at)
		if meta != nil {
			r.Meta = *meta
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.translate(err, "read timeline")
	}
	return out, nil
}
