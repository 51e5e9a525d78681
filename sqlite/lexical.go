package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/internal/mmap"
)

// IndexFile is the BM25 snapshot beside the database: a derived file, rebuilt
// from the records table whenever it is missing, stale or corrupt.
const IndexFile = "lexical.idx"

// The snapshot header is 64 bytes, so the payload after it stays 8-byte
// aligned for bm25.Decode: magic [0:9], database id [9:41], generation
// [41:49], CRC-32C of the payload [49:53], zero padding.
const (
	snapshotMagic = "MNEMELEX\x02"
	headerSize    = 64
	genAt, crcAt  = 41, 49
	// saveEvery is how many applied changes make a new snapshot worth writing.
	saveEvery = 1000
	// keepChanges is how much change log stays behind a snapshot, so
	// processes holding an older index can catch up without reloading.
	keepChanges = 10_000
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// lexical is a store's in-memory BM25 index and how far it has caught up.
type lexical struct {
	mu    sync.Mutex
	ix    *bm25.Index
	gen   int64 // the last change applied
	saved int64 // the generation of the snapshot on disk
	dbID  string
}

// index returns the BM25 index, caught up with every committed change.
func (s *Store) index(ctx context.Context) (*bm25.Index, error) {
	l := &s.lex
	l.mu.Lock()
	defer l.mu.Unlock()
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // one consistent snapshot of the log and the rows
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var first, last int64
	if err := tx.QueryRowContext(ctx, "SELECT coalesce(min(seq), 0), coalesce(max(seq), 0) FROM changes").Scan(&first, &last); err != nil {
		return nil, err
	}
	if l.ix != nil && (last < l.gen || (first > l.gen+1)) {
		l.ix = nil // the log moved past us (pruned, or a restored database): start again
	}
	if l.ix == nil {
		if err := s.loadIndex(ctx, tx, first, last); err != nil {
			return nil, err
		}
	}
	if l.gen < last {
		if err := applyChanges(ctx, tx, l.ix, l.gen); err != nil {
			return nil, err
		}
		l.gen = last
	}
	if l.gen-l.saved >= saveEvery {
		s.saveIndex(ctx)
	}
	return l.ix, nil
}

// loadIndex reads the snapshot if it is usable from the current log, else
// rebuilds the index from the records table.
func (s *Store) loadIndex(ctx context.Context, tx *sql.Tx, first, last int64) error {
	l := &s.lex
	if l.dbID == "" {
		if err := tx.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'db_id'").Scan(&l.dbID); err != nil {
			return err
		}
	}
	ix, gen, err := readSnapshot(filepath.Join(s.home, IndexFile), l.dbID)
	switch {
	case err == nil && gen <= last && (first == 0 || gen >= first-1):
		l.ix, l.gen, l.saved = ix, gen, gen
		return nil
	case err == nil:
		slog.Debug("lexical index snapshot is stale; rebuilding", "snapshot", gen, "log", fmt.Sprint(first, "-", last))
	case !errors.Is(err, os.ErrNotExist):
		slog.Warn("lexical index snapshot unusable; rebuilding", "err", err)
	}
	ix = bm25.New()
	if err := applyRows(ctx, tx, ix, "SELECT "+docColumns+" FROM records r"); err != nil {
		return err
	}
	l.ix, l.gen, l.saved = ix, last, 0
	if !errors.Is(err, os.ErrNotExist) {
		l.saved = last - saveEvery // replace the bad snapshot now
	}
	return nil
}

// docColumns are what the index needs of a record.
const docColumns = `r.seq, r.title, r.text, r.tags, r.project, r.type, r.kind, r.status, r.sensitivity, r.key,
	coalesce(r.expires_at, 0), r.event_at, r.created_at`

// applyChanges brings ix from generation gen to the rows as they are now.
func applyChanges(ctx context.Context, tx *sql.Tx, ix *bm25.Index, gen int64) error {
	rows, err := tx.QueryContext(ctx, "SELECT DISTINCT rec FROM changes WHERE seq > ? AND rec NOT IN (SELECT seq FROM records)", gen)
	if err != nil {
		return err
	}
	for rows.Next() {
		var seq int64
		if err := rows.Scan(&seq); err != nil {
			rows.Close()
			return err
		}
		ix.Delete(seq)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	return applyRows(ctx, tx, ix, "SELECT "+docColumns+" FROM records r WHERE r.seq IN (SELECT rec FROM changes WHERE seq > ?)", gen)
}

func applyRows(ctx context.Context, tx *sql.Tx, ix *bm25.Index, query string, args ...any) error {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var d bm25.Doc
		var tags string
		a := &d.Attrs
		if err := rows.Scan(&d.Key, &d.Title, &d.Text, &tags, &a.Project, &a.Type, &a.Kind, &a.Status, &a.Sensitivity, &a.Key,
			&a.Expires, &a.Event, &a.Created); err != nil {
			return err
		}
		if err := unmarshalTags(tags, &a.Tags); err != nil {
			return err
		}
		ix.Put(d)
	}
	return rows.Err()
}

// saveIndex writes the snapshot atomically (temporary file, then rename) and
// trims the change log behind it. Failing to save only costs a rebuild
// later, so errors are logged, not returned.
func (s *Store) saveIndex(ctx context.Context) {
	l := &s.lex
	var payload bytes.Buffer
	if _, err := l.ix.WriteTo(&payload); err != nil {
		slog.Warn("encode lexical index", "err", err)
		return
	}
	head := make([]byte, headerSize)
	copy(head, snapshotMagic)
	copy(head[len(snapshotMagic):genAt], l.dbID)
	binary.LittleEndian.PutUint64(head[genAt:], uint64(l.gen))
	binary.LittleEndian.PutUint32(head[crcAt:], crc32.Checksum(payload.Bytes(), crcTable))
	path := filepath.Join(s.home, IndexFile)
	tmp, err := os.CreateTemp(s.home, IndexFile+".*")
	if err == nil {
		_, err = tmp.Write(append(head, payload.Bytes()...))
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), path)
		}
		if err != nil {
			os.Remove(tmp.Name())
		}
	}
	if err != nil {
		slog.Warn("save lexical index", "err", err)
		return
	}
	l.saved = l.gen
	if _, err := s.db.ExecContext(ctx, "DELETE FROM changes WHERE seq <= ?", l.gen-keepChanges); err != nil {
		slog.Debug("trim change log", "err", err) // another writer holds the lock: trim next time
	}
}

// readSnapshot maps and checks a snapshot written for the database dbID.
// The index reads the mapped file directly; the mapping is released when the
// index is garbage.
func readSnapshot(path, dbID string) (*bm25.Index, int64, error) {
	data, release, err := mmap.File(path)
	if err != nil {
		return nil, 0, err
	}
	ix, gen, err := checkSnapshot(data, dbID)
	if err != nil {
		release()
		return nil, 0, err
	}
	runtime.AddCleanup(ix, func(release func()) { release() }, release)
	return ix, gen, nil
}

func checkSnapshot(data []byte, dbID string) (*bm25.Index, int64, error) {
	switch {
	case len(data) < headerSize || string(data[:len(snapshotMagic)]) != snapshotMagic:
		return nil, 0, errors.New("not a mneme lexical index of this version")
	case string(data[len(snapshotMagic):genAt]) != dbID:
		return nil, 0, errors.New("built from another database")
	case crc32.Checksum(data[headerSize:], crcTable) != binary.LittleEndian.Uint32(data[crcAt:]):
		return nil, 0, errors.New("checksum mismatch")
	}
	ix, err := bm25.Decode(data[headerSize:])
	return ix, int64(binary.LittleEndian.Uint64(data[genAt:])), err
}

// snapshotLag is how many changes the snapshot on disk is behind the log
// (everything, when there is no usable snapshot).
func (s *Store) snapshotLag() int64 {
	var last int64
	if err := s.db.QueryRow("SELECT coalesce(max(seq), 0) FROM changes").Scan(&last); err != nil {
		return 0
	}
	f, err := os.Open(filepath.Join(s.home, IndexFile))
	if err != nil {
		return last
	}
	defer f.Close()
	head := make([]byte, headerSize)
	if _, err := io.ReadFull(f, head); err != nil {
		return last
	}
	return last - int64(binary.LittleEndian.Uint64(head[genAt:]))
}

// IndexStatus describes the BM25 snapshot on disk against the change log,
// for `mneme doctor`. ok is false when the next search must rebuild it.
func (s *Store) IndexStatus(ctx context.Context) (ok bool, detail string, err error) {
	var dbID string
	var first, last int64
	if err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'db_id'").Scan(&dbID); err != nil {
		return false, "", translate(err, "read the database id")
	}
	if err := s.db.QueryRowContext(ctx, "SELECT coalesce(min(seq), 0), coalesce(max(seq), 0) FROM changes").Scan(&first, &last); err != nil {
		return false, "", translate(err, "read the change log")
	}
	_, gen, err := readSnapshot(filepath.Join(s.home, IndexFile), dbID)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return true, "no snapshot yet: the index is built in memory, and written once 1,000 changes accumulate", nil
	case err != nil:
		return false, "snapshot unusable (" + err.Error() + "): rebuilt on the next recall", nil
	case gen > last || (first > 0 && gen < first-1):
		return false, "snapshot does not match the change log: rebuilt on the next recall", nil
	case gen == last:
		return true, fmt.Sprintf("snapshot current at change %d", gen), nil
	}
	return true, fmt.Sprintf("snapshot %d changes behind: caught up on the next recall", last-gen), nil
}
