package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/index/bm25"
)

// IndexFile is the BM25 snapshot beside the database: a derived file, rebuilt
// from the records table whenever it is missing, stale or corrupt.
const IndexFile = "lexical.idx"

const lexicalMagic = "MNEMELEX\x04"

// lexical is a store's in-memory BM25 index and how far it has caught up.
type lexical struct {
	mu    sync.Mutex
	ix    *bm25.Index
	gen   int64 // the last change applied
	saved int64 // the generation of the snapshot on disk
}

// catchUp brings the BM25 index to the log's end, last, inside tx.
func (s *Store) catchUpLexical(ctx context.Context, tx *sql.Tx, first, last int64) error {
	l := &s.lex
	if l.ix != nil && !followable(l.gen, first, last) {
		l.ix = nil // the log moved past us (pruned, or a restored database): start again
	}
	if l.ix == nil {
		if err := s.loadLexical(ctx, tx, first, last); err != nil {
			return err
		}
	}
	if l.gen < last {
		if err := applyLexical(ctx, tx, l.ix, l.gen); err != nil {
			return err
		}
		l.gen = last
	}
	if l.gen-l.saved >= saveEvery {
		s.saveLexical()
	}
	return nil
}

// followable reports whether an index at generation gen can catch up from
// a log holding changes first..last.
func followable(gen, first, last int64) bool {
	return gen <= last && (first == 0 || gen >= first-1)
}

// loadLexical reads the snapshot if it is usable from the current log, else
// rebuilds the index from the records table.
func (s *Store) loadLexical(ctx context.Context, tx *sql.Tx, first, last int64) error {
	l := &s.lex
	ix, gen, err := s.readLexical()
	switch {
	case err == nil && followable(gen, first, last):
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
	r.session_id, r.run_id, coalesce(r.expires_at, 0), r.event_at, r.created_at, coalesce(r.meta, ''), ` + neighbourTurns

// neighbourTurns is the text of the turns before and after r in its
// session, never a secret one: their words say what a reply or a question
// is about. Triggers log a turn's change as a change of its neighbours, so
// this context stays current. Row values and the partial index's own
// condition let each side seek in records_session: a session of n records
// costs n seeks, not n scans of the project.
const neighbourTurns = `coalesce((SELECT p.text FROM records p WHERE r.session_id != '' AND p.project = r.project
	AND p.session_id = r.session_id AND p.session_id != '' AND p.sensitivity != 'secret'
	AND (p.event_at, p.seq) < (r.event_at, r.seq)
	ORDER BY p.event_at DESC, p.seq DESC LIMIT 1), '') || ' ' ||
	coalesce((SELECT p.text FROM records p WHERE r.session_id != '' AND p.project = r.project
	AND p.session_id = r.session_id AND p.session_id != '' AND p.sensitivity != 'secret'
	AND (p.event_at, p.seq) > (r.event_at, r.seq)
	ORDER BY p.event_at ASC, p.seq ASC LIMIT 1), '')`

// applyLexical brings ix from generation gen to the rows as they are now.
func applyLexical(ctx context.Context, tx *sql.Tx, ix *bm25.Index, gen int64) error {
	gone, err := changedKeys(ctx, tx, "SELECT DISTINCT rec FROM changes WHERE seq > ? AND lane = 0 AND rec NOT IN (SELECT seq FROM records)", gen)
	if err != nil {
		return err
	}
	for _, seq := range gone {
		ix.Delete(seq)
	}
	return applyRows(ctx, tx, ix, "SELECT "+docColumns+" FROM records r WHERE r.seq IN (SELECT rec FROM changes WHERE seq > ? AND lane = 0)", gen)
}

// changedKeys runs a query returning record seqs.
func changedKeys(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var seq int64
		if err := rows.Scan(&seq); err != nil {
			return nil, err
		}
		out = append(out, seq)
	}
	return out, rows.Err()
}

func applyRows(ctx context.Context, tx *sql.Tx, ix *bm25.Index, query string, args ...any) error {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var d bm25.Doc
		var tags, meta string
		a := &d.Attrs
		if err := rows.Scan(&d.Key, &d.Title, &d.Text, &tags, &a.Project, &a.Type, &a.Kind, &a.Status, &a.Sensitivity, &a.Key,
			&a.Session, &a.Run, &a.Expires, &a.Event, &a.Created, &meta, &d.Context); err != nil {
			return err
		}
		a.Meta = mneme.MetaForms([]byte(meta))
		if err := unmarshalTags(tags, &a.Tags); err != nil {
			return err
		}
		ix.Put(d)
	}
	return rows.Err()
}

// saveLexical writes the snapshot. Failing to save only costs a rebuild
// later, so errors are logged, not returned.
func (s *Store) saveLexical() {
	if s.readOnly {
		return // a full disk: rebuilt in memory, saved by a later process
	}
	l := &s.lex
	if err := writeSnapshot(s.home, IndexFile, snapshotHeader{magic: lexicalMagic, dbID: s.dbID, gen: l.gen}, l.ix); err != nil {
		slog.Warn("save lexical index", "err", err)
		return
	}
	l.saved = l.gen
}

// readLexical maps and checks the snapshot. The index reads the mapped file
// directly; the mapping is released when the index is garbage.
func (s *Store) readLexical() (*bm25.Index, int64, error) {
	data, gen, release, err := readSnapshot(filepath.Join(s.home, IndexFile), snapshotHeader{magic: lexicalMagic, dbID: s.dbID})
	if err != nil {
		return nil, 0, err
	}
	ix, err := bm25.Decode(data)
	if err != nil {
		release()
		return nil, 0, err
	}
	runtime.AddCleanup(ix, func(release func()) { release() }, release)
	return ix, gen, nil
}
