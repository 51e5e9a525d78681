package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// stmts holds statements a store runs on every recall or write, prepared once:
// database/sql keeps each prepared on the connections that ran it.
type stmts struct {
	mu   sync.Mutex
	by   map[string]*sql.Stmt
	runs map[string]int // transactions that prepared it themselves (see again)
}

// sharedAfter is how many transactions prepare a statement themselves
// before the store prepares it for all: a process that writes a few times
// (a hook, a CLI command) would only pay for preparing it twice, the
// first time on a connection of its own.
const sharedAfter = 3

// again is query prepared once for the store, if sharedAfter transactions
// ran it before; else nil, and the caller prepares it in its own.
func (st *stmts) again(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	st.mu.Lock()
	_, ready := st.by[query]
	if !ready && st.runs[query] < sharedAfter {
		if st.runs == nil {
			st.runs = map[string]int{}
		}
		st.runs[query]++
		st.mu.Unlock()
		return nil, nil
	}
	st.mu.Unlock()
	return st.get(ctx, db, query)
}

func (st *stmts) get(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if s := st.by[query]; s != nil {
		return s, nil
	}
	s, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if st.by == nil {
		st.by = map[string]*sql.Stmt{}
	}
	st.by[query] = s
	return s, nil
}

func (st *stmts) close() {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, s := range st.by {
		s.Close()
	}
	st.by = nil
}
