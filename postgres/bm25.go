package postgres

import (
	"math"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/index/bm25"
)

// The lexical lane is BM25 over the postings with the embedded index's
// formula, so both stores score alike: a posting of term t (tf, in a
// record of weighted length dl) adds
//
//	w(t) · tf / (tf + k1·(1 − b) + k1·b·dl/avgdl),  w(t) = idf(t) · (k1+1)
//
// to the record's score, idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5)) over
// every stored record. N, avgdl and df are kept by triggers (lex_stats,
// lex_df), and each posting carries dl, so scoring reads neither the
// records nor whole posting lists to count them. topk.go finds the top k.

// lexTerm is one distinct stem of the query.
type lexTerm struct {
	stem string
	pos  []int // its positions among the query terms
	df   int64
	w    float64 // idf · (k1+1) · its occurrences in the query
	ub   float64 // the most one of its postings adds to a score
}

// termStats are a term's document frequency and the bounds of its
// postings' tf and dl.
type termStats struct {
	df           int64
	maxtf, mindl float64
}

// lexQuery is a BM25 query over the store's statistics.
type lexQuery struct {
	terms   []lexTerm // by bound, highest first
	words   []string  // the query terms
	k0, kdl float64   // a posting adds w·tf / (tf + k0 + kdl·dl)
}

// newLexQuery groups the query terms by stem; the statistics come later
// (setStats).
func newLexQuery(terms []string) *lexQuery {
	q := &lexQuery{words: terms}
	at := map[string]int{}
	for i, t := range q.words {
		s := bm25.Stem(t)
		j, ok := at[s]
		if !ok {
			j = len(q.terms)
			at[s] = j
			q.terms = append(q.terms, lexTerm{stem: s})
		}
		q.terms[j].pos = append(q.terms[j].pos, i)
	}
	return q
}

// termIndex maps each term's stem to its place in q.terms, for rows that
// name the term by its stem.
func (q *lexQuery) termIndex() map[string]int {
	index := make(map[string]int, len(q.terms))
	for i, t := range q.terms {
		index[t.stem] = i
	}
	return index
}

func (q *lexQuery) stems() []string {
	out := make([]string, len(q.terms))
	for i, t := range q.terms {
		out[i] = t.stem
	}
	return out
}

// setStats sets each term's weight and bound from n records of mean
// length avgdl and the terms' statistics, drops the terms no record holds
// (they add nothing, and a long query has many), and orders the rest by
// bound.
func (q *lexQuery) setStats(n, avgdl float64, stats map[string]termStats) {
	q.terms = slices.DeleteFunc(q.terms, func(t lexTerm) bool { return stats[t.stem].df == 0 })
	k1, b := bm25.Params()
	q.k0, q.kdl = k1*(1-b), k1*b/avgdl
	for i := range q.terms {
		t := &q.terms[i]
		st := stats[t.stem]
		t.df = st.df
		idf := math.Log(1 + (n-float64(t.df)+0.5)/(float64(t.df)+0.5))
		t.w = idf * (k1 + 1) * float64(len(t.pos))
		t.ub = t.w * st.maxtf / (st.maxtf + q.k0 + q.kdl*st.mindl) * (1 + 1e-9)
	}
	slices.SortStableFunc(q.terms, func(a, b lexTerm) int { return cmpFloat(b.ub, a.ub) })
}

// add is what a posting of term i with tf in a record of length dl adds.
func (q *lexQuery) add(i int, tf, dl float32) float64 {
	return q.terms[i].w * float64(tf) / (float64(tf) + q.k0 + q.kdl*float64(dl))
}

// probeSQL reads the postings of the terms $1 in the records $2, record
// by record through the primary key (a generic plan may otherwise read
// every posting of the terms).
const probeSQL = `SELECT r.rid, p.term, p.tf, p.dl FROM unnest($2::bigint[]) AS r(rid) CROSS JOIN LATERAL
	(SELECT p.term, p.tf, p.dl FROM postings p WHERE p.term = ANY($1) AND p.rid = r.rid OFFSET 0) p`

// lexHit is a record's BM25 score and the terms (indexes into
// lexQuery.terms, as bits) it holds.
type lexHit struct {
	rid   int64
	score float64
	has   bm25.TermSet
}

// queueScore queues the reading of the BM25 scores of the records rids
// into out (those holding no query term are left out).
func (q *lexQuery) queueScore(b *pgx.Batch, rids []int64, out map[int64]lexHit) {
	index := q.termIndex()
	b.Queue(probeSQL, q.stems(), rids).Query(func(rows pgx.Rows) error {
		return forRows(rows, func() error {
			var rid int64
			var term string
			var tf, dl float32
			if err := rows.Scan(&rid, &term, &tf, &dl); err != nil {
				return err
			}
			i := index[term]
			h := out[rid]
			h.rid, h.score = rid, h.score+q.add(i, tf, dl)
			h.has.Add(i)
			out[rid] = h
			return nil
		})
	})
}

// matched returns the query terms a record holding the terms has holds,
// once each, in query order.
func (q *lexQuery) matched(has bm25.TermSet) []string {
	seen := make([]bool, len(q.words))
	for i, t := range q.terms {
		if has.Has(i) {
			for _, p := range t.pos {
				seen[p] = true
			}
		}
	}
	var out []string
	for i, t := range q.words {
		if seen[i] && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func sortHits(hits []lexHit) {
	slices.SortFunc(hits, func(a, b lexHit) int {
		if c := cmpFloat(b.score, a.score); c != 0 {
			return c
		}
		return cmpInt(b.rid, a.rid)
	})
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
