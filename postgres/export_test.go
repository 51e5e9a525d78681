package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme"
)

// VectorTable names the table holding info's vectors, for tests.
func VectorTable(info mneme.EmbedderInfo) string { return spaceOf(info).table }

// SetSearchLimits sets how many records passing a narrow filter (and what
// share of the store's at most) are scored one by one, how long a posting
// list is read at once and how many records a round of the lexical lane
// settles, and returns a function that restores them.
func SetSearchLimits(exact int, share float64, short int64, settle int) func() {
	e, sr, sh, st := exactBelow, exactShare, shortList, settleBudget
	exactBelow, exactShare, shortList, settleBudget = exact, share, short, settle
	return func() { exactBelow, exactShare, shortList, settleBudget = e, sr, sh, st }
}

// SetVectorExtension makes the store look for pgvector under another name,
// and returns a function that restores it.
func SetVectorExtension(name string) func() {
	old := vectorExtension
	vectorExtension = name
	return func() { vectorExtension = old }
}

// ImpactConstants are the k1·(1 − b) and k1·b / 40 postings_impact orders
// postings with.
func ImpactConstants() (k0, c float64) { return impactK0, impactC }

// MetaEstimate reads the statistics afresh and returns what they say of
// how many records pass f's meta conditions (false: they do not say).
func MetaEstimate(ctx context.Context, s *Store, f mneme.Filter) (float64, bool, error) {
	s.meta.at = time.Time{}
	b := &pgx.Batch{}
	s.meta.estimate(f, b)
	err := s.tx(ctx, func(tx pgx.Tx) error { return tx.SendBatch(ctx, b).Close() })
	est, ok := s.meta.estimate(f, &pgx.Batch{})
	return est, ok, err
}

// SetAsideLanes sets whether a hybrid search may run its vector lane on a
// second connection, and returns a function that restores it.
func SetAsideLanes(on bool) func() {
	old := asideLanes
	asideLanes = on
	return func() { asideLanes = old }
}

// SetAsideHook has fn run before a vector lane's second connection imports
// its search's snapshot, and returns a function that restores it.
func SetAsideHook(fn func()) func() {
	old := asideHook
	asideHook = fn
	return func() { asideHook = old }
}

// WalkOrder is the distance the vector lane orders the table aliased v
// by, from the query vector param, for tests.
func WalkOrder(info mneme.EmbedderInfo, param string) string { return spaceOf(info).walkOrder(param) }

// Plan is what a search under f plans: how many records it counts as
// passing f, and whether it scores them one by one.
func Plan(ctx context.Context, s *Store, f mneme.Filter) (passing int, exact bool, err error) {
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return 0, false, err
	}
	defer c.Release()
	defer c.Exec(context.WithoutCancel(ctx), "ROLLBACK") // the plan begins the search's transaction
	w := &search{ctx: ctx, tx: c, q: mneme.CandidateQuery{Terms: []string{"x"}, K: 10, Filter: f}, stats: &s.meta}
	err = w.plan()
	return w.passing, w.exact, err
}

// SpeakersPlan is the plan of the speakers probe of names under f, with
// sequential scans off (an empty table is otherwise scanned): whether the
// probe can seek in records_speaker.
func SpeakersPlan(ctx context.Context, s *Store, names []string, f mneme.Filter) (string, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
		return "", err
	}
	var a args
	rows, err := tx.Query(ctx, "EXPLAIN "+speakersSQL(&a, names, f), a...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var plan string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return "", err
		}
		plan += line + "\n"
	}
	return plan, rows.Err()
}
