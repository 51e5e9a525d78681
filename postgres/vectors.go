package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/mneme-ai/mneme"
)

// vectorSpace is the table holding the vectors of one embedder (id,
// version, dimension): vector(dim) with an HNSW index for cosine distance.
// Two models never mix; a new home embedder gets a new table and the old
// one is dropped.
type vectorSpace struct {
	info  mneme.EmbedderInfo
	table string // quoted identifier
	name  string
}

func spaceOf(info mneme.EmbedderInfo) *vectorSpace {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00%d", info.ID(), info.Version, info.Dim)
	name := fmt.Sprintf("vectors_%d_%016x", info.Dim, h.Sum64())
	return &vectorSpace{info: info, name: name, table: pgx.Identifier{name}.Sanitize()}
}

// querier is a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func homeEmbedder(ctx context.Context, q querier) (mneme.EmbedderInfo, bool, error) {
	rows, err := q.Query(ctx, "SELECT value FROM meta WHERE key = 'embedder'")
	if err != nil {
		return mneme.EmbedderInfo{}, false, err
	}
	return scanEmbedder(rows)
}

// scanEmbedder reads the home's embedder from the rows of its meta entry
// (none: no home embedder).
func scanEmbedder(rows pgx.Rows) (mneme.EmbedderInfo, bool, error) {
	defer rows.Close()
	var info mneme.EmbedderInfo
	if !rows.Next() {
		return info, false, rows.Err()
	}
	var value string
	err := rows.Scan(&value)
	if err == nil {
		err = json.Unmarshal([]byte(value), &info)
	}
	return info, err == nil, err
}

// HomeEmbedder returns the embedder the stored vectors come from.
func (s *Store) HomeEmbedder(ctx context.Context) (mneme.EmbedderInfo, bool, error) {
	info, ok, err := homeEmbedder(ctx, s.pool)
	return info, ok, s.translate(err, "read the home's embedder")
}

// lockEmbedder serialises changes of the home's embedder.
const lockEmbedder = 0x6d6e656d66

// SetHomeEmbedder makes info the home's embedder: its vector table is
// created (with its HNSW index), any other embedder's is dropped.
func (s *Store) SetHomeEmbedder(ctx context.Context, info mneme.EmbedderInfo) error {
	value, _ := json.Marshal(info)
	sp := spaceOf(info)
	err := s.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", lockEmbedder); err != nil {
			return err
		}
		old, ok, err := homeEmbedder(ctx, tx)
		if err != nil {
			return err
		}
		sets, err := keptSets(ctx, tx)
		if err != nil {
			return err
		}
		if ok {
			sets = append(sets, old)
		}
		for _, o := range sets { // a new home embedder keeps no other vectors
			if spaceOf(o).name != sp.name {
				if _, err := tx.Exec(ctx, "DROP TABLE IF EXISTS "+spaceOf(o).table); err != nil {
					return err
				}
			}
		}
		if err := writeSets(ctx, tx, nil); err != nil {
			return err
		}
		if err := createSpace(ctx, tx, sp); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, sp.hnswIndexSQL()); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "INSERT INTO meta (key, value) VALUES ('embedder', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", string(value))
		return err
	})
	return s.translate(err, "set the home's embedder")
}

// createSpace creates the vector table of sp in the store's schema, unless
// it is there, with the triggers that count its rows.
func createSpace(ctx context.Context, tx pgx.Tx, sp *vectorSpace) error {
	var exists bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_class WHERE relname = $1
		AND relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()))`, sp.name).Scan(&exists)
	if err != nil || exists {
		return err
	}
	if _, err := tx.Exec(ctx, fmt.Sprintf(`CREATE TABLE %s (
		rid bigint PRIMARY KEY REFERENCES records (rid) ON DELETE CASCADE,
		vec vector(%d) NOT NULL)`, sp.table, sp.info.Dim)); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, "SELECT count_vectors($1::regclass)", sp.table)
	return err
}

// space returns the home's vector table, nil without a home embedder.
func (s *Store) space(ctx context.Context, q querier) (*vectorSpace, error) {
	info, ok, err := homeEmbedder(ctx, q)
	if err != nil || !ok {
		return nil, err
	}
	return spaceOf(info), nil
}

// CachedVectors returns cached embeddings by text hash.
func (s *Store) CachedVectors(ctx context.Context, info mneme.EmbedderInfo, hashes []string) (map[string][]float32, error) {
	out := map[string][]float32{}
	rows, err := s.pool.Query(ctx, "SELECT text_hash, vec FROM embedding_cache WHERE embedder = $1 AND version = $2 AND text_hash = ANY($3)",
		info.ID(), info.Version, hashes)
	if err != nil {
		return nil, s.translate(err, "read the embedding cache")
	}
	defer rows.Close()
	for rows.Next() {
		var h string
		var v []float32
		if err := rows.Scan(&h, &v); err != nil {
			return nil, s.translate(err, "read the embedding cache")
		}
		out[h] = v
	}
	return out, s.translate(rows.Err(), "read the embedding cache")
}

// CacheVectors caches vecs, the embeddings by info of the texts whose
// TextHash are hashes, in one statement, as a write's embedding batches
// return (so an interrupted write resumes from them).
func (s *Store) CacheVectors(ctx context.Context, info mneme.EmbedderInfo, hashes []string, vecs [][]float32) error {
	if len(hashes) != len(vecs) {
		return mneme.Errorf(mneme.EINTERNAL, "cache %d vectors for %d texts", len(vecs), len(hashes))
	}
	if len(hashes) == 0 {
		return nil
	}
	pv := make([]pgvector.Vector, len(vecs))
	for i, v := range vecs {
		if len(v) != info.Dim {
			return mneme.Invalid("vector of dimension %d for embedder %s with %d", len(v), info.ID(), info.Dim)
		}
		pv[i] = pgvector.NewVector(v)
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO embedding_cache (embedder, version, text_hash, vec)
		SELECT $1, $2, c.h, c.vec::real[] FROM unnest($3::text[], $4::vector[]) AS c(h, vec)
		ON CONFLICT DO NOTHING`, info.ID(), info.Version, hashes, pv)
	return s.translate(err, "write the embedding cache")
}

// Unembedded returns non-secret records without a vector from the home's
// embedder in the order they were stored, after cursor (a rid).
func (s *Store) Unembedded(ctx context.Context, cursor string, limit int) ([]*mneme.Record, string, error) {
	sp, err := s.space(ctx, s.pool)
	if err != nil || sp == nil {
		return nil, "", s.translate(err, "find records to embed")
	}
	return s.unembeddedIn(ctx, sp, cursor, limit)
}

// unembeddedIn returns non-secret records without a vector in sp, after
// cursor.
func (s *Store) unembeddedIn(ctx context.Context, sp *vectorSpace, cursor string, limit int) ([]*mneme.Record, string, error) {
	after := int64(0)
	if cursor != "" {
		var err error
		if after, err = strconv.ParseInt(cursor, 10, 64); err != nil {
			return nil, "", mneme.Invalid("cursor %q is not one this store gave out", mneme.Clip(cursor))
		}
	}
	rows, err := s.pool.Query(ctx, "SELECT r.rid, "+columns+` FROM records r WHERE r.rid > $1 AND r.sensitivity != 'secret'
		AND NOT EXISTS (SELECT 1 FROM `+sp.table+` v WHERE v.rid = r.rid) ORDER BY r.rid LIMIT $2`, after, limit)
	if err != nil {
		return nil, "", s.translate(err, "find records to embed")
	}
	defer rows.Close()
	var recs []*mneme.Record
	var rid int64
	for rows.Next() {
		r, err := scanRecord(rows, &rid)
		if err != nil {
			return nil, "", s.translate(err, "find records to embed")
		}
		recs = append(recs, r)
	}
	if err := rows.Err(); err != nil || len(recs) == 0 {
		return nil, "", s.translate(err, "find records to embed")
	}
	return recs, strconv.FormatInt(rid, 10), nil
}

// PutVectors stores each record's Vector by id.
func (s *Store) PutVectors(ctx context.Context, recs []*mneme.Record) error {
	err := s.tx(ctx, func(tx pgx.Tx) error {
		w := s.newWriter(ctx, tx, s.now())
		for _, r := range recs {
			if err := w.putVector(r); err != nil {
				return err
			}
		}
		return w.flushVectors()
	})
	return s.translate(err, "write vectors")
}

// home reads the home's vector table once per transaction.
func (w *writer) home() (*vectorSpace, error) {
	if w.vecsp == nil && !w.noVector {
		if err := lockSets(w.ctx, w.tx, false); err != nil {
			return nil, err
		}
		sp, err := w.s.space(w.ctx, w.tx)
		if err != nil {
			return nil, err
		}
		w.vecsp, w.noVector = sp, sp == nil
	}
	return w.vecsp, nil
}

// putVector queues r.Vector (if any) for the record with r's id as coming
// from the home's embedder, and its cache entry by text; flushVectors
// writes the queue in one statement each, for the records that still hold
// r's text and are not secret (a job that read one before an update would
// otherwise store the old text's vector).
func (w *writer) putVector(r *mneme.Record) error {
	if r.Vector == nil || r.Sensitivity == mneme.Secret {
		return nil
	}
	sp, err := w.home()
	if err != nil {
		return err
	}
	if sp == nil {
		return mneme.Errorf(mneme.EINTERNAL, "a vector arrived before the home's embedder was set")
	}
	if r.VectorOf != "" && r.VectorOf != mneme.SetKey(sp.info) {
		return nil // from another embedder than the set written (a switch raced the write): the record stays pending
	}
	if len(r.Vector) != sp.info.Dim {
		return mneme.Errorf(mneme.ECONFLICT, "vector of dimension %d for a home whose embedder %s has %d dimensions: run `mneme reindex`", len(r.Vector), sp.info.ID(), sp.info.Dim)
	}
	vec := pgvector.NewVector(r.Vector)
	w.vecIDs, w.vecHashes, w.vecs = append(w.vecIDs, r.ID), append(w.vecHashes, r.ContentHash), append(w.vecs, vec)
	if r.EmbedHash != "" {
		w.cacheHashes, w.cacheVecs = append(w.cacheHashes, r.EmbedHash), append(w.cacheVecs, vec)
	}
	return nil
}

// flushVectors writes the queued vectors and cache entries.
func (w *writer) flushVectors() error {
	if len(w.vecIDs) == 0 {
		return nil
	}
	sp := w.vecsp
	b := &pgx.Batch{}
	// The records are locked so that an update in flight either commits
	// first, and its text is what is compared, or waits for this and then
	// drops the vector if its text differs.
	b.Queue(`WITH r AS (SELECT rid, id, content_hash FROM records
			WHERE id = ANY($1) AND sensitivity <> 'secret' ORDER BY rid FOR SHARE)
		INSERT INTO `+sp.table+` (rid, vec) SELECT DISTINCT ON (r.rid) r.rid, v.vec
		FROM unnest($1::text[], $2::vector[], $3::text[]) WITH ORDINALITY AS v(id, vec, hash, n)
		JOIN r ON r.id = v.id AND r.content_hash = v.hash
		ORDER BY r.rid, v.n DESC ON CONFLICT (rid) DO UPDATE SET vec = excluded.vec`, w.vecIDs, w.vecs, w.vecHashes)
	if len(w.cacheHashes) > 0 {
		b.Queue(`INSERT INTO embedding_cache (embedder, version, text_hash, vec)
			SELECT $1, $2, c.h, c.vec::real[] FROM unnest($3::text[], $4::vector[]) AS c(h, vec)
			ON CONFLICT DO NOTHING`, sp.info.ID(), sp.info.Version, w.cacheHashes, w.cacheVecs)
	}
	w.vecIDs, w.vecHashes, w.vecs, w.cacheHashes, w.cacheVecs = nil, nil, nil, nil, nil
	return w.tx.SendBatch(w.ctx, b).Close()
}

// dropVector removes the vectors of the record rid, from the home's set
// and the kept ones.
func (w *writer) dropVector(rid int64) error {
	sp, err := w.home()
	if err != nil || sp == nil {
		return err
	}
	sets, err := keptSets(w.ctx, w.tx)
	if err != nil {
		return err
	}
	for _, s := range append([]*vectorSpace{sp}, spaces(sets)...) {
		if _, err := w.tx.Exec(w.ctx, "DELETE FROM "+s.table+" WHERE rid = $1", rid); err != nil {
			return err
		}
	}
	return nil
}

func spaces(sets []mneme.EmbedderInfo) []*vectorSpace {
	out := make([]*vectorSpace, len(sets))
	for i, info := range sets {
		out[i] = spaceOf(info)
	}
	return out
}

// hnswIndexSQL creates sp's HNSW index, unless it is there: over the
// vectors in half precision (migration 0012), which halves the pages a
// walk reads; the table keeps them in full, and hits are scored with
// those. walkOrder is the expression a query orders by to use it.
func (sp *vectorSpace) hnswIndexSQL() string {
	return fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s USING hnsw ((vec::halfvec(%d)) halfvec_cosine_ops)",
		pgx.Identifier{sp.name + "_hnsw"}.Sanitize(), sp.table, sp.info.Dim)
}

// walkOrder is the distance, as the HNSW index knows it, of the vectors
// of the table aliased v from the query vector param.
func (sp *vectorSpace) walkOrder(param string) string {
	return fmt.Sprintf("v.vec::halfvec(%[1]d) <=> %[2]s::halfvec(%[1]d)", sp.info.Dim, param)
}
