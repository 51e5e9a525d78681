package sqlite

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme"
)

// timelineRow is a timeline row but its text as one value, its columns
// joined by U+001F, which neither ids (mneme.Validate refuses control
// characters) nor the meta's JSON hold. Migration 0011 indexes this exact
// expression: a session's timeline is read from that index alone, and the
// driver, whose cost in a 10,000-row read is per column, reads one column
// a row (TestTimelineCoveringIndex fails if the two differ).
const timelineRow = "(r.id || char(31) || r.project || char(31) || r.kind || char(31) || r.session_id || char(31) || r.run_id || " +
	"char(31) || (r.status = 'superseded') || char(31) || r.event_at || char(31) || coalesce(r.meta, ''))"

// Timeline reads the packed rows (timelineRow) of the limit rows last
// written (see mneme.TimelineStore), and the text of textKinds' rows only:
// a table seek for those rows alone.
func (s *Store) Timeline(ctx context.Context, f mneme.Filter, textKinds []string, limit int) ([]mneme.TimelineRow, error) {
	out, err := s.timeline(ctx, timelineRow, f, textKinds, limit)
	if err == errUnpacked {
		// A row written before ids were checked for control characters:
		// read every column on its own.
		return s.timeline(ctx, timelineColumns, f, textKinds, limit)
	}
	return out, err
}

// timelineColumns is timelineRow as columns, for the rows it cannot hold.
const timelineColumns = "r.id, r.project, r.kind, r.session_id, r.run_id, (r.status = 'superseded'), r.event_at, coalesce(r.meta, '')"

var errUnpacked = errors.New("a timeline row does not unpack")

// timeline reads rows as cols (timelineRow or timelineColumns) give them.
func (s *Store) timeline(ctx context.Context, cols string, f mneme.Filter, textKinds []string, limit int) ([]mneme.TimelineRow, error) {
	q, args := timelineQuery(cols, f, textKinds, limit)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, translate(err, "read timeline")
	}
	defer rows.Close()
	out := make([]mneme.TimelineRow, 0, min(limit, 1024))
	// Scanned into the same variables every row: nothing escapes per row.
	var packed, text string
	var col mneme.TimelineRow
	var at int64
	dest := []any{&packed, &text}
	if cols == timelineColumns {
		dest = []any{&col.ID, &col.Project, &col.Kind, &col.SessionID, &col.RunID, &col.Superseded, &at, &col.Meta, &text}
	}
	dest = dest[:len(dest)-1+min(len(textKinds), 1)]
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, translate(err, "read timeline")
		}
		r := col
		if cols == timelineColumns {
			r.At = fromNanos(at)
		} else if !unpackRow(packed, &r) {
			return nil, errUnpacked
		}
		r.Text = text
		if len(out) == cap(out) {
			// Doubled: append grows a large slice by a quarter, copying
			// a 10,000-row read four times over.
			out = slices.Grow(out, cap(out))
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err, "read timeline")
	}
	return out, nil
}

// timelineQuery selects cols and the text of textKinds' rows.
func timelineQuery(cols string, f mneme.Filter, textKinds []string, limit int) (string, []any) {
	args := []any{}
	if len(textKinds) > 0 {
		cols += ", CASE WHEN r.kind IN (" + marks(len(textKinds)) + ") THEN r.text ELSE '' END"
		args = anys(textKinds)
	}
	cond, wargs := where(f)
	// Newest written first, as List pages: the index gives that order
	// without a sort (the Engine orders the rows by time).
	q := "SELECT " + cols + " FROM records r WHERE " + cond + " ORDER BY r.id DESC LIMIT ?"
	return q, append(append(args, wargs...), limit)
}

// unpackRow splits a timelineRow value into r (its text aside); false
// when it does not have that shape.
func unpackRow(s string, r *mneme.TimelineRow) bool {
	var f [7]string
	for i := range f {
		j := strings.IndexByte(s, 0x1f)
		if j < 0 {
			return false
		}
		f[i], s = s[:j], s[j+1:]
	}
	at, err := strconv.ParseInt(f[6], 10, 64)
	r.ID, r.Project, r.Kind, r.SessionID, r.RunID = f[0], f[1], f[2], f[3], f[4]
	r.Superseded, r.At, r.Meta = f[5] == "1", fromNanos(at), s
	// A separator left in the meta (JSON holds none) means an id held one.
	return err == nil && (f[5] == "0" || f[5] == "1") && strings.IndexByte(s, 0x1f) < 0
}
