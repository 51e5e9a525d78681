package sqlite

import (
	"context"
	"database/sql"
	"slices"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// bm25Weights weigh the title, text and tags columns: a word in a title or
// tag says more about a record than one in its body.
const bm25Weights = "2.0, 1.0, 1.5"

// Search returns the BM25 top-k among the records passing q.Filter. The
// filter is part of the query, so a filtered search returns its true top-k.
func (s *Store) Search(ctx context.Context, q mneme.LexicalQuery) ([]mneme.LexicalHit, error) {
	match := matchExpr(q.Terms)
	cond, args := where(q.Filter)
	rows, err := s.db.QueryContext(ctx, `SELECT r.seq, -bm25(records_fts, `+bm25Weights+`) AS score
		FROM records_fts JOIN records r ON r.seq = records_fts.rowid
		WHERE records_fts MATCH ? AND `+cond+` ORDER BY score DESC, r.seq DESC LIMIT ?`,
		append(append([]any{match}, args...), q.K)...)
	if err != nil {
		return nil, translate(err, "search")
	}
	var seqs []int64
	var scores []float64
	for rows.Next() {
		var seq int64
		var score float64
		if err := rows.Scan(&seq, &score); err != nil {
			rows.Close()
			return nil, translate(err, "search")
		}
		seqs, scores = append(seqs, seq), append(scores, score)
	}
	if err := rows.Close(); err != nil {
		return nil, translate(err, "search")
	}
	if len(seqs) == 0 {
		return nil, nil
	}
	recs, err := s.bySeq(ctx, seqs)
	if err != nil {
		return nil, translate(err, "search")
	}
	matched, err := s.matchedTerms(ctx, match, seqs)
	if err != nil {
		return nil, translate(err, "search")
	}
	hits := make([]mneme.LexicalHit, len(seqs))
	for i, seq := range seqs {
		hits[i] = mneme.LexicalHit{Record: recs[seq], BM25: scores[i], MatchedTerms: matched[seq]}
	}
	return hits, nil
}

// matchExpr builds an FTS5 query that matches any of the terms.
func matchExpr(terms []string) string {
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	return strings.Join(quoted, " OR ")
}

func (s *Store) bySeq(ctx context.Context, seqs []int64) (map[int64]*mneme.Record, error) {
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
	rows *sql.Rows
	seq  *int64
}

func (s seqScanner) Scan(dest ...any) error { return s.rows.Scan(append([]any{s.seq}, dest...)...) }

// matchedTerms asks FTS5 which words of each hit matched (after stemming,
// "releases" matches "release"), through highlight() markers.
func (s *Store) matchedTerms(ctx context.Context, match string, seqs []int64) (map[int64][]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT rowid,
		highlight(records_fts, 0, char(1), char(2)) || highlight(records_fts, 1, char(1), char(2)) || highlight(records_fts, 2, char(1), char(2))
		FROM records_fts WHERE records_fts MATCH ? AND rowid IN (`+marks(len(seqs))+`)`,
		append([]any{match}, anys(seqs)...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[int64][]string, len(seqs))
	for rows.Next() {
		var seq int64
		var marked string
		if err := rows.Scan(&seq, &marked); err != nil {
			return nil, err
		}
		out[seq] = markedWords(marked)
	}
	return out, rows.Err()
}

// markedWords returns the distinct folded words between \x01 and \x02.
func markedWords(s string) []string {
	words := []string{}
	for {
		i := strings.IndexByte(s, 1)
		if i < 0 {
			return words
		}
		s = s[i+1:]
		j := strings.IndexByte(s, 2)
		if j < 0 {
			return words
		}
		w := textnorm.Fold(s[:j])
		if !slices.Contains(words, w) {
			words = append(words, w)
		}
		s = s[j+1:]
	}
}
