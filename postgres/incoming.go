package postgres

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// IncomingLinks returns the records linking to targets (the
// mneme.LinkIndex role), read from record_links (migrations/0011): up to
// per for each target, newest first, in the target's project and passing
// f's visibility conditions.
func (s *Store) IncomingLinks(ctx context.Context, targets []string, f mneme.Filter, per int) ([]mneme.Incoming, error) {
	if len(targets) == 0 || per <= 0 {
		return nil, nil
	}
	vis := mneme.Filter{Project: f.Project, Clearance: f.Clearance, Now: f.Now,
		IncludeExpired: f.IncludeExpired, IncludeSuperseded: f.IncludeSuperseded}
	var a args
	ts := a.add(targets)
	cond := where(vis, &a)
	lim := a.add(per)
	rows, err := s.pool.Query(ctx, `SELECT * FROM (SELECT row_number() OVER (PARTITION BY l.target ORDER BY r.rid DESC) AS n,
		l.target, l.rel, `+columns+`
		FROM record_links l JOIN records r ON r.rid = l.source JOIN records t ON t.id = l.target
		WHERE l.target = ANY(`+ts+`) AND r.project = t.project AND `+cond+`) x WHERE n <= `+lim, a...)
	if err != nil {
		return nil, s.translate(err, "read incoming links")
	}
	defer rows.Close()
	var out []mneme.Incoming
	for rows.Next() {
		var n int64
		var in mneme.Incoming
		if in.Record, err = scanRecord(rows, &n, &in.Target, &in.Rel); err != nil {
			return nil, s.translate(err, "read incoming links")
		}
		out = append(out, in)
	}
	return out, s.translate(rows.Err(), "read incoming links")
}
