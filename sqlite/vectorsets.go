package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/index/hnsw"
)

var _ mneme.VectorSets = (*Store)(nil)

// setsKey is the meta entry listing the kept vector sets besides the
// home's. Their vectors live in the vectors table like the home's, keyed by
// embedder and version; triggers log (for the vector index and the result
// cache) only the home's (migration 0008).
const setsKey = "vector_sets"

func keptSets(ctx context.Context, q queryer) ([]mneme.EmbedderInfo, error) {
	var value string
	err := q.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", setsKey).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	var out []mneme.EmbedderInfo
	if err == nil {
		err = json.Unmarshal([]byte(value), &out)
	}
	return out, err
}

func writeSets(ctx context.Context, tx *sql.Tx, sets []mneme.EmbedderInfo) error {
	if len(sets) == 0 {
		_, err := tx.ExecContext(ctx, "DELETE FROM meta WHERE key = ?", setsKey)
		return err
	}
	value, _ := json.Marshal(sets)
	_, err := tx.ExecContext(ctx, "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", setsKey, string(value))
	return err
}

// AddVectorSet starts keeping info's vectors beside the home's.
func (s *Store) AddVectorSet(ctx context.Context, info mneme.EmbedderInfo) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		home, ok, err := homeEmbedder(ctx, tx)
		if err != nil || (ok && mneme.SetKey(home) == mneme.SetKey(info)) {
			return err
		}
		sets, err := keptSets(ctx, tx)
		if err != nil || mneme.HasSet(sets, info) {
			return err
		}
		return writeSets(ctx, tx, append(sets, info))
	})
	return translate(err, "add a vector set")
}

// VectorSets lists the home's set and the kept ones with their coverage.
func (s *Store) VectorSets(ctx context.Context) ([]mneme.VectorSet, error) {
	home, ok, err := homeEmbedder(ctx, s.db)
	if err != nil {
		return nil, translate(err, "list the vector sets")
	}
	sets, err := keptSets(ctx, s.db)
	if err != nil {
		return nil, translate(err, "list the vector sets")
	}
	var out []mneme.VectorSet
	if ok {
		out = append(out, mneme.VectorSet{Embedder: home, Home: true})
	}
	for _, info := range sets {
		out = append(out, mneme.VectorSet{Embedder: info})
	}
	var embeddable int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM records WHERE sensitivity != 'secret'").Scan(&embeddable); err != nil {
		return nil, translate(err, "count the records to embed")
	}
	for i := range out {
		info := out[i].Embedder
		out[i].Embeddable = embeddable
		err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM vectors v JOIN records r ON r.seq = v.seq
			WHERE v.embedder = ? AND v.version = ? AND v.dim = ? AND r.sensitivity != 'secret'`, info.ID(), info.Version, info.Dim).Scan(&out[i].Vectors)
		if err != nil {
			return nil, translate(err, "count a vector set")
		}
	}
	return out, nil
}

// UnembeddedIn returns non-secret records without a vector from info.
func (s *Store) UnembeddedIn(ctx context.Context, info mneme.EmbedderInfo, cursor string, limit int) ([]*mneme.Record, string, error) {
	after, err := seqCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	return s.unembeddedIn(ctx, info, after, limit)
}

// PutVectorsIn stores each record's Vector in info's set.
func (s *Store) PutVectorsIn(ctx context.Context, info mneme.EmbedderInfo, recs []*mneme.Record) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		w := newWriter(ctx, tx, s.now())
		w.embedder = &info
		for _, r := range recs {
			if err := w.putVector(r); err != nil {
				return err
			}
		}
		return nil
	})
	return translate(err, "write vectors")
}

// SwitchEmbedder makes info's set the home's when it covers every
// non-secret record, in one transaction: a write racing it either commits
// first and is counted, or comes after and sees the new home.
func (s *Store) SwitchEmbedder(ctx context.Context, info mneme.EmbedderInfo, keepOld bool) (int, error) {
	if n, err := s.missingIn(ctx, s.db, info); err != nil || n > 0 {
		return n, translate(err, "switch the home's embedder")
	}
	ready, err := s.buildSet(ctx, info)
	if err != nil {
		return 0, translate(err, "build the vector index")
	}
	missing := 0
	err = s.tx(ctx, func(tx *sql.Tx) error {
		old, ok, err := homeEmbedder(ctx, tx)
		if err != nil || (ok && mneme.SetKey(old) == mneme.SetKey(info)) {
			return err
		}
		if missing, err = s.missingIn(ctx, tx, info); err != nil || missing > 0 {
			return err
		}
		sets, err := keptSets(ctx, tx)
		if err != nil {
			return err
		}
		sets = mneme.WithoutSet(sets, info)
		if ok && keepOld {
			sets = append(sets, old)
		} else if ok {
			if _, err := tx.ExecContext(ctx, "DELETE FROM vectors WHERE embedder = ? AND version = ? AND dim = ?", old.ID(), old.Version, old.Dim); err != nil {
				return err
			}
		}
		if err := writeSets(ctx, tx, sets); err != nil {
			return err
		}
		value, _ := json.Marshal(info)
		if _, err := tx.ExecContext(ctx, "UPDATE meta SET value = ? WHERE key = 'embedder'", string(value)); err != nil {
			return err
		}
		// Every cached result was ranked with the old vectors.
		_, err = tx.ExecContext(ctx, "UPDATE cache_generations SET gen = gen + 1")
		return err
	})
	if err == nil && missing == 0 {
		s.install(ready)
	}
	return missing, translate(err, "switch the home's embedder")
}

// missingIn counts the non-secret records without a vector from info.
func (s *Store) missingIn(ctx context.Context, q queryer, info mneme.EmbedderInfo) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM records r WHERE r.sensitivity != 'secret'
		AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.seq = r.seq AND v.embedder = ? AND v.version = ? AND v.dim = ?)`,
		info.ID(), info.Version, info.Dim).Scan(&n)
	return n, err
}

// builtSet is a vector index over a set's vectors as of change gen.
type builtSet struct {
	info mneme.EmbedderInfo
	ix   *hnsw.Index
	gen  int64
}

// buildSet builds the vector index of info's set before the switch (recall
// goes on with the home's meanwhile), so that the switch does not leave
// the next recall to build it. Changes to the set's vectors are not logged
// while it is not the home's; none come between this and the switch: the
// reindex writes no vector until the switch returns, and a record whose
// text changes loses its vector, so the switch finds it missing and waits.
func (s *Store) buildSet(ctx context.Context, info mneme.EmbedderInfo) (*builtSet, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	b := &builtSet{info: info, ix: hnsw.New(hnsw.Config{Dim: info.Dim})}
	if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(seq), 0) FROM changes").Scan(&b.gen); err != nil {
		return nil, err
	}
	return b, addVectors(ctx, tx, b.ix, info, "", nil)
}

// install makes a built set this process's vector index, and saves it as
// the snapshot other processes load when they see the switch.
func (s *Store) install(b *builtSet) {
	v := &s.vec
	v.mu.Lock()
	defer v.mu.Unlock()
	v.ix, v.info, v.gen, v.saved, v.gapsOf = b.ix, b.info, b.gen, b.gen-saveEvery, nil
	s.saveVectors()
}

// DropVectorSet deletes a kept set.
func (s *Store) DropVectorSet(ctx context.Context, info mneme.EmbedderInfo) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		home, ok, err := homeEmbedder(ctx, tx)
		if err != nil {
			return err
		}
		if ok && mneme.SetKey(home) == mneme.SetKey(info) {
			return mneme.Invalid("%s is the home's embedder: switch to another before dropping its vectors", info.ID())
		}
		sets, err := keptSets(ctx, tx)
		if err != nil {
			return err
		}
		if err := writeSets(ctx, tx, mneme.WithoutSet(sets, info)); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, "DELETE FROM vectors WHERE embedder = ? AND version = ? AND dim = ?", info.ID(), info.Version, info.Dim)
		return err
	})
	return translate(err, "drop a vector set")
}
