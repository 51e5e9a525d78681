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
	// One index-driven probe per target (LATERAL … LIMIT), newest linker
	// first along record_links' primary key: never a scan of records.
	rows, err := s.pool.Query(ctx, `SELECT x.target, x.rel, `+columns+`
		FROM unnest(`+ts+`::text[]) AS tg(id) JOIN records t ON t.id = tg.id
		CROSS JOIN LATERAL (SELECT l.target, l.rel, l.source FROM record_links l JOIN records r ON r.rid = l.source
			WHERE l.target = tg.id AND r.project = t.project AND `+cond+`
			ORDER BY l.source DESC LIMIT `+lim+`) x
		JOIN records r ON r.rid = x.source`, a...)
	if err != nil {
		return nil, s.translate(err, "read incoming links")
	}
	defer rows.Close()
	var out []mneme.Incoming
	for rows.Next() {
		var in mneme.Incoming
		if in.Record, err = scanRecord(rows, &in.Target, &in.Rel); err != nil {
			return nil, s.translate(err, "read incoming links")
		}
		out = append(out, in)
	}
	return out, s.translate(rows.Err(), "read incoming links")
}
