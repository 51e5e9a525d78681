package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/index/bm25"
)

// exactBelow is how many filtered vectors the vector lane compares one by
// one (exact) instead of walking the HNSW index.
const exactBelow = 5000

func (s *Store) now() time.Time { return time.Now().UTC() }

// Candidates runs the lanes q asks for inside PostgreSQL, each under the
// filter, and scores every candidate in both lanes. Both lanes read one
// snapshot (a repeatable-read transaction).
func (s *Store) Candidates(ctx context.Context, q mneme.CandidateQuery) (mneme.Candidates, error) {
	var out mneme.Candidates
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var err error
		if out.List, err = s.candidates(ctx, tx, q); err != nil || q.Vector == nil {
			return err
		}
		out.Unembedded, err = s.unembedded(ctx, tx, q.Filter)
		return err
	})
	return out, s.translate(err, "search")
}

// unembedded counts the records passing f that could have a vector (not
// secret) but have none from the home's embedder (every one of them while
// the home has none).
func (s *Store) unembedded(ctx context.Context, tx pgx.Tx, f mneme.Filter) (int, error) {
	sp, err := s.space(ctx, tx)
	if err != nil {
		return 0, err
	}
	a := args{}
	cond := where(f, &a) + " AND r.sensitivity != 'secret'"
	if sp != nil {
		cond += fmt.Sprintf(" AND NOT EXISTS (SELECT 1 FROM %s v WHERE v.rid = r.rid)", sp.table)
	}
	var n int
	err = tx.QueryRow(ctx, "SELECT count(*) FROM records r WHERE "+cond, a...).Scan(&n)
	return n, err
}

func (s *Store) candidates(ctx context.Context, tx pgx.Tx, q mneme.CandidateQuery) ([]mneme.Candidate, error) {
	var sp *vectorSpace
	if q.Vector != nil {
		var err error
		if sp, err = s.space(ctx, tx); err != nil {
			return nil, err
		}
		if sp != nil && len(q.Vector) != sp.info.Dim {
			return nil, mneme.Invalid("query vector has %d dimensions, but the home's embedder %s has %d", len(q.Vector), sp.info.ID(), sp.info.Dim)
		}
	}
	var rids []int64
	at := map[int64]*mneme.Candidate{}
	get := func(rid int64) *mneme.Candidate {
		c := at[rid]
		if c == nil {
			c = &mneme.Candidate{}
			at[rid] = c
			rids = append(rids, rid)
		}
		return c
	}
	stems := stemmed(q.Terms)
	if len(stems) > 0 {
		hits, err := lexicalSearch(ctx, tx, stems, q.Terms, q.Filter, q.K, nil)
		if err != nil {
			return nil, err
		}
		for i, h := range hits {
			c := get(h.rid)
			c.LexicalRank, c.BM25, c.MatchedTerms = i+1, h.score, h.matched
		}
	}
	if sp != nil {
		hits, err := vectorSearch(ctx, tx, sp, q.Vector, q.Filter, q.K)
		if err != nil {
			return nil, err
		}
		for i, h := range hits {
			c := get(h.rid)
			c.VectorRank, c.Similarity, c.HasVector = i+1, h.score, true
		}
	}
	if len(rids) == 0 {
		return nil, nil
	}
	if len(stems) > 0 { // the lexical score of what only the vector lane found
		var only []int64
		for _, rid := range rids {
			if at[rid].LexicalRank == 0 {
				only = append(only, rid)
			}
		}
		if len(only) > 0 {
			hits, err := lexicalSearch(ctx, tx, stems, q.Terms, mneme.Filter{}, 0, only)
			if err != nil {
				return nil, err
			}
			for _, h := range hits {
				at[h.rid].BM25, at[h.rid].MatchedTerms = h.score, h.matched
			}
		}
	}
	if sp != nil { // and the similarity of what only the lexical lane found
		if err := scoreVectors(ctx, tx, sp, q.Vector, rids, at); err != nil {
			return nil, err
		}
	}
	recs, err := byRid(ctx, tx, rids)
	if err != nil {
		return nil, err
	}
	out := make([]mneme.Candidate, 0, len(rids))
	for _, rid := range rids {
		if r := recs[rid]; r != nil {
			c := at[rid]
			c.Record = r
			out = append(out, *c)
		}
	}
	return out, nil
}

// stemmed returns the index form of each query term (the first 64, as the
// embedded index reads).
func stemmed(terms []string) []string {
	out := make([]string, 0, len(terms))
	for _, t := range terms[:min(len(terms), 64)] {
		out = append(out, bm25.Stem(t))
	}
	return out
}

type hit struct {
	rid     int64
	score   float64
	matched []string
}

// lexicalSQL is BM25 over the postings, with the embedded index's formula:
// idf = ln(1 + (N - df + 0.5) / (df + 0.5)) over all stored records (N and
// the mean length from lex_stats, kept by triggers), and
// tf weighted by field, normalised by the record's weighted length. A query
// term given twice counts twice, as there.
const lexicalSQL = `WITH q AS (SELECT t.term, t.qi FROM unnest($1::text[]) WITH ORDINALITY AS t(term, qi)),
st AS (SELECT greatest(sum(n), 1)::float8 AS n, greatest(sum(total) / greatest(sum(n), 1), 1e-9)::float8 AS avgdl FROM lex_stats),
idf AS (SELECT d.term, ln(1 + (st.n - d.df + 0.5) / (d.df + 0.5)) AS idf FROM st,
	(SELECT p.term, count(*)::float8 AS df FROM postings p WHERE p.term IN (SELECT term FROM q) GROUP BY p.term) d)
SELECT p.rid, sum(idf.idf * p.tf * %[1]g / (p.tf + %[2]g * (1 - %[3]g + %[3]g * r.doc_len / st.avgdl))) AS score,
	array_agg(q.qi) AS qis
FROM q JOIN idf ON idf.term = q.term JOIN postings p ON p.term = q.term JOIN records r ON r.rid = p.rid CROSS JOIN st
WHERE %[4]s GROUP BY p.rid ORDER BY score DESC, p.rid DESC %[5]s`

// lexicalSearch returns the BM25 top k among the records passing f, or (with
// only set) the scores of those records.
func lexicalSearch(ctx context.Context, tx pgx.Tx, stems, terms []string, f mneme.Filter, k int, only []int64) ([]hit, error) {
	a := args{stems}
	cond, limit := "", ""
	if only != nil {
		cond = "p.rid = ANY(" + a.add(only) + ")"
	} else {
		cond = where(f, &a)
		limit = "LIMIT " + a.add(k)
	}
	k1, b := bm25.Params()
	rows, err := tx.Query(ctx, fmt.Sprintf(lexicalSQL, k1+1, k1, b, cond, limit), a...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []hit
	for rows.Next() {
		var h hit
		var qis []int64
		if err := rows.Scan(&h.rid, &h.score, &qis); err != nil {
			return nil, err
		}
		h.matched = matched(terms, qis)
		out = append(out, h)
	}
	return out, rows.Err()
}

// matched returns the query terms at the 1-based positions qis, once each,
// in query order.
func matched(terms []string, qis []int64) []string {
	seen := map[int64]bool{}
	for _, i := range qis {
		seen[i] = true
	}
	var out []string
	for i, t := range terms[:min(len(terms), 64)] {
		if seen[int64(i+1)] && !contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// vectorSearch returns the k nearest vectors among the records passing f:
// exact when few records pass the filter, else through the HNSW index,
// scanning on (iteratively) until k records pass the filter.
func vectorSearch(ctx context.Context, tx pgx.Tx, sp *vectorSpace, vec []float32, f mneme.Filter, k int) ([]hit, error) {
	a := args{pgvector.NewVector(vec)}
	cond := where(f, &a)
	order := "v.vec <=> $1"
	n, err := countFiltered(ctx, tx, sp, cond, a)
	if err != nil {
		return nil, err
	}
	if n <= exactBelow {
		order = "(v.vec <=> $1) + 0" // an expression the index cannot serve: an exact scan
	} else {
		if _, err := tx.Exec(ctx, fmt.Sprintf("SET LOCAL hnsw.ef_search = %d", max(40, 2*k))); err != nil {
			return nil, err
		}
		if _, err := tx.Exec(ctx, "SET LOCAL hnsw.iterative_scan = strict_order"); err != nil {
			return nil, err
		}
	}
	rows, err := tx.Query(ctx, fmt.Sprintf("SELECT v.rid, 1 - (v.vec <=> $1) FROM %s v JOIN records r ON r.rid = v.rid WHERE %s ORDER BY %s, v.rid DESC LIMIT %d",
		sp.table, cond, order, k), a...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []hit
	for rows.Next() {
		var h hit
		if err := rows.Scan(&h.rid, &h.score); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// countFiltered counts the vectors whose records pass cond, up to
// exactBelow+1.
func countFiltered(ctx context.Context, tx pgx.Tx, sp *vectorSpace, cond string, a args) (int, error) {
	var n int
	err := tx.QueryRow(ctx, fmt.Sprintf("SELECT count(*) FROM (SELECT 1 FROM %s v JOIN records r ON r.rid = v.rid WHERE %s AND $1::vector IS NOT NULL LIMIT %d) x",
		sp.table, cond, exactBelow+1), a...).Scan(&n)
	return n, err
}

// scoreVectors sets the similarity of the candidates the vector lane did
// not rank.
func scoreVectors(ctx context.Context, tx pgx.Tx, sp *vectorSpace, vec []float32, rids []int64, at map[int64]*mneme.Candidate) error {
	var todo []int64
	for _, rid := range rids {
		if at[rid].VectorRank == 0 {
			todo = append(todo, rid)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	rows, err := tx.Query(ctx, "SELECT rid, 1 - (vec <=> $1) FROM "+sp.table+" WHERE rid = ANY($2)", pgvector.NewVector(vec), todo)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var rid int64
		var sim float64
		if err := rows.Scan(&rid, &sim); err != nil {
			return err
		}
		at[rid].Similarity, at[rid].HasVector = sim, true
	}
	return rows.Err()
}

// byRid fetches the records with the given rids.
func byRid(ctx context.Context, tx pgx.Tx, rids []int64) (map[int64]*mneme.Record, error) {
	rows, err := tx.Query(ctx, "SELECT r.rid, "+columns+" FROM records r WHERE r.rid = ANY($1)", rids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[int64]*mneme.Record, len(rids))
	for rows.Next() {
		var rid int64
		r, err := scanRecord(rows, &rid)
		if err != nil {
			return nil, err
		}
		out[rid] = r
	}
	return out, rows.Err()
}
