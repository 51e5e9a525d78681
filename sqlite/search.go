package sqlite

import (
	"context"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/index/bm25"
)

// Search returns the BM25 top-k among the records passing q.Filter. The
// filter runs inside the index, so a filtered search returns its true top-k.
func (s *Store) Search(ctx context.Context, q mneme.LexicalQuery) ([]mneme.LexicalHit, error) {
	d, err := s.indexes(ctx, false)
	if err != nil {
		return nil, translate(err, "search")
	}
	found := d.lex.Search(bm25.Query{Terms: q.Terms, K: q.K, Filter: indexFilter(q.Filter)})
	if len(found) == 0 {
		return nil, nil
	}
	recs, err := s.bySeq(ctx, len(found), func(i int) int64 { return found[i].Key })
	if err != nil {
		return nil, translate(err, "search")
	}
	hits := make([]mneme.LexicalHit, 0, len(found))
	for _, h := range found {
		if r := recs[h.Key]; r != nil { // nil: deleted since the index caught up
			hits = append(hits, mneme.LexicalHit{Record: r, BM25: h.Score, MatchedTerms: h.Matched})
		}
	}
	return hits, nil
}

// VectorSearch returns the nearest vectors among the records passing
// q.Filter. The BM25 index holds every record's filter attributes, so it
// selects the allowed keys and the vector index searches among those.
func (s *Store) VectorSearch(ctx context.Context, q mneme.VectorQuery) ([]mneme.VectorHit, error) {
	d, err := s.indexes(ctx, true)
	if err != nil {
		return nil, translate(err, "search vectors")
	}
	if d.vec == nil {
		return nil, nil
	}
	if len(q.Vector) != d.info.Dim {
		return nil, mneme.Invalid("query vector has %d dimensions, but the home's embedder %s has %d", len(q.Vector), d.info.ID(), d.info.Dim)
	}
	allowed := d.lex.Select(indexFilter(q.Filter))
	if allowed.Len() == 0 {
		return nil, nil
	}
	found := d.vec.Search(q.Vector, q.K, allowed.Has)
	recs, err := s.bySeq(ctx, len(found), func(i int) int64 { return found[i].Key })
	if err != nil {
		return nil, translate(err, "search vectors")
	}
	hits := make([]mneme.VectorHit, 0, len(found))
	for _, h := range found {
		if r := recs[h.Key]; r != nil {
			hits = append(hits, mneme.VectorHit{Record: r, Score: float64(h.Score)})
		}
	}
	return hits, nil
}

// indexFilter translates a record filter into the index's terms.
func indexFilter(f mneme.Filter) bm25.Filter {
	out := bm25.Filter{Project: f.Project, Key: f.Key, Kinds: f.Kinds, Tags: f.Tags, AllTags: f.AllTags}
	for _, t := range f.Types {
		out.Types = append(out.Types, string(t))
	}
	if f.Since != nil {
		out.Since = f.Since.UnixNano()
	}
	if f.Until != nil {
		out.Until = f.Until.UnixNano()
	}
	if f.Before != nil {
		out.CreatedBefore = f.Before.UnixNano()
	}
	if !f.IncludeSuperseded {
		out.ExcludeStatus = string(mneme.Superseded)
	}
	if !f.IncludeExpired {
		out.Now = f.Now.UnixNano()
	}
	if f.Clearance != mneme.Secret {
		out.ExcludeSensitivity = string(mneme.Secret)
	}
	return out
}

// bySeq fetches the records with the n seqs seq(0..n-1).
func (s *Store) bySeq(ctx context.Context, n int, seq func(i int) int64) (map[int64]*mneme.Record, error) {
	if n == 0 {
		return nil, nil
	}
	seqs := make([]int64, n)
	for i := range seqs {
		seqs[i] = seq(i)
	}
	rows, err := s.db.QueryContext(ctx, "SELECT r.seq, "+columns+" FROM records r WHERE r.seq IN ("+marks(len(seqs))+")", anys(seqs)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[int64]*mneme.Record, len(seqs))
	for rows.Next() {
		var seq int64
		r, err := scanRecord(seqScanner{rows, &seq})
		if err != nil {
			return nil, err
		}
		out[seq] = r
	}
	return out, rows.Err()
}

// seqScanner scans a leading seq column before the record columns.
type seqScanner struct {
	rows interface{ Scan(...any) error }
	seq  *int64
}

func (s seqScanner) Scan(dest ...any) error { return s.rows.Scan(append([]any{s.seq}, dest...)...) }
