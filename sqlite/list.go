package sqlite

import (
	"context"
	"database/sql"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// where renders f as SQL conditions on the records alias r.
func where(f mneme.Filter) (string, []any) {
	var conds []string
	var args []any
	add := func(cond string, a ...any) { conds = append(conds, cond); args = append(args, a...) }
	switch {
	case f.Project != "" && (f.SessionID != "" || f.RunID != ""):
		// A session or a run is a few rows of a project: the unary +
		// keeps SQLite from walking the whole project in id order.
		add("+r.project = ?", f.Project)
	case f.Project != "":
		add("r.project = ?", f.Project)
	}
	if len(f.Types) > 0 {
		add("r.type IN ("+marks(len(f.Types))+")", anys(f.Types)...)
	}
	if len(f.Kinds) > 0 {
		add("r.kind IN ("+marks(len(f.Kinds))+")", anys(f.Kinds)...)
	}
	if f.Key != "" {
		add("r.key = ?", f.Key)
	}
	if f.SessionID != "" {
		add("r.session_id = ? AND r.session_id != ''", f.SessionID) // != '': the partial index's condition
	}
	if f.RunID != "" {
		add("r.run_id = ? AND r.run_id != ''", f.RunID)
	}
	if len(f.Statuses) > 0 {
		add("r.status IN ("+marks(len(f.Statuses))+")", anys(f.Statuses)...)
	}
	if f.ContentHash != "" {
		add("r.content_hash = ?", f.ContentHash)
	}
	if f.Derived { // links are stored as JSON (see values)
		add("r.links LIKE ?", mneme.DerivedLinkPattern)
	}
	if f.Since != nil {
		add("r.event_at >= ?", f.Since.UnixNano())
	}
	if f.Until != nil {
		add("r.event_at <= ?", f.Until.UnixNano())
	}
	if f.Before != nil {
		add("r.created_at < ?", f.Before.UnixNano())
	}
	if !f.IncludeSuperseded {
		add("r.status != 'superseded'")
	}
	if !f.IncludeExpired {
		add("(r.expires_at IS NULL OR r.expires_at > ?)", f.Now.UnixNano())
	}
	if f.Expired {
		add("r.expires_at <= ?", f.Now.UnixNano())
	}
	if f.Clearance != mneme.Secret {
		add("r.sensitivity != 'secret'")
	}
	if len(f.Tags) > 0 {
		in := "SELECT seq FROM record_tags WHERE tag IN (" + marks(len(f.Tags)) + ")"
		if f.AllTags {
			in += " GROUP BY seq HAVING count(*) = " + strconv.Itoa(len(f.Tags))
		}
		add("r.seq IN ("+in+")", anys(f.Tags)...)
	}
	for _, m := range f.Meta {
		add(metaCondition(m, &args))
	}
	if len(conds) == 0 {
		return "1", nil
	}
	return strings.Join(conds, " AND "), args
}

// metaCondition renders one meta condition as a seek per typed form in
// record_meta (see migrations 0007 and 0012), adding its arguments to args.
func metaCondition(m mneme.MetaMatch, args *[]any) string {
	var parts []string
	for _, form := range m.Forms() {
		key, typ, text := mneme.SplitMetaForm(form)
		var v any = text
		if typ == 'n' {
			f, _ := strconv.ParseFloat(text, 64)
			v = f
		}
		parts = append(parts, "SELECT seq FROM record_meta WHERE key = ? AND kind = ? AND value = ?")
		*args = append(*args, key, string(typ), v)
	}
	return "r.seq IN (" + strings.Join(parts, " UNION ALL ") + ")"
}

func marks(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// List returns a page of records passing f, newest id first.
func (s *Store) List(ctx context.Context, f mneme.Filter, limit int, cursor string) ([]*mneme.Record, string, error) {
	cond, args := where(f)
	if cursor != "" {
		after, err := base64.RawURLEncoding.DecodeString(cursor)
		if err != nil || !mneme.ValidID(string(after)) {
			return nil, "", mneme.Invalid("cursor %q is not one this store gave out: pass next_cursor from the previous page unchanged", mneme.Clip(cursor))
		}
		cond += " AND r.id < ?"
		args = append(args, string(after))
	}
	rows, err := s.db.QueryContext(ctx, "SELECT "+columns+" FROM records r WHERE "+cond+" ORDER BY r.id DESC LIMIT ?", append(args, limit+1)...)
	if err != nil {
		return nil, "", translate(err, "list records")
	}
	recs, err := collect(rows)
	if err != nil {
		return nil, "", translate(err, "list records")
	}
	next := ""
	if len(recs) > limit {
		recs = recs[:limit]
		next = base64.RawURLEncoding.EncodeToString([]byte(recs[limit-1].ID))
	}
	return recs, next, nil
}

func collect(rows *sql.Rows) ([]*mneme.Record, error) {
	defer rows.Close()
	var out []*mneme.Record
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Delete removes the records with the given ids, all or none.
func (s *Store) Delete(ctx context.Context, ids []string) (int, error) {
	n := 0
	err := s.tx(ctx, func(tx *sql.Tx) error {
		n = 0
		w := newWriter(ctx, tx, time.Time{})
		for _, id := range ids {
			var seq int64
			if err := w.queryRow("SELECT seq FROM records WHERE id = ?", id).Scan(&seq); err == sql.ErrNoRows {
				return mneme.Errorf(mneme.ENOTFOUND, "no record with id %s; nothing was forgotten", id)
			} else if err != nil {
				return err
			}
			if err := w.deleteSeq(seq); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, translate(err, "delete records")
}

// Stats counts the stored records by project and type, and the secret
// ones apart (SecretOnly).
func (s *Store) Stats(ctx context.Context, now time.Time) (mneme.Stats, error) {
	st := mneme.Stats{Projects: []mneme.ProjectStats{}}
	so := &mneme.Stats{Projects: []mneme.ProjectStats{}}
	at := now.UnixNano()
	err := s.db.QueryRowContext(ctx, `SELECT count(*),
		coalesce(sum(status = 'superseded'), 0), coalesce(sum(expires_at <= ?), 0), coalesce(sum(sensitivity = 'secret'), 0),
		coalesce(sum(sensitivity = 'secret' AND status = 'superseded'), 0), coalesce(sum(sensitivity = 'secret' AND expires_at <= ?), 0),
		(SELECT count(*) FROM documents),
		(SELECT count(*) FROM documents d WHERE
			EXISTS (SELECT 1 FROM records c WHERE c.source_parent = d.id AND c.sensitivity = 'secret') AND
			NOT EXISTS (SELECT 1 FROM records c WHERE c.source_parent = d.id AND c.sensitivity != 'secret'))
		FROM records`, at, at).
		Scan(&st.Total, &st.Superseded, &st.Expired, &st.Secret, &so.Superseded, &so.Expired, &st.Documents, &so.Documents)
	if err != nil {
		return st, translate(err, "count records")
	}
	so.Total, so.Secret = st.Secret, st.Secret
	st.SecretOnly = so
	rows, err := s.db.QueryContext(ctx, `SELECT project, type, count(*), coalesce(sum(sensitivity = 'secret'), 0)
		FROM records GROUP BY project, type ORDER BY project, type`)
	if err != nil {
		return st, translate(err, "count records")
	}
	defer rows.Close()
	for rows.Next() {
		var project, typ string
		var n, secret int
		if err := rows.Scan(&project, &typ, &n, &secret); err != nil {
			return st, translate(err, "count records")
		}
		st.AddCount(project, typ, n)
		so.AddCount(project, typ, secret)
	}
	return st, translate(rows.Err(), "count records")
}

// neighboursQuery selects r's neighbours on one side (cmp "<", dir DESC:
// before; ">", ASC: after), up to a last argument, the limit: the chunks
// beside it in its document, else the records beside it in its session.
func neighboursQuery(r *mneme.Record, cmp, dir string) (string, []any) {
	var where, order string
	var args []any
	if r.Source != nil && r.Source.Parent != "" {
		where, order = "r.source_parent = ? AND r.source_chunk %s ?", "r.source_chunk %s"
		args = []any{r.Source.Parent, r.Source.Chunk}
	} else {
		ev := r.EventTime().UnixNano()
		// session_id != '': the condition of the partial index records_session
		where = "r.project = ? AND r.session_id = ? AND r.session_id != '' AND (r.event_at, r.seq) %[1]s (?, (SELECT seq FROM records WHERE id = ?))"
		order, args = "r.event_at %[1]s, r.seq %[1]s", []any{r.Project, r.SessionID, ev, r.ID}
	}
	return "SELECT " + columns + " FROM records r WHERE " + fmt.Sprintf(where, cmp) + " ORDER BY " + fmt.Sprintf(order, dir) + " LIMIT ?", args
}

// Neighbours returns the chunks beside r in its document, else the records
// around it in its session, up to n on each side, nearest first.
func (s *Store) Neighbours(ctx context.Context, r *mneme.Record, n int) (before, after []*mneme.Record, err error) {
	if (r.Source == nil || r.Source.Parent == "") && r.SessionID == "" {
		return nil, nil, nil
	}
	side := func(cmp, dir string) ([]*mneme.Record, error) {
		q, args := neighboursQuery(r, cmp, dir)
		rows, err := s.db.QueryContext(ctx, q, append(args, n)...)
		if err != nil {
			return nil, err
		}
		return collect(rows)
	}
	if before, err = side("<", "DESC"); err == nil {
		after, err = side(">", "ASC")
	}
	return before, after, translate(err, "read neighbouring records")
}
