package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme"
)

var _ mneme.VectorSets = (*Store)(nil)

// setsKey is the meta entry listing the kept vector sets besides the
// home's: a table each (vectorSpace), without the triggers that count the
// home's vectors and bump the result cache's generations.
const setsKey = "vector_sets"

func keptSets(ctx context.Context, q querier) ([]mneme.EmbedderInfo, error) {
	rows, err := q.Query(ctx, "SELECT value FROM meta WHERE key = $1", setsKey)
	if err != nil {
		return nil, err
	}
	value, err := pgx.CollectOneRow(rows, pgx.RowTo[string])
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	var out []mneme.EmbedderInfo
	if err == nil {
		err = json.Unmarshal([]byte(value), &out)
	}
	return out, err
}

func writeSets(ctx context.Context, tx pgx.Tx, sets []mneme.EmbedderInfo) error {
	if len(sets) == 0 {
		_, err := tx.Exec(ctx, "DELETE FROM meta WHERE key = $1", setsKey)
		return err
	}
	value, _ := json.Marshal(sets)
	_, err := tx.Exec(ctx, "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value", setsKey, string(value))
	return err
}

// lockSets takes the embedder lock: exclusive to change the sets, shared by
// a write that reads them (so a table it writes is not dropped under it).
func lockSets(ctx context.Context, tx pgx.Tx, exclusive bool) error {
	fn := "pg_advisory_xact_lock_shared"
	if exclusive {
		fn = "pg_advisory_xact_lock"
	}
	_, err := tx.Exec(ctx, "SELECT "+fn+"($1)", lockEmbedder)
	return err
}

// AddVectorSet creates info's table beside the home's.
func (s *Store) AddVectorSet(ctx context.Context, info mneme.EmbedderInfo) error {
	err := s.tx(ctx, func(tx pgx.Tx) error {
		if err := lockSets(ctx, tx, true); err != nil {
			return err
		}
		home, ok, err := homeEmbedder(ctx, tx)
		if err != nil || (ok && mneme.SetKey(home) == mneme.SetKey(info)) {
			return err
		}
		sets, err := keptSets(ctx, tx)
		if err != nil || mneme.HasSet(sets, info) {
			return err
		}
		sp := spaceOf(info)
		if _, err := tx.Exec(ctx, fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s (
			rid bigint PRIMARY KEY REFERENCES records (rid) ON DELETE CASCADE,
			vec vector(%d) NOT NULL)`, sp.table, info.Dim)); err != nil {
			return err
		}
		return writeSets(ctx, tx, append(sets, info))
	})
	return s.translate(err, "add a vector set")
}

// VectorSets lists the home's set and the kept ones with their coverage.
func (s *Store) VectorSets(ctx context.Context) ([]mneme.VectorSet, error) {
	home, ok, err := homeEmbedder(ctx, s.pool)
	if err != nil {
		return nil, s.translate(err, "list the vector sets")
	}
	sets, err := keptSets(ctx, s.pool)
	if err != nil {
		return nil, s.translate(err, "list the vector sets")
	}
	var out []mneme.VectorSet
	if ok {
		out = append(out, mneme.VectorSet{Embedder: home, Home: true})
	}
	for _, info := range sets {
		out = append(out, mneme.VectorSet{Embedder: info})
	}
	var embeddable int
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM records WHERE sensitivity <> 'secret'").Scan(&embeddable); err != nil {
		return nil, s.translate(err, "count the records to embed")
	}
	for i := range out {
		out[i].Embeddable = embeddable
		sp := spaceOf(out[i].Embedder)
		err := s.pool.QueryRow(ctx, "SELECT count(*) FROM "+sp.table+" v JOIN records r ON r.rid = v.rid WHERE r.sensitivity <> 'secret'").Scan(&out[i].Vectors)
		if err != nil {
			return nil, s.translate(err, "count a vector set")
		}
	}
	return out, nil
}

// UnembeddedIn returns non-secret records without a vector from info.
func (s *Store) UnembeddedIn(ctx context.Context, info mneme.EmbedderInfo, cursor string, limit int) ([]*mneme.Record, string, error) {
	return s.unembeddedIn(ctx, spaceOf(info), cursor, limit)
}

// PutVectorsIn stores each record's Vector in info's set.
func (s *Store) PutVectorsIn(ctx context.Context, info mneme.EmbedderInfo, recs []*mneme.Record) error {
	err := s.tx(ctx, func(tx pgx.Tx) error {
		if err := lockSets(ctx, tx, false); err != nil {
			return err
		}
		sets, err := keptSets(ctx, tx)
		if err != nil {
			return err
		}
		if !mneme.HasSet(sets, info) {
			return mneme.Errorf(mneme.ECONFLICT, "vectors from %s are no longer kept here (another reindex switched or dropped them): run the reindex again", info.ID())
		}
		w := s.newWriter(ctx, tx, s.now())
		w.vecsp = spaceOf(info)
		for _, r := range recs {
			if err := w.putVector(r); err != nil {
				return err
			}
		}
		return w.flushVectors()
	})
	return s.translate(err, "write vectors")
}

// SwitchEmbedder makes info's set the home's when it covers every
// non-secret record. Its HNSW index is built first, outside the
// transaction (recall goes on meanwhile); the switch itself is one short
// transaction under the embedder lock, which every write that stores
// vectors shares.
func (s *Store) SwitchEmbedder(ctx context.Context, info mneme.EmbedderInfo, keepOld bool) (int, error) {
	sp := spaceOf(info)
	if _, err := s.pool.Exec(ctx, sp.hnswIndexSQL()); err != nil {
		return 0, s.translate(err, "build the vector index")
	}
	missing := 0
	err := s.tx(ctx, func(tx pgx.Tx) error {
		if err := lockSets(ctx, tx, true); err != nil {
			return err
		}
		old, ok, err := homeEmbedder(ctx, tx)
		if err != nil || (ok && mneme.SetKey(old) == mneme.SetKey(info)) {
			return err
		}
		err = tx.QueryRow(ctx, `SELECT count(*) FROM records r WHERE r.sensitivity <> 'secret'
			AND NOT EXISTS (SELECT 1 FROM `+sp.table+` v WHERE v.rid = r.rid)`).Scan(&missing)
		if err != nil || missing > 0 {
			return err
		}
		sets, err := keptSets(ctx, tx)
		if err != nil {
			return err
		}
		sets = mneme.WithoutSet(sets, info)
		if ok {
			if err := demote(ctx, tx, spaceOf(old), keepOld); err != nil {
				return err
			}
			if keepOld {
				sets = append(sets, old)
			}
		}
		if err := writeSets(ctx, tx, sets); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "SELECT count_vectors($1::regclass)", sp.table); err != nil {
			return err
		}
		value, _ := json.Marshal(info)
		if _, err := tx.Exec(ctx, "UPDATE meta SET value = $1 WHERE key = 'embedder'", string(value)); err != nil {
			return err
		}
		// Every cached result was ranked with the old vectors.
		_, err = tx.Exec(ctx, "UPDATE cache_generations SET gen = gen + 1")
		return err
	})
	return missing, s.translate(err, "switch the home's embedder")
}

// demote makes the former home's table a kept set (its counting and cache
// triggers go: only the home's vectors count), or drops it.
func demote(ctx context.Context, tx pgx.Tx, sp *vectorSpace, keep bool) error {
	if !keep {
		_, err := tx.Exec(ctx, "DROP TABLE IF EXISTS "+sp.table)
		return err
	}
	for _, trg := range []string{"vectors_count_insert", "vectors_count_delete", "cache_gen_vectors_insert", "cache_gen_vectors_update", "cache_gen_vectors_delete"} {
		if _, err := tx.Exec(ctx, "DROP TRIGGER IF EXISTS "+trg+" ON "+sp.table); err != nil {
			return err
		}
	}
	return nil
}

// DropVectorSet deletes a kept set.
func (s *Store) DropVectorSet(ctx context.Context, info mneme.EmbedderInfo) error {
	err := s.tx(ctx, func(tx pgx.Tx) error {
		if err := lockSets(ctx, tx, true); err != nil {
			return err
		}
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
		_, err = tx.Exec(ctx, "DROP TABLE IF EXISTS "+spaceOf(info).table)
		return err
	})
	return s.translate(err, "drop a vector set")
}
