package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"

	"github.com/mneme-ai/mneme"
)

// A narrow filter that few records pass has both lanes score them one by
// one instead of walking the HNSW index and the posting lists: at most
// exactBelow records, and at most exactShare of the store's (a filter most
// records pass, like the project of a store that holds one, is cheaper to
// check as the lists are walked). Variables for tests.
var (
	exactBelow         = 5000
	exactShare float64 = 0.1
)

// asideLanes lets a hybrid search run its vector lane on a second
// connection (aside.go); a variable for tests and benchmarks.
var asideLanes = true

func (s *Store) now() time.Time { return time.Now().UTC() }

// Candidates runs the lanes q asks for inside PostgreSQL, each under the
// filter, and scores every candidate in both lanes. Both lanes read one
// snapshot (a repeatable-read transaction).
func (s *Store) Candidates(ctx context.Context, q mneme.CandidateQuery) (mneme.Candidates, error) {
	var out mneme.Candidates
	var aside *pgxpool.Pool
	if q.WantsVector() && len(q.Terms) > 0 && asideLanes {
		select {
		case s.aside <- struct{}{}:
			defer func() { <-s.aside }()
			aside = s.pool.Pool
		default: // half the pool is running vector lanes aside: here, one after the other
		}
	}
	out, err := s.search(ctx, q, aside)
	if deadConn(ctx, err) { // the server had ended the connection before the first statement: nothing ran
		out, err = s.search(checked(ctx), q, aside)
	}
	return out, s.translate(err, "search")
}

// search runs q on a connection of its own, in a repeatable-read
// transaction whose BEGIN goes with the plan's reads and whose COMMIT goes
// with the merge's (search.run): two round trips fewer than a transaction
// of its own.
func (s *Store) search(ctx context.Context, q mneme.CandidateQuery, aside *pgxpool.Pool) (mneme.Candidates, error) {
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return mneme.Candidates{}, err
	}
	defer c.Release() // one left in a transaction (the server is gone, the context cancelled) is closed, not reused
	w := &search{ctx: ctx, tx: c, q: q, stats: &s.meta, aside: aside}
	out, err := w.run()
	if err != nil && !c.Conn().IsClosed() && c.Conn().PgConn().TxStatus() != 'I' {
		_, _ = c.Exec(context.WithoutCancel(ctx), "ROLLBACK")
	}
	return out, err
}

// search is one candidate query in its transaction.
type search struct {
	ctx     context.Context
	tx      *pgxpool.Conn // in the search's transaction, from its plan on
	q       mneme.CandidateQuery
	stats   *metaStats      // the store's, for meta filters
	sp      *vectorSpace    // the home's vectors; nil: no vector lane
	lex     *lexQuery       // nil: no lexical lane
	narrow  bool            // the filter says more than which records are visible
	passing int             // records passing a narrow filter, counted up to exactBelow+1 (countSQL)
	exact   bool            // few enough pass it to score them one by one
	share   float64         // about the share of the records passing the filter (1: all)
	pending int64           // records that may have a vector but have none, over all
	linked  []*mneme.Record // what the candidates link to, if asked for
	aside   *pgxpool.Pool   // where to run the vector lane beside the lexical one (nil: one after the other)
	snap    string          // the transaction's snapshot, exported for that
}

// vecHit is a record's cosine similarity to the query vector.
type vecHit struct {
	rid   int64
	score float64
}

// run finds the candidates: each lane's top k, every one scored by both
// lanes, and the records the vector lane cannot see.
func (w *search) run() (mneme.Candidates, error) {
	var out mneme.Candidates
	if err := w.plan(); err != nil { // which begins the transaction
		return out, err
	}
	var lex []lexHit
	var vec []vecHit
	var err error
	var aside <-chan laneResult
	if w.sp != nil && w.lex != nil && w.snap != "" {
		aside = w.vectorAside(w.aside)
	}
	if w.lex != nil {
		lex, err = w.lex.top(w, w.q.K)
	}
	switch {
	case aside != nil: // waited for even after an error: its transaction imports this one's snapshot
		r := <-aside
		vec, err = r.hits, cmp.Or(err, r.err)
	case w.sp != nil && err == nil:
		vec, err = w.vectorLane(w.tx)
	}
	if err != nil {
		return out, err
	}
	w.q.LaneVector() // come by now if a lane ran (and read it), else awaited here
	// The last round trip: the merge's reads, the count of records the
	// vector lane cannot see, and the end of the transaction.
	b := &pgx.Batch{}
	list := w.merge(b, lex, vec)
	if w.q.Vector != nil {
		w.queueUnembedded(b, &out.Unembedded)
	}
	b.Queue("COMMIT")
	if err := w.tx.SendBatch(w.ctx, b).Close(); err != nil {
		return out, err
	}
	out.List, out.Linked = list(), w.linked
	return out, nil
}

// statsSQL reads N and the mean length for BM25, and how many records lack
// a vector.
const statsSQL = `SELECT greatest(sum(n), 1)::float8, greatest(sum(total) / greatest(sum(n), 1), 1e-9)::float8,
	coalesce(sum(plain - vecs), 0)::bigint FROM lex_stats`

// plan reads, in one round trip, what the lanes need: the home's embedder,
// the BM25 statistics of the query terms, and whether few enough records
// pass a narrow filter to score them one by one; and it sets how the
// transaction's queries run.
func (w *search) plan() error {
	b := &pgx.Batch{}
	b.Queue("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") // both lanes read one snapshot
	b.Queue("SET LOCAL jit = off")                             // compiling a plan takes longer than running these
	var info mneme.EmbedderInfo
	var hasInfo bool
	if w.q.WantsVector() { // it may still be on its way: what it needs from the store is read now
		if w.aside != nil {
			b.Queue("SELECT pg_export_snapshot()").QueryRow(func(row pgx.Row) error { return row.Scan(&w.snap) })
		} else {
			for _, s := range laneSettings(w.q.K) { // how the HNSW index is walked, if it is (see vectorLane)
				b.Queue(s)
			}
		}
		b.Queue("SELECT value FROM meta WHERE key = 'embedder'").Query(func(rows pgx.Rows) error {
			var err error
			info, hasInfo, err = scanEmbedder(rows)
			return err
		})
	}
	if w.narrow = narrow(w.q.Filter); w.narrow {
		w.passing = -1
		if est, ok := w.stats.estimate(w.q.Filter, b); ok && est > 1.5*float64(exactBelow) {
			w.passing = int(est) // clearly too many to score one by one: not counted
		}
	}
	if w.passing < 0 {
		a := args{}
		cond := where(w.q.Filter, &a)
		b.Queue(countSQL(w.q.Filter, cond, &a), a...).
			QueryRow(func(row pgx.Row) error { return row.Scan(&w.passing) })
	}
	var n, avgdl float64
	b.Queue(statsSQL).QueryRow(func(row pgx.Row) error { return row.Scan(&n, &avgdl, &w.pending) })
	stats := map[string]termStats{}
	if len(w.q.Terms) > 0 {
		w.lex = newLexQuery(w.q.Terms)
		b.Queue(`SELECT term, sum(df)::bigint, max(maxtf)::float8, min(mindl)::float8 FROM lex_df
			WHERE term = ANY($1) GROUP BY term`, w.lex.stems()).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var t string
				var st termStats
				if err := rows.Scan(&t, &st.df, &st.maxtf, &st.mindl); err != nil {
					return err
				}
				stats[t] = st
			}
			return rows.Err()
		})
	}
	if err := w.tx.SendBatch(w.ctx, b).Close(); err != nil {
		return err
	}
	if w.lex != nil {
		w.lex.setStats(n, avgdl, stats)
	}
	w.exact = w.narrow && w.passing <= exactBelow && float64(w.passing) <= exactShare*n
	w.share = 1
	if w.narrow && w.passing >= 0 && float64(w.passing) < n {
		w.share = max(float64(w.passing), 1) / n
	}
	if hasInfo {
		w.sp = spaceOf(info)
	}
	return nil
}

// narrow says whether f selects more than the visible records, so that
// few records may pass it.
func narrow(f mneme.Filter) bool {
	var a, b args
	visible := mneme.Filter{IncludeSuperseded: f.IncludeSuperseded, IncludeExpired: f.IncludeExpired, Clearance: f.Clearance, Now: f.Now}
	return where(f, &a) != where(visible, &b)
}

// vectorLane returns the k nearest vectors among the records passing the
// filter, nearest first: exact when few records pass a narrow filter, else
// through the HNSW index, walking on (iteratively) until k records pass
// the filter; exact again when the walk gives up before.
func (w *search) vectorLane(on querier) ([]vecHit, error) {
	v := w.q.LaneVector()
	switch {
	case v == nil: // it could not be made (the Engine says why)
		return nil, nil
	case len(v) != w.sp.info.Dim:
		return nil, mneme.Invalid("query vector has %d dimensions, but the home's embedder %s has %d", len(v), w.sp.info.ID(), w.sp.info.Dim)
	}
	a := args{pgvector.NewVector(v)}
	cond := where(w.q.Filter, &a)
	k := w.q.K
	if !w.exact {
		// ORDER BY the index's distance alone, so that it can serve it;
		// the hits are scored in full precision.
		hits, err := w.nearest(on, fmt.Sprintf("SELECT v.rid, 1 - (v.vec <=> $1) FROM %s v JOIN records r ON r.rid = v.rid WHERE %s ORDER BY %s LIMIT %d",
			w.sp.table, cond, w.sp.walkOrder("$1"), k), a)
		if err != nil || len(hits) == k {
			return hits, err
		}
	}
	// An expression the index cannot serve: an exact scan.
	return w.nearest(on, fmt.Sprintf("SELECT v.rid, 1 - (v.vec <=> $1) FROM %s v JOIN records r ON r.rid = v.rid WHERE %s ORDER BY (v.vec <=> $1) + 0, v.rid DESC LIMIT %d",
		w.sp.table, cond, k), a)
}

// nearest runs a vector query, and orders its hits by similarity (ties:
// newer rid first).
func (w *search) nearest(on querier, sql string, a args) ([]vecHit, error) {
	rows, err := on.Query(w.ctx, sql, a...)
	if err != nil {
		return nil, err
	}
	hits, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (vecHit, error) {
		var h vecHit
		err := row.Scan(&h.rid, &h.score)
		return h, err
	})
	slices.SortStableFunc(hits, func(a, b vecHit) int {
		if c := cmpFloat(b.score, a.score); c != 0 {
			return c
		}
		return cmpInt(b.rid, a.rid)
	})
	return hits, err
}

// merge queues on b the reads that make the candidates of both lanes,
// each scored by both, with their records; the function it returns makes
// them once b has run.
func (w *search) merge(b *pgx.Batch, lex []lexHit, vec []vecHit) func() []mneme.Candidate {
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
	for i, h := range lex {
		c := get(h.rid)
		c.LexicalRank, c.BM25, c.MatchedTerms = i+1, h.score, w.lex.matched(h.has)
	}
	var vecOnly []int64
	for i, h := range vec {
		c := get(h.rid)
		c.VectorRank, c.Similarity, c.HasVector = i+1, h.score, true
		if c.LexicalRank == 0 {
			vecOnly = append(vecOnly, h.rid)
		}
	}
	if len(rids) == 0 {
		return func() []mneme.Candidate { return nil }
	}
	// The lexical score of what only the vector lane found, the similarity
	// of what only the lexical lane found, and the records (with what they
	// link to, if asked).
	scores := map[int64]lexHit{}
	if w.lex != nil && len(vecOnly) > 0 {
		w.lex.queueScore(b, vecOnly, scores)
	}
	if w.sp != nil && w.q.Vector != nil {
		w.queueSimilarity(b, rids, at)
	}
	recs := w.queueRecords(b, rids)
	return func() []mneme.Candidate {
		for rid, h := range scores {
			at[rid].BM25, at[rid].MatchedTerms = h.score, w.lex.matched(h.has)
		}
		out := make([]mneme.Candidate, 0, len(rids))
		for _, rid := range rids {
			if r := recs[rid]; r != nil {
				c := at[rid]
				c.Record = r
				out = append(out, *c)
			}
		}
		return out
	}
}

// queueSimilarity queues the reading of the similarity of the candidates
// the vector lane did not rank.
func (w *search) queueSimilarity(b *pgx.Batch, rids []int64, at map[int64]*mneme.Candidate) {
	var todo []int64
	for _, rid := range rids {
		if at[rid].VectorRank == 0 {
			todo = append(todo, rid)
		}
	}
	if len(todo) == 0 {
		return
	}
	b.Queue("SELECT rid, 1 - (vec <=> $1) FROM "+w.sp.table+" WHERE rid = ANY($2)", pgvector.NewVector(w.q.Vector), todo).Query(func(rows pgx.Rows) error {
		return forRows(rows, func() error {
			var rid int64
			var sim float64
			if err := rows.Scan(&rid, &sim); err != nil {
				return err
			}
			at[rid].Similarity, at[rid].HasVector = sim, true
			return nil
		})
	})
}

// queueUnembedded queues the count, into n, of the records passing the
// filter that could have a vector (not secret) but have none from the
// home's embedder (every one of them while the home has none). The counts
// triggers keep tell when there is none at all, the usual case, without
// looking.
func (w *search) queueUnembedded(b *pgx.Batch, n *int) {
	if w.sp != nil && w.pending == 0 {
		return
	}
	a := args{}
	cond := where(w.q.Filter, &a) + " AND r.sensitivity != 'secret'"
	if w.sp != nil {
		cond += fmt.Sprintf(" AND NOT EXISTS (SELECT 1 FROM %s v WHERE v.rid = r.rid)", w.sp.table)
	}
	b.Queue("SELECT count(*) FROM records r WHERE "+cond, a...).QueryRow(func(row pgx.Row) error { return row.Scan(n) })
}

// linkedSQL reads the records that the records $1 (rids) link to.
const linkedSQL = `SELECT ` + columns + ` FROM records r WHERE r.id IN
	(SELECT l->>'target' FROM records c CROSS JOIN LATERAL
	jsonb_array_elements(CASE WHEN c.links LIKE '[{%' THEN c.links::jsonb END) l WHERE c.rid = ANY($1))`

// queueRecords queues the reading of the candidates' records, into the
// map it returns, and of the records they link to when the query asks for
// them.
func (w *search) queueRecords(b *pgx.Batch, rids []int64) map[int64]*mneme.Record {
	out := make(map[int64]*mneme.Record, len(rids))
	b.Queue("SELECT r.rid, "+columns+" FROM records r WHERE r.rid = ANY($1)", rids).Query(func(rows pgx.Rows) error {
		return forRows(rows, func() error {
			var rid int64
			r, err := scanRecord(rows, &rid)
			out[rid] = r
			return err
		})
	})
	if w.q.Linked {
		b.Queue(linkedSQL, rids).Query(func(rows pgx.Rows) error {
			var err error
			w.linked, err = collect(rows)
			return err
		})
	}
	return out
}
