package postgres

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme"
)

// args numbers query parameters as conditions are added.
type args []any

func (a *args) add(v any) string {
	*a = append(*a, v)
	return fmt.Sprintf("$%d", len(*a))
}

// where renders f as SQL conditions on the records alias r.
func where(f mneme.Filter, a *args) string {
	var conds []string
	add := func(cond string) { conds = append(conds, cond) }
	if f.Project != "" {
		add("r.project = " + a.add(f.Project))
	}
	if len(f.Types) > 0 {
		types := make([]string, len(f.Types))
		for i, t := range f.Types {
			types[i] = string(t)
		}
		add("r.type = ANY(" + a.add(types) + "::text[])")
	}
	if len(f.Kinds) > 0 {
		add("r.kind = ANY(" + a.add(f.Kinds) + "::text[])")
	}
	if f.Key != "" {
		add("r.key = " + a.add(f.Key))
	}
	if f.SessionID != "" {
		add("r.session_id = " + a.add(f.SessionID) + " AND r.session_id != ''") // != '': the partial index's condition
	}
	if f.RunID != "" {
		add("r.run_id = " + a.add(f.RunID) + " AND r.run_id != ''")
	}
	if len(f.Statuses) > 0 {
		statuses := make([]string, len(f.Statuses))
		for i, st := range f.Statuses {
			statuses[i] = string(st)
		}
		add("r.status = ANY(" + a.add(statuses) + "::text[])")
	}
	if f.ContentHash != "" {
		add("r.content_hash = " + a.add(f.ContentHash))
	}
	if f.Derived { // links are stored as JSON (see values)
		add("r.links LIKE " + a.add(mneme.DerivedLinkPattern))
	}
	if f.Since != nil {
		add("r.event_at >= " + a.add(f.Since.UnixNano()))
	}
	if f.Until != nil {
		add("r.event_at <= " + a.add(f.Until.UnixNano()))
	}
	if f.Before != nil {
		add("r.created_at < " + a.add(f.Before.UnixNano()))
	}
	if !f.IncludeSuperseded {
		add("r.status != 'superseded'")
	}
	if !f.IncludeExpired {
		add("(r.expires_at IS NULL OR r.expires_at > " + a.add(f.Now.UnixNano()) + ")")
	}
	if f.Expired {
		add("r.expires_at <= " + a.add(f.Now.UnixNano()))
	}
	if f.Clearance != mneme.Secret {
		add("r.sensitivity != 'secret'")
	}
	if len(f.Tags) > 0 {
		op := "&&"
		if f.AllTags {
			op = "@>"
		}
		add("r.tags " + op + " " + a.add(f.Tags) + "::text[]")
	}
	for _, m := range f.Meta {
		add(metaCondition(m, a))
	}
	if len(conds) == 0 {
		return "true"
	}
	return strings.Join(conds, " AND ")
}

// List returns a page of records passing f, newest id first.
func (s *Store) List(ctx context.Context, f mneme.Filter, limit int, cursor string) ([]*mneme.Record, string, error) {
	var a args
	cond := where(f, &a)
	if cursor != "" {
		after, err := base64.RawURLEncoding.DecodeString(cursor)
		if err != nil || !mneme.ValidID(string(after)) {
			return nil, "", mneme.Invalid("cursor %q is not one this store gave out: pass next_cursor from the previous page unchanged", cursor)
		}
		cond += " AND r.id < " + a.add(string(after))
	}
	rows, err := s.pool.Query(ctx, "SELECT "+columns+" FROM records r WHERE "+cond+" ORDER BY r.id DESC LIMIT "+a.add(limit+1), a...)
	if err != nil {
		return nil, "", s.translate(err, "list records")
	}
	recs, err := collect(rows)
	if err != nil {
		return nil, "", s.translate(err, "list records")
	}
	next := ""
	if len(recs) > limit {
		recs = recs[:limit]
		next = base64.RawURLEncoding.EncodeToString([]byte(recs[limit-1].ID))
	}
	return recs, next, nil
}

// Delete removes the records with the given ids, all or none.
func (s *Store) Delete(ctx context.Context, ids []string) (int, error) {
	n := 0
	err := s.tx(ctx, func(tx pgx.Tx) error {
		w := s.newWriter(ctx, tx, time.Time{})
		n = 0
		for _, id := range ids {
			r, rid, err := w.one("r.id = $1 FOR UPDATE", id)
			if err != nil {
				return err
			}
			if r == nil {
				return mneme.Errorf(mneme.ENOTFOUND, "no record with id %s; nothing was forgotten", id)
			}
			if err := w.delete(r, rid); err != nil {
				return err
			}
			n++
		}
		return w.finish()
	})
	return n, s.translate(err, "delete records")
}

// delete removes one record, its postings and (by cascade) its vector, and
// marks its neighbours, whose context it was, for re-indexing.
func (w *writer) delete(r *mneme.Record, rid int64) error {
	if err := w.touchNeighboursOf(r, rid); err != nil {
		return err
	}
	delete(w.touched, rid)
	if _, err := w.tx.Exec(w.ctx, "DELETE FROM postings WHERE rid = $1", rid); err != nil {
		return err
	}
	_, err := w.tx.Exec(w.ctx, "DELETE FROM records WHERE rid = $1", rid)
	return err
}

// Stats counts the stored records by project and type.
func (s *Store) Stats(ctx context.Context, now time.Time) (mneme.Stats, error) {
	st := mneme.Stats{Projects: []mneme.ProjectStats{}}
	so := &mneme.Stats{Projects: []mneme.ProjectStats{}}
	err := s.pool.QueryRow(ctx, `SELECT count(*),
		count(*) FILTER (WHERE status = 'superseded'), count(*) FILTER (WHERE expires_at <= $1),
		count(*) FILTER (WHERE sensitivity = 'secret'),
		count(*) FILTER (WHERE sensitivity = 'secret' AND status = 'superseded'),
		count(*) FILTER (WHERE sensitivity = 'secret' AND expires_at <= $1),
		(SELECT count(*) FROM documents),
		(SELECT count(*) FROM documents d WHERE
			EXISTS (SELECT 1 FROM records c WHERE c.source_parent = d.id AND c.sensitivity = 'secret') AND
			NOT EXISTS (SELECT 1 FROM records c WHERE c.source_parent = d.id AND c.sensitivity != 'secret'))
		FROM records`, now.UnixNano()).
		Scan(&st.Total, &st.Superseded, &st.Expired, &st.Secret, &so.Superseded, &so.Expired, &st.Documents, &so.Documents)
	if err != nil {
		return st, s.translate(err, "count records")
	}
	so.Total, so.Secret = st.Secret, st.Secret
	st.SecretOnly = so
	rows, err := s.pool.Query(ctx, `SELECT project, type, count(*), count(*) FILTER (WHERE sensitivity = 'secret')
		FROM records GROUP BY project, type ORDER BY project, type`)
	if err != nil {
		return st, s.translate(err, "count records")
	}
	defer rows.Close()
	for rows.Next() {
		var project, typ string
		var n, secret int
		if err := rows.Scan(&project, &typ, &n, &secret); err != nil {
			return st, s.translate(err, "count records")
		}
		st.AddCount(project, typ, n)
		so.AddCount(project, typ, secret)
	}
	return st, s.translate(rows.Err(), "count records")
}

// Neighbours returns the chunks beside r in its document, else the records
// around it in its session, up to n on each side, nearest first.
func (s *Store) Neighbours(ctx context.Context, r *mneme.Record, n int) (before, after []*mneme.Record, err error) {
	var cond, order string
	var base []any
	switch {
	case r.Source != nil && r.Source.Parent != "":
		cond, order = "r.source_parent = $1 AND r.source_chunk %s $2", "r.source_chunk %s"
		base = []any{r.Source.Parent, r.Source.Chunk}
	case r.SessionID != "":
		ev := r.EventTime().UnixNano()
		cond = "r.project = $1 AND r.session_id = $2 AND r.session_id != '' AND (r.event_at, r.rid) %[1]s ($3, (SELECT rid FROM records WHERE id = $4))"
		order, base = "r.event_at %[1]s, r.rid %[1]s", []any{r.Project, r.SessionID, ev, r.ID}
	default:
		return nil, nil, nil
	}
	side := func(cmp, dir string) ([]*mneme.Record, error) {
		q := "SELECT " + columns + " FROM records r WHERE " + fmt.Sprintf(cond, cmp) +
			" ORDER BY " + fmt.Sprintf(order, dir) + fmt.Sprintf(" LIMIT %d", n)
		rows, err := s.pool.Query(ctx, q, base...)
		if err != nil {
			return nil, err
		}
		return collect(rows)
	}
	if before, err = side("<", "DESC"); err == nil {
		after, err = side(">", "ASC")
	}
	if errors.Is(err, pgx.ErrNoRows) {
		err = nil
	}
	return before, after, s.translate(err, "read neighbouring records")
}
