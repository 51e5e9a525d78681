package sqlite

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme"
)

// A Store.write leaves two things to be done together: the records it
// inserts (one INSERT of many rows instead of one statement each, which
// cost an ops batch of 100 rows half its time) and their meta rows (one
// statement for the transaction instead of a trigger per record,
// migrations/0012). The pending inserts go in before any other statement
// of the writer runs (stmt and conn flush them), so every read and write
// sees them as if each had gone in at once.

// chunk is how many of n rows one multi-row statement writes: the
// largest power of two up to 128 in n, so the statements a writer runs
// come in eight shapes, each prepared once per connection (Store.write).
func chunk(n int) int {
	c := 128
	for c > n {
		c /= 2
	}
	return c
}

// conn is the transaction, after the inserts pending.
func (w *writer) conn() (*sql.Tx, error) {
	return w.tx, w.flush()
}

// flush inserts the pending records, then their tags and vectors.
func (w *writer) flush() error {
	if w.err != nil || len(w.pending) == 0 {
		return w.err
	}
	recs := w.pending
	w.pending = nil
	for len(recs) > 0 {
		n := chunk(len(recs))
		if err := w.insertMany(recs[:n]); err != nil {
			w.err = err
			return err
		}
		recs = recs[n:]
	}
	return nil
}

// insertMany writes recs in one statement, then their tags, and their
// vectors (which name them by id).
func (w *writer) insertMany(recs []*mneme.Record) error {
	args := make([]any, 0, len(recs)*28)
	for _, r := range recs {
		args = append(args, values(r)...)
	}
	st, err := w.stmt(insertSQL + strings.Repeat(","+insertRow, len(recs)-1) + " RETURNING id, seq")
	if err != nil {
		return err
	}
	rows, err := st.QueryContext(w.ctx, args...)
	if err != nil {
		return err
	}
	seqs := make(map[string]int64, len(recs))
	for rows.Next() {
		var id string
		var seq int64
		if err := rows.Scan(&id, &seq); err != nil {
			rows.Close()
			return err
		}
		seqs[id] = seq
	}
	if err := rows.Close(); err != nil {
		return err
	}
	var tags []any
	for _, r := range recs {
		seq := seqs[r.ID]
		if len(r.Meta) > 0 {
			w.metaSeqs = append(w.metaSeqs, seq)
		}
		for _, t := range r.Tags {
			tags = append(tags, t, seq)
		}
	}
	if err := w.execRows("INSERT INTO record_tags (tag, seq) VALUES %s", 2, tags); err != nil {
		return err
	}
	return w.newVectors(recs, seqs)
}

// newVectors stores the vectors of records just inserted (seqs by id), and
// caches them by text, a few statements for all: each record holds the
// text and sensitivity it was inserted with, which putVector checks.
func (w *writer) newVectors(recs []*mneme.Record, seqs map[string]int64) error {
	var vecs, cached []any
	for _, r := range recs {
		blob, err := w.vectorOf(r)
		if err != nil {
			return err
		}
		if blob == nil {
			continue
		}
		info := w.embedder
		vecs = append(vecs, seqs[r.ID], info.ID(), info.Version, info.Dim, blob)
		if r.EmbedHash != "" {
			cached = append(cached, info.ID(), info.Version, r.EmbedHash, blob)
		}
	}
	if err := w.execRows("INSERT INTO vectors (seq, embedder, version, dim, vec) VALUES %s ON CONFLICT (seq, embedder, version) DO UPDATE SET dim = excluded.dim, vec = excluded.vec", 5, vecs); err != nil {
		return err
	}
	return w.execRows("INSERT INTO embedding_cache (embedder, version, text_hash, vec) VALUES %s ON CONFLICT DO NOTHING", 4, cached)
}

// execRows runs query (its %s the VALUES rows) over args, n a row, in
// statements of chunk rows.
func (w *writer) execRows(query string, n int, args []any) error {
	for len(args) > 0 {
		rows := chunk(len(args) / n)
		row := "(?" + strings.Repeat(", ?", n-1) + ")"
		if _, err := w.exec(fmt.Sprintf(query, row+strings.Repeat(", "+row, rows-1)), args[:rows*n]...); err != nil {
			return err
		}
		args = args[rows*n:]
	}
	return nil
}

// metaSQL writes the record_meta rows (migrations/0007) of the records
// whose seqs the JSON array ? names, unless they have some: an update in
// the same transaction wrote them already from the current meta, which
// this reads too.
const metaSQL = `INSERT INTO record_meta (seq, key, kind, value)
	SELECT r.seq, j.key, CASE j.type WHEN 'text' THEN 's' WHEN 'integer' THEN 'n' WHEN 'real' THEN 'n' ELSE 'b' END,
		CASE j.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE j.atom END
	FROM records r, json_each(r.meta) j
	WHERE r.seq IN (SELECT value FROM json_each(?)) AND r.meta IS NOT NULL AND json_valid(r.meta)
		AND NOT EXISTS (SELECT 1 FROM record_meta m WHERE m.seq = r.seq)
		AND j.type IN ('text', 'integer', 'real', 'true', 'false') AND instr(j.key, char(0)) = 0`

// finish does what the writer left to the end: the pending inserts, then
// their meta rows.
func (w *writer) finish() error {
	if err := w.flush(); err != nil || len(w.metaSeqs) == 0 {
		return err
	}
	seqs, _ := json.Marshal(w.metaSeqs)
	_, err := w.tx.ExecContext(w.ctx, metaSQL, string(seqs))
	w.metaSeqs = nil
	return err
}

// prefetch finds, in one query a project, which texts of recs no stored
// record (that the caller may read) has, so that byHash need not look for
// each. Only a text unique in recs counts as fresh: a batch's writes
// change the records with the texts they write, and no others.
func (w *writer) prefetch(recs []*mneme.Record) error {
	count := map[[2]string]int{}
	byProject := map[string][]string{}
	for _, r := range recs {
		k := [2]string{r.Project, r.ContentHash}
		if count[k]++; count[k] == 1 {
			byProject[r.Project] = append(byProject[r.Project], r.ContentHash)
		}
	}
	w.fresh = map[[2]string]bool{}
	for k, n := range count {
		w.fresh[k] = n == 1
	}
	tx, err := w.conn()
	if err != nil {
		return err
	}
	for project, hashes := range byProject {
		list, _ := json.Marshal(hashes)
		rows, err := tx.QueryContext(w.ctx, "SELECT DISTINCT r.content_hash FROM records r WHERE r.project = ? AND r.content_hash IN (SELECT value FROM json_each(?))"+w.hidden(), project, string(list))
		if err != nil {
			return err
		}
		for rows.Next() {
			var h string
			if err := rows.Scan(&h); err != nil {
				rows.Close()
				return err
			}
			w.fresh[[2]string{project, h}] = false
		}
		if err := rows.Close(); err != nil {
			return err
		}
	}
	return nil
}
