package sqlite

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// Timeline reads only the columns a timeline shows, of the limit rows
// last written (see mneme.TimelineStore). A 10,000-row read is mostly the
// driver's work per column, so a column the filter fixes (project,
// session) is not read, the status comes as a number, and the meta is
// kept as the string the driver made (no copy).
func (s *Store) Timeline(ctx context.Context, f mneme.Filter, textKinds []string, limit int) ([]mneme.TimelineRow, error) {
	text, args := "''", []any{}
	if len(textKinds) > 0 {
		text, args = "CASE WHEN r.kind IN ("+marks(len(textKinds))+") THEN r.text ELSE '' END", anys(textKinds)
	}
	project, session := "r.project", "r.session_id"
	if f.Project != "" {
		project = "''"
	}
	if f.SessionID != "" {
		session = "''"
	}
	cond, wargs := where(f)
	// Newest written first, as List pages: an index gives that order
	// without a sort (the Engine orders the rows by time).
	q := "SELECT r.id, " + project + ", r.kind, " + session + ", r.run_id, r.status = 'superseded', r.event_at, " + text +
		", coalesce(r.meta, '') FROM records r WHERE " + cond + " ORDER BY r.id DESC LIMIT ?"
	rows, err := s.db.QueryContext(ctx, q, append(append(args, wargs...), limit)...)
	if err != nil {
		return nil, translate(err, "read timeline")
	}
	defer rows.Close()
	out := make([]mneme.TimelineRow, 0, min(limit, 1024))
	var at int64
	for rows.Next() {
		var r mneme.TimelineRow
		if err := rows.Scan(&r.ID, &r.Project, &r.Kind, &r.SessionID, &r.RunID, &r.Superseded, &at, &r.Text, &r.Meta); err != nil {
			return nil, translate(err, "read timeline")
		}
		r.At = fromNanos(at)
		if f.Project != "" {
			r.Project = f.Project
		}
		if f.SessionID != "" {
			r.SessionID = f.SessionID
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err, "read timeline")
	}
	return out, nil
}
