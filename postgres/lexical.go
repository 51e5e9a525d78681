package postgres

import (
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/index/bm25"
)

// lockKey is the advisory lock of one (kind, project, value).
func lockKey(kind, project, value string) int64 {
	h := fnv.New64a()
	h.Write([]byte(kind + "\x00" + project + "\x00" + value))
	return int64(h.Sum64())
}

// lock takes the transaction's advisory locks on the content hashes and
// keys of recs, in ascending order so that two writers never deadlock.
func (w *writer) lock(recs []*mneme.Record) error {
	var keys []int64
	for _, r := range recs {
		keys = append(keys, lockKey("hash", r.Project, r.ContentHash))
		if r.Key != "" {
			keys = append(keys, lockKey("key", r.Project, r.Key))
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	_, err := w.tx.Exec(w.ctx, "SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k ORDER BY k", keys)
	return err
}

// neighbourSQL selects the turn before (dir '<') or after ('>') a record in
// its session: the context its BM25 document includes.
const neighbourSQL = `SELECT p.rid FROM records p WHERE p.project = $1 AND p.session_id = $2 AND p.session_id != '' AND p.rid != $4
	AND (p.event_at, p.rid) %[1]s ($3, $4) ORDER BY p.event_at %[2]s, p.rid %[2]s LIMIT 1`

// touchNeighbours marks the turns beside the record rid for re-indexing:
// its text is part of their context.
func (w *writer) touchNeighbours(rid int64) error {
	var project, session string
	var event int64
	if err := w.tx.QueryRow(w.ctx, "SELECT project, session_id, event_at FROM records WHERE rid = $1", rid).Scan(&project, &session, &event); err != nil {
		return err
	}
	return w.touchAround(project, session, event, rid)
}

// touchNeighboursOf marks the turns that were beside old (now moved or
// gone) for re-indexing.
func (w *writer) touchNeighboursOf(old *mneme.Record, rid int64) error {
	return w.touchAround(old.Project, old.SessionID, old.EventTime().UnixNano(), rid)
}

func sqlf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func (w *writer) touchAround(project, session string, event, rid int64) error {
	if session == "" {
		return nil
	}
	for _, q := range []string{sqlf(neighbourSQL, "<", "DESC"), sqlf(neighbourSQL, ">", "ASC")} {
		var n int64
		err := w.tx.QueryRow(w.ctx, q, project, session, event, rid).Scan(&n)
		if err == pgx.ErrNoRows {
			continue
		}
		if err != nil {
			return err
		}
		w.touched[n] = true
	}
	return nil
}

// docSQL loads what the BM25 document of a record needs.
const docSQL = `SELECT r.rid, r.title, r.text, r.tags,
	coalesce((SELECT p.text FROM records p WHERE r.session_id != '' AND p.project = r.project
	AND p.session_id = r.session_id AND p.session_id != '' AND p.sensitivity != 'secret'
	AND (p.event_at, p.rid) < (r.event_at, r.rid)
	ORDER BY p.event_at DESC, p.rid DESC LIMIT 1), '') || ' ' ||
	coalesce((SELECT p.text FROM records p WHERE r.session_id != '' AND p.project = r.project
	AND p.session_id = r.session_id AND p.session_id != '' AND p.sensitivity != 'secret'
	AND (p.event_at, p.rid) > (r.event_at, r.rid)
	ORDER BY p.event_at ASC, p.rid ASC LIMIT 1), '')
	FROM records r WHERE r.rid = ANY($1) ORDER BY r.rid`

// finish recomputes the postings of every record the transaction touched
// (a bulk load leaves them to its end).
func (w *writer) finish() error {
	if err := w.flushVectors(); err != nil {
		return err
	}
	if len(w.touched) == 0 || w.s.bulk.Load() {
		return nil
	}
	rids := make([]int64, 0, len(w.touched))
	for rid := range w.touched {
		rids = append(rids, rid)
	}
	slices.Sort(rids)
	return w.writePostings(rids, true)
}

// writePostings writes the postings of the records rids; replace locks
// the records and deletes their postings first (else they have none). Each
// posting carries its record's weighted length; the statement triggers on
// postings keep the document frequencies and the total length. The records
// are locked, so no other writer holds postings of theirs: they are copied
// in without conflict checks.
func (w *writer) writePostings(rids []int64, replace bool) error {
	q := docSQL
	if replace {
		q += " FOR UPDATE OF r"
	}
	rows, err := w.tx.Query(w.ctx, q, rids)
	if err != nil {
		return err
	}
	var post [][]any
	for rows.Next() {
		var d bm25.Doc
		if err := rows.Scan(&d.Key, &d.Title, &d.Text, &d.Attrs.Tags, &d.Context); err != nil {
			rows.Close()
			return err
		}
		tf, length := bm25.Weights(d)
		for t, f := range tf {
			post = append(post, []any{t, d.Key, f, length})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if replace {
		if _, err := w.tx.Exec(w.ctx, "DELETE FROM postings WHERE rid = ANY($1)", rids); err != nil {
			return err
		}
	}
	_, err = w.tx.CopyFrom(w.ctx, pgx.Identifier{"postings"}, []string{"term", "rid", "tf", "dl"}, pgx.CopyFromRows(post))
	return err
}
