package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/index/hnsw"
)

// VectorFile is the HNSW snapshot beside the database, derived from the
// vectors table like IndexFile from the records table.
const VectorFile = "vectors.idx"

const vectorMagic = "MNEMEVEC\x01"

// vectorLane is a store's in-memory vector index over the home embedder's
// vectors, and how far it has caught up.
type vectorLane struct {
	mu    sync.Mutex
	ix    *hnsw.Index // nil while the home has no embedder
	info  mneme.EmbedderInfo
	gen   int64
	saved int64
	// gaps counts the non-secret records without a vector in ix, as of
	// change gapsGen.
	gaps    int
	gapsGen int64
	gapsOf  *hnsw.Index
}

// countGaps returns how many non-secret records of lex (caught up to change
// gen, like the lane) have no vector in the lane's index. The index holds
// vectors of lex's records only, never of a secret one, so when it holds
// as many as lex has records there is none, at no cost; else they are
// counted once per generation.
func (v *vectorLane) countGaps(lex *bm25.Index, gen int64) int {
	if v.ix.Len() >= lex.Len() {
		return 0
	}
	if v.gapsOf != v.ix || v.gapsGen != gen {
		all := lex.Select(bm25.Filter{ExcludeSensitivity: string(mneme.Secret)})
		v.gaps, v.gapsOf, v.gapsGen = all.Len()-v.ix.Count(all.Has), v.ix, gen
	}
	return v.gaps
}

// embedderTag fingerprints the embedder a vector snapshot was built for.
func embedderTag(info mneme.EmbedderInfo) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00%d", info.ID(), info.Version, info.Dim)
	return h.Sum64()
}

// catchUpVectors brings the vector index to the log's end, last, inside tx.
func (s *Store) catchUpVectors(ctx context.Context, tx *sql.Tx, first, last int64) error {
	v := &s.vec
	info, ok, err := homeEmbedder(ctx, tx)
	if err != nil {
		return err
	}
	if !ok {
		v.ix = nil
		return nil
	}
	if v.ix != nil && (embedderTag(v.info) != embedderTag(info) || !followable(v.gen, first, last)) {
		v.ix = nil
	}
	if v.ix == nil {
		if err := s.loadVectors(ctx, tx, info, first, last); err != nil {
			return err
		}
	}
	if v.gen < last {
		if err := applyVectors(ctx, tx, v.ix, info, v.gen); err != nil {
			return err
		}
		v.gen = last
	}
	if v.gen-v.saved >= saveEvery {
		s.saveVectors()
	}
	return nil
}

func (s *Store) loadVectors(ctx context.Context, tx *sql.Tx, info mneme.EmbedderInfo, first, last int64) error {
	v := &s.vec
	v.info = info
	ix, gen, err := s.readVectors(info)
	switch {
	case err == nil && followable(gen, first, last):
		v.ix, v.gen, v.saved = ix, gen, gen
		return nil
	case err == nil:
		slog.Debug("vector index snapshot is stale; rebuilding", "snapshot", gen, "log", fmt.Sprint(first, "-", last))
	case errors.Is(err, errOtherEmbedder):
		slog.Debug("vector index snapshot is of the former home embedder; rebuilding")
	case !errors.Is(err, os.ErrNotExist):
		slog.Warn("vector index snapshot unusable; rebuilding", "err", err)
	}
	v.ix = hnsw.New(hnsw.Config{Dim: info.Dim})
	if err := addVectors(ctx, tx, v.ix, info, "", nil); err != nil {
		v.ix = nil
		return err
	}
	v.gen, v.saved = last, last-saveEvery // a rebuild is worth keeping at once
	return nil
}

// applyVectors brings ix from generation gen to the vectors table as it is.
func applyVectors(ctx context.Context, tx *sql.Tx, ix *hnsw.Index, info mneme.EmbedderInfo, gen int64) error {
	changed, err := changedKeys(ctx, tx, "SELECT DISTINCT rec FROM changes WHERE seq > ? AND lane = 1", gen)
	if err != nil {
		return err
	}
	for _, seq := range changed {
		ix.Delete(seq)
	}
	return addVectors(ctx, tx, ix, info, " AND seq IN (SELECT rec FROM changes WHERE seq > ? AND lane = 1)", []any{gen})
}

// addVectors adds the home embedder's vectors selected by where, in
// batches the index inserts in parallel.
func addVectors(ctx context.Context, tx *sql.Tx, ix *hnsw.Index, info mneme.EmbedderInfo, where string, args []any) error {
	rows, err := tx.QueryContext(ctx, "SELECT seq, vec FROM vectors WHERE embedder = ? AND version = ? AND dim = ?"+where+" ORDER BY seq",
		append([]any{info.ID(), info.Version, info.Dim}, args...)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	const batch = 4096
	keys, vecs := make([]int64, 0, batch), make([][]float32, 0, batch)
	flush := func() error {
		err := ix.AddBatch(keys, vecs)
		keys, vecs = keys[:0], vecs[:0]
		return err
	}
	for rows.Next() {
		var seq int64
		var blob []byte
		if err := rows.Scan(&seq, &blob); err != nil {
			return err
		}
		keys, vecs = append(keys, seq), append(vecs, decodeVector(blob))
		if len(keys) == batch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return flush()
}

func (s *Store) saveVectors() {
	if s.readOnly {
		return // a full disk: rebuilt in memory, saved by a later process
	}
	v := &s.vec
	h := snapshotHeader{magic: vectorMagic, dbID: s.dbID, gen: v.gen, tag: embedderTag(v.info)}
	if err := writeSnapshot(s.home, VectorFile, h, v.ix); err != nil {
		slog.Warn("save vector index", "err", err)
		return
	}
	v.saved = v.gen
}

// readVectors maps and checks the snapshot built for info.
func (s *Store) readVectors(info mneme.EmbedderInfo) (*hnsw.Index, int64, error) {
	want := snapshotHeader{magic: vectorMagic, dbID: s.dbID, tag: embedderTag(info)}
	data, gen, release, err := readSnapshot(filepath.Join(s.home, VectorFile), want)
	if err != nil {
		return nil, 0, err
	}
	ix, err := hnsw.Decode(data)
	if err == nil && ix.Config().Dim != info.Dim {
		err = errors.New("vector dimension differs from the embedder's")
	}
	if err != nil {
		release()
		return nil, 0, err
	}
	runtime.AddCleanup(ix, func(release func()) { release() }, release)
	return ix, gen, nil
}
