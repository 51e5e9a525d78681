package postgres

import (
	"context"
	"fmt"
	"regexp"

	"github.com/jackc/pgx/v5/pgxpool"
)

// A hybrid search runs its vector lane on a second connection while the
// lexical lane runs on the first: the HNSW walk is the server's work, and
// the lexical lane mostly the client's, so the search takes the longer of
// the two rather than their sum. The second connection reads the first's
// snapshot (pg_export_snapshot), so both lanes still read one snapshot.
// Each such search holds a token of Store.aside; without one (half the
// pool is already doing this) the lanes run one after the other.

// laneSettings is how the vector lane's transaction walks the HNSW index
// for k candidates: ef_search from k, and on (iteratively) until k records
// pass the filter. In relaxed order: the lane sorts what it gets
// (nearest), and pgvector's strict order both reads more of the index and
// finds fewer of the true nearest under a filter (on the benchmark's
// 100,000 records and a filter passing 10%, 27% of the exact top 50
// against 54%, reading 8,772 buffers against 6,387; without a filter they
// find the same). ef_search is 4k: the index walks vectors in half
// precision (migration 0012), and at 2k that found fewer of the exact
// nearest than the full-precision index did (on the benchmark's 40 queries
// for k 50, unfiltered: 25% against 33%; under the 10% filter 51% against
// 52%); at 4k it finds more (42% and 53%) in as much time.
func laneSettings(k int) []string {
	return []string{
		fmt.Sprintf("SET LOCAL hnsw.ef_search = %d", min(1000, max(80, 4*k))),
		"SET LOCAL hnsw.iterative_scan = relaxed_order",
	}
}

// snapshotID is what pg_export_snapshot returns; it is written into SQL.
var snapshotID = regexp.MustCompile(`^[0-9A-Fa-f-]+$`)

// asideHook, when set (by tests), runs before the second connection
// imports the snapshot.
var asideHook func()

// laneResult is the vector lane's outcome.
type laneResult struct {
	hits []vecHit
	err  error
}

// vectorAside starts the vector lane on a connection of p in the
// snapshot w.snap. Its result arrives on the channel before that
// connection's transaction ends: the search need not wait for the end.
func (w *search) vectorAside(p *pgxpool.Pool) <-chan laneResult {
	out := make(chan laneResult, 1)
	go func() {
		c, hits, err := w.vectorOn(p)
		out <- laneResult{hits, err}
		if c != nil {
			if err == nil {
				_, _ = c.Exec(context.WithoutCancel(w.ctx), "ROLLBACK") // after a failure, Release closes it
			}
			c.Release() // one left in a transaction is closed, not reused
		}
	}()
	return out
}

// vectorOn runs the vector lane in a read-only transaction on a connection
// of p that imports the search's snapshot, and returns the connection (nil
// if none was acquired), its transaction open.
func (w *search) vectorOn(p *pgxpool.Pool) (*pgxpool.Conn, []vecHit, error) {
	if !snapshotID.MatchString(w.snap) {
		return nil, nil, fmt.Errorf("unexpected snapshot id %q", w.snap)
	}
	c, err := p.Acquire(w.ctx)
	if err != nil {
		return nil, nil, err
	}
	if asideHook != nil {
		asideHook()
	}
	// No arguments: one round trip through the simple protocol.
	begin := "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET TRANSACTION SNAPSHOT '" + w.snap + "'; SET LOCAL jit = off"
	for _, s := range laneSettings(w.q.K) {
		begin += "; " + s
	}
	if _, err := c.Exec(w.ctx, begin); err != nil {
		return c, nil, err
	}
	hits, err := w.vectorLane(c)
	return c, hits, err
}
