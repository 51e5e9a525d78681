package sqlite

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// IncomingLinks returns the records linking to targets (the
// mneme.LinkIndex role), read from record_links (migrations/0010): up to
// per for each target, newest first, in the target's project and passing
// f's visibility conditions.
func (s *Store) IncomingLinks(ctx context.Context, targets []string, f mneme.Filter, per int) ([]mneme.Incoming, error) {
	var out []mneme.Incoming
	vis := mneme.Filter{Project: f.Project, Clearance: f.Clearance, Now: f.Now,
		IncludeExpired: f.IncludeExpired, IncludeSuperseded: f.IncludeSuperseded}
	cond, cargs := where(vis)
	for len(targets) > 0 && per > 0 {
		n := min(len(targets), 500)
		args := append(anys(targets[:n]), cargs...)
		args = append(args, per)
		rows, err := s.db.QueryContext(ctx, `SELECT * FROM (SELECT row_number() OVER (PARTITION BY l.target ORDER BY r.seq DESC) AS n,
			l.target, l.rel, `+columns+`
			FROM record_links l CROSS JOIN records r CROSS JOIN records t
			WHERE l.target IN (`+marks(n)+`) AND r.seq = l.source AND t.id = l.target AND r.project = t.project AND `+cond+`)
			WHERE n <= ?`, args...) // CROSS JOIN: SQLite keeps this order (from the targets), never a scan of records
		if err != nil {
			return nil, translate(err, "read incoming links")
		}
		out, err = collectIncoming(rows, out)
		if err != nil {
			return nil, translate(err, "read incoming links")
		}
		targets = targets[n:]
	}
	return out, nil
}

func collectIncoming(rows interface {
	scanner
	Next() bool
	Err() error
	Close() error
}, out []mneme.Incoming) ([]mneme.Incoming, error) {
	defer rows.Close()
	for rows.Next() {
		var n int
		var in mneme.Incoming
		r, err := scanRecord(prefixed{rows, []any{&n, &in.Target, &in.Rel}})
		if err != nil {
			return nil, err
		}
		in.Record = r
		out = append(out, in)
	}
	return out, rows.Err()
}

// prefixed scans the columns before a record's into extra.
type prefixed struct {
	row   scanner
	extra []any
}

func (p prefixed) Scan(dest ...any) error {
	return p.row.Scan(append(append([]any{}, p.extra...), dest...)...)
}
