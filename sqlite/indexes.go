package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/index/hnsw"
)

// Derived indexes (BM25 and vectors) are files beside the database. SQLite
// triggers append every change of a record (lane 0) or a vector (lane 1) to
// the changes table; each index remembers the last change it applied and
// catches up from the log before it answers, so it never disagrees with the
// tables, whichever process wrote.
const (
	// saveEvery is how many applied changes make a new snapshot worth writing.
	saveEvery = 1000
	// keepChanges is how much change log stays behind the older snapshot,
	// so processes holding an older index can catch up without reloading.
	keepChanges = 10_000
)

// logBounds reads the first and last change of the log: one subquery
// each, since SQLite answers a lone min() or max() with a seek at an end
// of the key but scans the table for both in one SELECT.
const logBounds = "SELECT coalesce((SELECT min(seq) FROM changes), 0), coalesce((SELECT max(seq) FROM changes), 0)"

// derived holds both indexes caught up to the same generation.
type derived struct {
	lex  *bm25.Index
	vec  *hnsw.Index // nil: no vectors (no home embedder)
	info mneme.EmbedderInfo
	gaps int // records that could have a vector in vec but have none (see vectorLane.countGaps)
}

// indexes catches the BM25 index, and the vector index if vectors is set,
// up with every committed change, reading the log and the tables in one
// transaction so the two agree.
func (s *Store) indexes(ctx context.Context, vectors bool) (derived, error) {
	s.lex.mu.Lock()
	defer s.lex.mu.Unlock()
	if vectors {
		s.vec.mu.Lock()
		defer s.vec.mu.Unlock()
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return derived{}, err
	}
	defer tx.Rollback()
	var first, last int64
	if err := tx.QueryRowContext(ctx, logBounds).Scan(&first, &last); err != nil {
		return derived{}, err
	}
	savedLex, savedVec := s.lex.saved, s.vec.saved
	if err := s.catchUpLexical(ctx, tx, first, last); err != nil {
		return derived{}, err
	}
	if vectors {
		if err := s.catchUpVectors(ctx, tx, first, last); err != nil {
			return derived{}, err
		}
	}
	d := derived{lex: s.lex.ix, vec: s.vec.ix, info: s.vec.info}
	if vectors && d.vec != nil {
		d.gaps = s.vec.countGaps(d.lex, last)
	}
	if s.lex.saved != savedLex || s.vec.saved != savedVec {
		s.trimLog(ctx, vectors)
	}
	return d, nil
}

// trimLog drops the change log far enough behind the snapshots on disk.
func (s *Store) trimLog(ctx context.Context, vectors bool) {
	if s.readOnly {
		return
	}
	keep := s.lex.saved
	if vectors && s.vec.ix != nil {
		keep = min(keep, s.vec.saved)
	} else if g := snapshotGen(filepath.Join(s.home, VectorFile)); g >= 0 {
		keep = min(keep, g) // another process's vector snapshot may still follow the log
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM changes WHERE seq <= ?", keep-keepChanges); err != nil {
		slog.Debug("trim change log", "err", err) // another writer holds the lock: trim next time
	}
}

// snapshotLag is how many changes the older snapshot on disk is behind the
// log (everything, when there is none).
func (s *Store) snapshotLag() int64 {
	var last int64
	if err := s.db.QueryRow("SELECT coalesce(max(seq), 0) FROM changes").Scan(&last); err != nil {
		return 0
	}
	lex := snapshotGen(filepath.Join(s.home, IndexFile))
	if _, ok, _ := s.HomeEmbedder(context.Background()); ok {
		lex = min(lex, snapshotGen(filepath.Join(s.home, VectorFile)))
	}
	return last - max(lex, 0)
}

// Health describes the index snapshots on disk against the change log (the
// optional mneme.HealthChecker role). A check fails when the next recall
// must rebuild its index.
func (s *Store) Health(ctx context.Context) ([]mneme.HealthCheck, error) {
	var first, last int64
	if err := s.db.QueryRowContext(ctx, logBounds).Scan(&first, &last); err != nil {
		return nil, translate(err, "read the change log")
	}
	_, gen, err := s.readLexical()
	out := []mneme.HealthCheck{snapshotState("lexical index", gen, err, first, last), s.diskSpace()}
	info, ok, err := s.HomeEmbedder(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return append(out, mneme.HealthCheck{Name: "vector index", OK: true, Detail: "no vectors yet: the home has no embedder"}), nil
	}
	_, gen, err = s.readVectors(info)
	return append(out, snapshotState("vector index", gen, err, first, last)), nil
}

// lowDisk is the free space below which the disk counts as full: a write
// then fails at any time.
const lowDisk = 1 << 20

// diskSpace checks the space left beside the database.
func (s *Store) diskSpace() mneme.HealthCheck {
	free, ok := diskFree(s.home)
	switch {
	case !ok && s.readOnly:
		free, ok = 0, true
	case !ok:
		return mneme.HealthCheck{Name: "disk space", OK: true, Detail: "cannot tell the free space here"}
	}
	if free < lowDisk || s.readOnly {
		return mneme.HealthCheck{Name: "disk space", OK: false,
			Detail: fmt.Sprintf("the disk is full (%d KiB free where the home is): every write fails, reading still works", free>>10),
			Fix:    "free some space on that disk"}
	}
	return mneme.HealthCheck{Name: "disk space", OK: true, Detail: fmt.Sprintf("%.1f GiB free", float64(free)/(1<<30))}
}

func snapshotState(name string, gen int64, err error, first, last int64) mneme.HealthCheck {
	st := mneme.HealthCheck{Name: name, OK: true}
	switch {
	case errors.Is(err, os.ErrNotExist):
		st.Detail = "no snapshot yet: the index is built in memory, and written once 1,000 changes accumulate"
	case err != nil:
		st.OK, st.Detail = false, "snapshot unusable ("+err.Error()+"): rebuilt on the next recall"
	case !followable(gen, first, last):
		st.OK, st.Detail = false, "snapshot does not match the change log: rebuilt on the next recall"
	case gen == last:
		st.Detail = fmt.Sprintf("snapshot current at change %d", gen)
	default:
		st.Detail = fmt.Sprintf("snapshot %d changes behind: caught up on the next recall", last-gen)
	}
	return st
}
