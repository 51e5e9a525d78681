package sqlite

import (
	"context"
	"path/filepath"

	"github.com/mneme-ai/mneme"
)

var _ mneme.IndexKeeper = (*Store)(nil)

// IndexBacklog (mneme.IndexKeeper) is how many changes the next search
// would index before it answers: the larger lag of the two indexes behind
// the change log, or every record when one of them has no snapshot it can
// follow. The word index's snapshot is loaded here when this process has
// none, so the search that follows does not read it again.
func (s *Store) IndexBacklog(ctx context.Context) (int64, error) {
	var first, last int64
	if err := s.db.QueryRowContext(ctx, logBounds).Scan(&first, &last); err != nil {
		return 0, err
	}
	lag := s.lexicalLag(first, last)
	info, ok, err := s.HomeEmbedder(ctx)
	if err != nil {
		return 0, err
	}
	if ok && lag >= 0 {
		if v := s.vectorLag(info, first, last); v < 0 {
			lag = -1 // a rebuild of the vectors
		} else {
			lag = max(lag, v)
		}
	}
	if lag >= 0 {
		return lag, nil
	}
	var n int64
	err = s.db.QueryRowContext(ctx, "SELECT count(*) FROM records").Scan(&n)
	return n, err
}

// lexicalLag is how far the word index (this process's, else its
// snapshot's, which it loads) is behind the log's last change; -1 when
// there is none it can follow.
func (s *Store) lexicalLag(first, last int64) int64 {
	l := &s.lex
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ix == nil {
		if ix, gen, err := s.readLexical(); err == nil && followable(gen, first, last) {
			l.ix, l.gen, l.saved = ix, gen, gen
		}
	}
	if l.ix == nil || !followable(l.gen, first, last) {
		return -1
	}
	return last - l.gen
}

// vectorLag is lexicalLag for the vector index of the home embedder,
// judged from the snapshot's header (a vector index is only mapped by
// the search that needs it).
func (s *Store) vectorLag(info mneme.EmbedderInfo, first, last int64) int64 {
	v := &s.vec
	v.mu.Lock()
	defer v.mu.Unlock()
	gen, tag := v.gen, embedderTag(v.info)
	if v.ix == nil {
		gen, tag = snapshotHead(filepath.Join(s.home, VectorFile))
	}
	if gen < 0 || tag != embedderTag(info) || !followable(gen, first, last) {
		return -1
	}
	return last - gen
}

// WarmIndexes (mneme.IndexKeeper) catches both indexes up with the log
// and saves the snapshots of those that moved, however few changes that
// was; it returns the backlog it cleared.
func (s *Store) WarmIndexes(ctx context.Context) (int64, error) {
	backlog, err := s.IndexBacklog(ctx)
	if err != nil {
		return 0, err
	}
	if _, err := s.indexes(ctx, true); err != nil {
		return 0, err
	}
	s.lex.mu.Lock()
	defer s.lex.mu.Unlock()
	s.vec.mu.Lock()
	defer s.vec.mu.Unlock()
	if s.lex.ix != nil && s.lex.gen > s.lex.saved {
		s.saveLexical()
	}
	if s.vec.ix != nil && s.vec.gen > s.vec.saved {
		s.saveVectors()
	}
	s.trimLog(ctx, true)
	return backlog, nil
}

// LeaveIndexes (mneme.IndexKeeper) makes Close leave the snapshots as
// they are.
func (s *Store) LeaveIndexes() { s.leave.Store(true) }
