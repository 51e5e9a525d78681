package sqlite

import (
	"context"
	"strconv"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/index/hnsw"
)

// Candidates runs the lanes q asks for over the derived indexes, caught up
// together, and scores every candidate in both. The BM25 index holds every
// record's filter attributes, so it filters inside its own search and
// selects the keys the vector index may return; the same selection counts
// the records the vector lane cannot see.
func (s *Store) Candidates(ctx context.Context, q mneme.CandidateQuery) (mneme.Candidates, error) {
	var out mneme.Candidates
	d, err := s.indexes(ctx, q.WantsVector())
	if err != nil {
		return out, translate(err, "search")
	}
	vectors := q.WantsVector() && d.vec != nil // the vector may still be on its way: the lexical lane needs none
	filter := indexFilter(q.Filter)
	var keys []int64
	at := map[int64]*mneme.Candidate{}
	get := func(key int64) *mneme.Candidate {
		c := at[key]
		if c == nil {
			c = &mneme.Candidate{}
			at[key] = c
			keys = append(keys, key)
		}
		return c
	}
	var allowed *bm25.KeySet
	if vectors {
		allowed = d.lex.Select(filter)
	}
	var near []hnsw.Hit
	var vecErr error
	var done chan struct{}
	if vectors {
		search := func() {
			switch v := q.LaneVector(); {
			case v == nil:
				vectors = false // it could not be made: no vector lane (the Engine says why)
			case len(v) != d.info.Dim:
				vecErr = mneme.Invalid("query vector has %d dimensions, but the home's embedder %s has %d", len(v), d.info.ID(), d.info.Dim)
			case allowed.Len() > 0:
				near = d.vec.SearchSet(v, q.K, allowed)
			}
		}
		if len(q.Terms) == 0 {
			search()
		} else { // beside the lexical lane: a span's exact scan costs as much
			done = make(chan struct{})
			go func() { defer close(done); search() }()
		}
	}
	if len(q.Terms) > 0 { // a narrow filter's few records (allowed) are scored one by one
		for i, h := range d.lex.Search(bm25.Query{Terms: q.Terms, K: q.K, Filter: filter, Within: allowed}) {
			c := get(h.Key)
			c.LexicalRank, c.BM25, c.MatchedTerms = i+1, h.Score, h.Matched
		}
	}
	if done != nil {
		<-done // vectors, q.Vector and near are the lane's until then
	}
	if vecErr != nil {
		return out, vecErr
	}
	for i, h := range near {
		c := get(h.Key)
		c.VectorRank, c.Similarity, c.HasVector = i+1, float64(h.Score), true
	}
	if q.Vector != nil {
		out.Unembedded = unembedded(d, filter, allowed)
	}
	if len(keys) == 0 {
		return out, nil
	}
	if len(q.Terms) > 0 { // the lexical score of what only the vector lane found
		only := unranked(keys, func(key int64) bool { return at[key].LexicalRank > 0 })
		for i, h := range d.lex.Score(q.Terms, only) {
			c := at[only[i]]
			c.BM25, c.MatchedTerms = h.Score, h.Matched
		}
	}
	if vectors { // and the similarity of what only the lexical lane found
		only := unranked(keys, func(key int64) bool { return at[key].VectorRank > 0 })
		sims, ok := d.vec.Score(q.Vector, only)
		for i, key := range only {
			c := at[key]
			c.Similarity, c.HasVector = float64(sims[i]), ok[i]
		}
	}
	recs, err := s.bySeq(ctx, len(keys), func(i int) int64 { return keys[i] })
	if err != nil {
		return out, translate(err, "search")
	}
	out.List = make([]mneme.Candidate, 0, len(keys))
	for _, key := range keys {
		if r := recs[key]; r != nil { // nil: deleted since the indexes caught up
			c := at[key]
			c.Record = r
			out.List = append(out.List, *c)
		}
	}
	return out, nil
}

// unranked is keys without those ranked by a lane: the lane scores only
// the others.
func unranked(keys []int64, ranked func(int64) bool) []int64 {
	var out []int64
	for _, key := range keys {
		if !ranked(key) {
			out = append(out, key)
		}
	}
	return out
}

// unembedded counts the non-secret records passing filter that have no
// vector in the vector index; allowed is filter's selection, if made. A
// home without such gaps (the usual case) costs nothing here.
func unembedded(d derived, filter bm25.Filter, allowed *bm25.KeySet) int {
	if d.vec != nil && d.gaps == 0 {
		return 0
	}
	if allowed == nil || filter.ExcludeSensitivity != string(mneme.Secret) {
		filter.ExcludeSensitivity = string(mneme.Secret) // secret records are never embedded
		allowed = d.lex.Select(filter)
	}
	if d.vec == nil || allowed.Len() == 0 {
		return allowed.Len()
	}
	return allowed.Len() - d.vec.Count(allowed.Has)
}

// indexFilter translates a record filter into the index's terms.
func indexFilter(f mneme.Filter) bm25.Filter {
	out := bm25.Filter{Project: f.Project, Key: f.Key, Session: f.SessionID, Run: f.RunID, Kinds: f.Kinds, Tags: f.Tags, AllTags: f.AllTags}
	for _, t := range f.Types {
		out.Types = append(out.Types, string(t))
	}
	for _, st := range f.Statuses {
		out.Statuses = append(out.Statuses, string(st))
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
	for _, m := range f.Meta {
		out.Meta = append(out.Meta, m.Forms())
	}
	return out
}

// bySeqQuery reads records by seq, the seqs a JSON array: one statement
// text for any number of them, prepared once (a recall hydrates its
// candidates with it; parsing a new IN list each time cost a third as much
// as the read).
const bySeqQuery = "SELECT r.seq, " + columns + " FROM records r WHERE r.seq IN (SELECT value FROM json_each(?))"

// bySeq fetches the records with the n seqs seq(0..n-1).
func (s *Store) bySeq(ctx context.Context, n int, seq func(i int) int64) (map[int64]*mneme.Record, error) {
	if n == 0 {
		return nil, nil
	}
	list := make([]byte, 0, 8*n+2)
	list = append(list, '[')
	for i := range n {
		if i > 0 {
			list = append(list, ',')
		}
		list = strconv.AppendInt(list, seq(i), 10)
	}
	stmt, err := s.stmts.get(ctx, s.db, bySeqQuery)
	if err != nil {
		return nil, err
	}
	rows, err := stmt.QueryContext(ctx, string(append(list, ']')))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[int64]*mneme.Record, n)
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
