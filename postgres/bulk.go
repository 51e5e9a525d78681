package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme"
)

// importBatch writes an import batch with a few statements instead of a
// few per record: the stored records and content hashes are read at once,
// new records are copied in (COPY), and only updates go one by one. The
// outcome of each record is the one put would give.
func (w *writer) importBatch(recs []*mneme.Record, res *mneme.WriteResult) error {
	ids := make([]string, 0, len(recs))
	seenID := map[string]bool{}
	for _, r := range recs {
		if r.ID == "" || seenID[r.ID] {
			return w.importEach(recs, res) // ids to assign, or repeated: the general path
		}
		seenID[r.ID] = true
		ids = append(ids, r.ID)
	}
	// Locked: a concurrent rewrite of one waits, then sees this write (see
	// mneme.CheckBase).
	rows, err := w.tx.Query(w.ctx, "SELECT "+columns+" FROM records r WHERE r.id = ANY($1) ORDER BY r.rid FOR UPDATE", ids)
	if err != nil {
		return err
	}
	stored, err := collect(rows)
	if err != nil {
		return err
	}
	existing := make(map[string]*mneme.Record, len(stored))
	for _, r := range stored {
		existing[r.ID] = r
	}
	hashes := map[string]bool{} // project \x00 type \x00 hash of every stored record with a (project, hash) of recs
	var ps, hs []string
	for _, r := range recs {
		ps, hs = append(ps, r.Project), append(hs, r.ContentHash)
	}
	hrows, err := w.tx.Query(w.ctx, `SELECT DISTINCT r.project, r.type, r.content_hash FROM unnest($1::text[], $2::text[]) AS k(project, hash)
		JOIN records r ON r.project = k.project AND r.content_hash = k.hash`+w.hidden(), ps, hs)
	if err != nil {
		return err
	}
	for hrows.Next() {
		var p, t, h string
		if err := hrows.Scan(&p, &t, &h); err != nil {
			hrows.Close()
			return err
		}
		hashes[p+"\x00"+t+"\x00"+h] = true
	}
	hrows.Close()
	if err := hrows.Err(); err != nil {
		return err
	}
	var inserts []*mneme.Record
	for _, r := range recs {
		old := existing[r.ID]
		if err := mneme.CheckImport(w.ctx, old, r); err != nil {
			return err
		}
		key := r.Project + "\x00" + string(r.Type) + "\x00" + r.ContentHash
		switch mneme.ResolveImport(old, old == nil && hashes[key], r, w.now) {
		case mneme.Insert:
			res.Inserted++
			inserts = append(inserts, r)
		case mneme.Update:
			res.Updated++
			if err := w.update(r, old); err != nil {
				return err
			}
		default:
			res.SkippedDuplicates++
		}
		hashes[key] = true
	}
	if err := w.copyIn(inserts); err != nil {
		return err
	}
	for _, r := range recs {
		if err := w.putVector(r); err != nil {
			return err
		}
	}
	return nil
}

// importEach is the record-by-record import.
func (w *writer) importEach(recs []*mneme.Record, res *mneme.WriteResult) error {
	for _, r := range recs {
		if err := w.put(r, mneme.ModeImport, res); err != nil {
			return err
		}
	}
	return nil
}

var insertColumns = []string{"id", "project", "type", "kind", "title", "text", "tags",
	"source_uri", "source_line_start", "source_line_end", "source_parent", "source_chunk",
	"occurred_at", "created_at", "updated_at", "expires_at", "key", "status", "provenance",
	"sensitivity", "session_id", "run_id", "speaker", "links", "content_hash", "meta", "promotions", "event_at", "meta_forms"}

// copyIn inserts new records with COPY and marks them, and the session
// turns beside them, for re-indexing.
func (w *writer) copyIn(recs []*mneme.Record) error {
	if len(recs) == 0 {
		return nil
	}
	rows := make([][]any, len(recs))
	ids := make([]string, len(recs))
	for i, r := range recs {
		rows[i], ids[i] = values(r), r.ID
	}
	if _, err := w.tx.CopyFrom(w.ctx, pgx.Identifier{"records"}, insertColumns, pgx.CopyFromRows(rows)); err != nil {
		return err
	}
	if w.s.bulk.Load() {
		return nil // BulkLoad computes every record's postings at its end
	}
	q := `SELECT r.rid, prev.rid, next.rid FROM records r
		LEFT JOIN LATERAL (` + sqlf(neighbourLateral, "<", "DESC") + `) prev ON true
		LEFT JOIN LATERAL (` + sqlf(neighbourLateral, ">", "ASC") + `) next ON true
		WHERE r.id = ANY($1)`
	got, err := w.tx.Query(w.ctx, q, ids)
	if err != nil {
		return err
	}
	defer got.Close()
	for got.Next() {
		var rid int64
		var prev, next *int64
		if err := got.Scan(&rid, &prev, &next); err != nil {
			return err
		}
		w.touched[rid] = true
		for _, n := range []*int64{prev, next} {
			if n != nil {
				w.touched[*n] = true
			}
		}
	}
	return got.Err()
}

// neighbourLateral selects the turn before ('<') or after ('>') r in its
// session.
const neighbourLateral = `SELECT p.rid FROM records p WHERE r.session_id != '' AND p.project = r.project
	AND p.session_id = r.session_id AND p.session_id != '' AND p.rid != r.rid
	AND (p.event_at, p.rid) %[1]s (r.event_at, r.rid) ORDER BY p.event_at %[2]s, p.rid %[2]s LIMIT 1`

// WithoutVectorIndex runs fn (a bulk load) with the home's HNSW index
// dropped, then builds it again: building once is much faster than
// inserting into it vector by vector. Meanwhile vector search still works,
// by a full scan.
func (s *Store) WithoutVectorIndex(ctx context.Context, fn func() error) error {
	if err := s.dropVectorIndex(ctx); err != nil {
		return err
	}
	ferr := fn()
	err := s.buildVectorIndex(ctx)
	if ferr != nil {
		return ferr
	}
	return err
}

// dropVectorIndex drops the home's HNSW index, if any.
func (s *Store) dropVectorIndex(ctx context.Context) error {
	sp, err := s.space(ctx, s.pool)
	if err == nil && sp != nil {
		_, err = s.pool.Exec(ctx, "DROP INDEX IF EXISTS "+pgx.Identifier{sp.name + "_hnsw"}.Sanitize())
	}
	return s.translate(err, "drop the vector index")
}

// buildVectorIndex builds the home's HNSW index unless it is there, with
// the memory to build it in one go.
func (s *Store) buildVectorIndex(ctx context.Context) error {
	sp, err := s.space(ctx, s.pool)
	if err != nil || sp == nil {
		return s.translate(err, "build the vector index")
	}
	err = s.tx(ctx, func(tx pgx.Tx) error {
		for _, set := range []string{"SET LOCAL maintenance_work_mem = '1GB'", "SET LOCAL max_parallel_maintenance_workers = 2"} {
			if _, err := tx.Exec(ctx, set); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, sp.hnswIndexSQL())
		return err
	})
	return s.translate(err, "build the vector index")
}
