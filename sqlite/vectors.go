package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme"
)

// HomeEmbedder returns the embedder the stored vectors come from.
func (s *Store) HomeEmbedder(ctx context.Context) (mneme.EmbedderInfo, bool, error) {
	info, ok, err := homeEmbedder(ctx, s.db)
	return info, ok, translate(err, "read the home's embedder")
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func homeEmbedder(ctx context.Context, q queryer) (mneme.EmbedderInfo, bool, error) {
	var info mneme.EmbedderInfo
	var value string
	err := q.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'embedder'").Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return info, false, nil
	}
	if err == nil {
		err = json.Unmarshal([]byte(value), &info)
	}
	return info, err == nil, err
}

// SetHomeEmbedder makes info the home's embedder and drops other vectors.
func (s *Store) SetHomeEmbedder(ctx context.Context, info mneme.EmbedderInfo) error {
	value, _ := json.Marshal(info)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "INSERT INTO meta (key, value) VALUES ('embedder', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", string(value)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM meta WHERE key = ?", setsKey); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "DELETE FROM vectors WHERE embedder != ? OR version != ? OR dim != ?", info.ID(), info.Version, info.Dim)
		return err
	})
	return translate(err, "set the home's embedder")
}

// CachedVectors returns cached embeddings by text hash.
func (s *Store) CachedVectors(ctx context.Context, info mneme.EmbedderInfo, hashes []string) (map[string][]float32, error) {
	out := map[string][]float32{}
	for start := 0; start < len(hashes); start += 500 {
		part := hashes[start:min(start+500, len(hashes))]
		rows, err := s.db.QueryContext(ctx, "SELECT text_hash, vec FROM embedding_cache WHERE embedder = ? AND version = ? AND text_hash IN ("+marks(len(part))+")",
			append([]any{info.ID(), info.Version}, anys(part)...)...)
		if err != nil {
			return nil, translate(err, "read the embedding cache")
		}
		for rows.Next() {
			var h string
			var blob []byte
			if err := rows.Scan(&h, &blob); err != nil {
				rows.Close()
				return nil, translate(err, "read the embedding cache")
			}
			out[h] = decodeVector(blob)
		}
		if err := rows.Close(); err != nil {
			return nil, translate(err, "read the embedding cache")
		}
	}
	return out, nil
}

// Unembedded returns non-secret records without a vector from the home's
// embedder in the order they were stored, after cursor (a seq).
func (s *Store) Unembedded(ctx context.Context, cursor string, limit int) ([]*mneme.Record, string, error) {
	after, err := seqCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	info, ok, err := homeEmbedder(ctx, s.db)
	if err != nil || !ok {
		return nil, "", translate(err, "find records to embed")
	}
	return s.unembeddedIn(ctx, info, after, limit)
}

// unembeddedIn returns non-secret records without a vector from info, after
// the seq after.
func (s *Store) unembeddedIn(ctx context.Context, info mneme.EmbedderInfo, after int64, limit int) ([]*mneme.Record, string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT r.seq, "+columns+` FROM records r WHERE r.seq > ? AND r.sensitivity != 'secret'
		AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.seq = r.seq AND v.embedder = ? AND v.version = ? AND v.dim = ?) ORDER BY r.seq LIMIT ?`,
		after, info.ID(), info.Version, info.Dim, limit)
	if err != nil {
		return nil, "", translate(err, "find records to embed")
	}
	defer rows.Close()
	var recs []*mneme.Record
	var seq int64
	for rows.Next() {
		r, err := scanRecordWith(rows, &seq)
		if err != nil {
			return nil, "", translate(err, "find records to embed")
		}
		recs = append(recs, r)
	}
	if err := rows.Err(); err != nil || len(recs) == 0 {
		return nil, "", translate(err, "find records to embed")
	}
	return recs, strconv.FormatInt(seq, 10), nil
}

// seqCursor reads a cursor Unembedded gave out ("": from the first).
func seqCursor(cursor string) (int64, error) {
	if cursor == "" {
		return 0, nil
	}
	seq, err := strconv.ParseInt(cursor, 10, 64)
	if err != nil {
		return 0, mneme.Invalid("cursor %q is not one this store gave out", mneme.Clip(cursor))
	}
	return seq, nil
}

// PutVectors stores each record's Vector by id.
func (s *Store) PutVectors(ctx context.Context, recs []*mneme.Record) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		w := newWriter(ctx, tx, s.now())
		for _, r := range recs {
			if err := w.putVector(r); err != nil {
				return err
			}
		}
		return nil
	})
	return translate(err, "write vectors")
}

// vectorOf is r's vector encoded for the home's embedder, or nil when
// there is none to store: no vector, a secret record, or a vector from
// another embedder than the set written.
func (w *writer) vectorOf(r *mneme.Record) ([]byte, error) {
	if r.Vector == nil || r.Sensitivity == mneme.Secret {
		return nil, nil
	}
	if w.embedder == nil {
		tx, err := w.conn()
		if err != nil {
			return nil, err
		}
		info, ok, err := homeEmbedder(w.ctx, tx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, mneme.Errorf(mneme.EINTERNAL, "a vector arrived before the home's embedder was set")
		}
		w.embedder = &info
	}
	info := w.embedder
	if r.VectorOf != "" && r.VectorOf != mneme.SetKey(*info) {
		return nil, nil // from another embedder than the set written (a switch raced the write): the record stays pending
	}
	if len(r.Vector) != info.Dim {
		return nil, mneme.Invalid("vector of dimension %d for a home whose embedder %s has %d", len(r.Vector), info.ID(), info.Dim)
	}
	return encodeVector(r.Vector), nil
}

// putVector stores r.Vector (if any) for the record with r's id as coming
// from the home's embedder, and caches it by text. The record must still
// hold the text r has and not have turned secret: a job that read it
// before an update would otherwise store the old text's vector.
func (w *writer) putVector(r *mneme.Record) error {
	blob, err := w.vectorOf(r)
	if blob == nil {
		return err
	}
	info := w.embedder
	if _, err := w.exec(`INSERT INTO vectors (seq, embedder, version, dim, vec) SELECT seq, ?, ?, ?, ? FROM records
		WHERE id = ? AND content_hash = ? AND sensitivity != 'secret'
		ON CONFLICT (seq, embedder, version) DO UPDATE SET dim = excluded.dim, vec = excluded.vec`,
		info.ID(), info.Version, info.Dim, blob, r.ID, r.ContentHash); err != nil {
		return err
	}
	if r.EmbedHash == "" {
		return nil
	}
	_, err = w.exec(`INSERT INTO embedding_cache (embedder, version, text_hash, vec) VALUES (?, ?, ?, ?)
		ON CONFLICT DO NOTHING`, info.ID(), info.Version, r.EmbedHash, blob)
	return err
}

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// CacheVectors caches embeddings by text hash in one transaction, a
// statement per 200 rows.
func (s *Store) CacheVectors(ctx context.Context, info mneme.EmbedderInfo, hashes []string, vecs [][]float32) error {
	if len(hashes) != len(vecs) {
		return mneme.Errorf(mneme.EINTERNAL, "cache %d vectors for %d texts", len(vecs), len(hashes))
	}
	if len(hashes) == 0 {
		return nil
	}
	id := info.ID()
	args := make([]any, 0, 4*len(hashes))
	for i, h := range hashes {
		if len(vecs[i]) != info.Dim {
			return mneme.Invalid("vector of dimension %d for embedder %s with %d", len(vecs[i]), id, info.Dim)
		}
		args = append(args, id, info.Version, h, encodeVector(vecs[i]))
	}
	const rows = 200
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for start := 0; start < len(hashes); start += rows {
			n := min(rows, len(hashes)-start)
			q := "INSERT INTO embedding_cache (embedder, version, text_hash, vec) VALUES " +
				strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?),", n), ",") + " ON CONFLICT DO NOTHING"
			if _, err := tx.ExecContext(ctx, q, args[4*start:4*(start+n)]...); err != nil {
				return err
			}
		}
		return nil
	})
	return translate(err, "write the embedding cache")
}
